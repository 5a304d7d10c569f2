import ImageCore

/// The frames of one sticker at its final size, as the budget search holds them: truecolour, or
/// palette frames that share one palette (a quantizer's result), with their delays.
public struct StickerFrames: Sendable, Equatable {
    /// The pixels of every frame.
    public enum Pixels: Sendable, Equatable {
        /// Straight-alpha RGBA frames.
        case rgba([Image])
        /// Palette frames sharing one palette. Lossless codecs keep them exact (PNG writes a
        /// palette; WebP lossless finds the palette again); lossy codecs see `expanded()` pixels.
        case indexed([IndexedImage])
    }

    public var pixels: Pixels
    /// How long each frame is shown; as many as frames. A still's one delay is ignored.
    public var delays: [Delay]
    /// Times to play, 0 = forever (APNG, WebP; WebM has none: players loop stickers).
    public var loopCount: Int
    /// The input was an animation: write an animated file even when one frame is left.
    public var animated: Bool

    public init(pixels: Pixels, delays: [Delay], loopCount: Int = 0, animated: Bool) {
        self.pixels = pixels
        self.delays = delays
        self.loopCount = loopCount
        self.animated = animated
    }

    /// The frames of `animation`; `animated` as the input was (an APNG of one frame is one).
    public init(_ animation: Animation, animated: Bool? = nil) {
        self.init(pixels: .rgba(animation.frames.map(\.image)), delays: animation.frames.map(\.delay),
                  loopCount: animation.loopCount, animated: animated ?? animation.isAnimated)
    }

    public var frameCount: Int {
        switch pixels {
        case .rgba(let f): f.count
        case .indexed(let f): f.count
        }
    }

    /// A still: one frame from an input that was not animated.
    public var isStill: Bool { frameCount == 1 && !animated }

    /// Every frame as RGBA (palette frames expanded).
    public var rgbaFrames: [Image] {
        switch pixels {
        case .rgba(let f): f
        case .indexed(let f): f.map { $0.expanded() }
        }
    }

    /// The frames as a walk (palette frames expanded one at a time).
    public var streamed: StreamedFrames {
        let pixels = pixels
        let first: (width: Int, height: Int) = switch pixels {
        case .rgba(let f): f.first.map { ($0.width, $0.height) } ?? (0, 0)
        case .indexed(let f): f.first.map { ($0.width, $0.height) } ?? (0, 0)
        }
        return StreamedFrames(width: first.width, height: first.height, delays: delays, loopCount: loopCount,
                              animated: animated) { body in
            switch pixels {
            case .rgba(let f): for (i, image) in f.enumerated() { try image.pixels.withUnsafeBytes { try body(i, $0) } }
            case .indexed(let f): for (i, image) in f.enumerated() { try image.expanded().pixels.withUnsafeBytes { try body(i, $0) } }
            }
        }
    }
}
