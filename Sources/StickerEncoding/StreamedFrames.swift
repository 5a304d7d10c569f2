import ImageCore

/// The frames of one sticker given one at a time: what a caller that never holds every frame
/// (a platform conversion walking its store of fitted frames) hands the encoders. Each frame is
/// the whole `width × height` RGBA canvas, valid during the call only. WebP takes them frame by
/// frame (`WebPAnimEncoderAdd`); WebM walks them once per stream.
public struct StreamedFrames {
    /// Calls its argument with every frame in order: its number (0…) and its RGBA bytes.
    public typealias Walk = ((Int, UnsafeRawBufferPointer) throws -> Void) throws -> Void

    public var width: Int
    public var height: Int
    /// How long each frame is shown; one per frame.
    public var delays: [Delay]
    /// Times to play, 0 = forever.
    public var loopCount: Int
    /// The input was an animation: write an animated file even when one frame is left.
    public var animated: Bool
    public var walk: Walk

    public init(width: Int, height: Int, delays: [Delay], loopCount: Int = 0, animated: Bool, walk: @escaping Walk) {
        self.width = width
        self.height = height
        self.delays = delays
        self.loopCount = loopCount
        self.animated = animated
        self.walk = walk
    }

    public var frameCount: Int { delays.count }

    /// A still: one frame from an input that was not animated.
    public var isStill: Bool { frameCount == 1 && !animated }

    /// Every frame as an `Image`, held at once (for encoders that take them so).
    public func images() throws -> [Image] {
        var out: [Image] = []
        out.reserveCapacity(frameCount)
        try walk { _, pixels in out.append(Image(width: width, height: height, pixels: [UInt8](pixels))) }
        return out
    }
}
