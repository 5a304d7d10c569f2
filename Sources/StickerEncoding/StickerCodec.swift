import ImageCore
import PNGEncoding
import WebMEncoding
import WebPEncoding

/// The one seam between the budget search and the encoders: a codec with its fixed settings, as
/// a value. Platform rules name one for stills and one for animations (data, not code); the
/// budget search calls `encode(_:quality:)` with frames at sticker size and a quality, and gets
/// the whole file back. Adding a container is one new case here and its encoder module.
///
/// Contract, for every codec:
/// - Deterministic: equal frames, quality and codec give equal bytes, on any thread, at any
///   concurrency, in any process (each encoder is single-threaded inside and keeps no state).
/// - Frames are the whole canvas at each step, all one size; delays are exact (`Delay`); the
///   container keeps them as exactly as it can (APNG: a fraction; WebP and WebM: milliseconds,
///   `Delay.millisecondTimeline`). Consecutive identical frames may merge into one that lasts as
///   long as both.
/// - `StickerFrames.isStill` gives a still file (PNG, WebP); otherwise an animation, even of one
///   frame. WebM is always a video.
/// - Errors are `ImageError`s: `StickerEncodingError` for a quality the codec lacks, else the
///   encoder's own (bad frames or options are `.parameter`, library failures `.encoding`).
/// - Quality: see `EncodeQuality` and `qualityLevels`.
public enum StickerCodec: Hashable, Sendable {
    /// PNG for stills, APNG for animations (PNGEncoding), lossless at this effort.
    case png(Effort)
    /// WebP, still or animated (libwebp), with these fixed settings.
    case webp(WebPOptions)
    /// VP9 in WebM, alpha as a second stream (libvpx + our muxer), with these fixed settings.
    case webm(WebMOptions)

    /// The levels `EncodeQuality.level` takes, higher = better and larger; nil when the codec
    /// takes none (PNG: its quality is the quantizer's colour count, upstream).
    public var qualityLevels: ClosedRange<Int>? {
        switch self {
        case .png: nil
        case .webp: 0...100
        case .webm: 0...63
        }
    }

    /// Whether `EncodeQuality.lossless` is available.
    public var hasLossless: Bool {
        switch self {
        case .png, .webp: true
        case .webm: false
        }
    }

    /// The container written for frames that are (not) a still.
    public func container(still: Bool) -> StickerContainer {
        switch self {
        case .png: still ? .png : .apng
        case .webp: .webp
        case .webm: .webm
        }
    }

    /// The whole file for `frames` at `quality`.
    public func encode(_ frames: StickerFrames, quality: EncodeQuality) throws -> EncodedSticker {
        let container = container(still: frames.isStill)
        let bytes: [UInt8]
        switch (self, quality) {
        case (.png, .level):
            throw ImageError(nil, StickerEncodingError.noLevels(container: container))
        case (.png(let effort), .lossless):
            bytes = try Self.encodePNG(frames, effort: effort)
        case (.webp(let options), _):
            let compression: WebPCompression
            switch quality {
            case .lossless: compression = .lossless
            case .level(let q): compression = .lossy(quality: try checked(q, container))
            }
            let rgba = frames.rgbaFrames
            bytes = frames.isStill
                ? try WebPEncoder.encode(rgba[0], compression: compression, options: options)
                : try WebPEncoder.encodeAnimation(frames: rgba, delays: frames.delays, loopCount: frames.loopCount,
                                                  compression: compression, options: options, alwaysAnimated: frames.animated)
        case (.webm, .lossless):
            throw ImageError(nil, StickerEncodingError.noLossless(container: container))
        case (.webm(let options), .level(let q)):
            let level = try checked(q, container)
            bytes = try WebMEncoder.encode(frames: frames.rgbaFrames, delays: frames.delays,
                                           rate: .constantQuality(cqLevel: 63 - level), options: options)
        }
        return EncodedSticker(bytes: bytes, container: container, animated: !frames.isStill || container == .webm,
                              quality: quality)
    }

    /// A cheap estimate of `encode(frames, quality:).bytes.count` where the codec has one, else
    /// nil (then the cheapest honest estimate is a real encode at faster settings).
    ///
    /// PNG with palette frames: PNGEncoding's estimators (one libdeflate level-6 pass scaled to
    /// `.default`; within about ±5 % of the `.default` size, measured in PNGEncoding/NOTES.md).
    /// WebP and WebM: nil — libwebp and libvpx have no size model cheaper than encoding.
    public func estimatedSize(_ frames: StickerFrames, quality: EncodeQuality) -> Int? {
        guard case .png = self, quality == .lossless, case .indexed(let indexed) = frames.pixels else { return nil }
        if frames.isStill { return PNGEncoder.estimatedSize(indexed[0]) }
        return try? PNGEncoder.estimatedAnimationSize(frames: indexed, delays: frames.delays, loopCount: frames.loopCount)
    }

    private func checked(_ level: Int, _ container: StickerContainer) throws -> Int {
        guard let range = qualityLevels, range.contains(level) else {
            throw ImageError(nil, StickerEncodingError.levelOutOfRange(level: level, range: qualityLevels ?? 0...0,
                                                                      container: container))
        }
        return level
    }

    private static func encodePNG(_ frames: StickerFrames, effort: Effort) throws -> [UInt8] {
        switch frames.pixels {
        case .rgba(let images):
            if frames.isStill { return PNGEncoder.encode(images[0], effort: effort) }
            return try PNGEncoder.encodeAnimation(frames: images, delays: frames.delays, loopCount: frames.loopCount,
                                                  effort: effort, alwaysAnimated: frames.animated)
        case .indexed(let images):
            if frames.isStill { return PNGEncoder.encode(images[0], effort: effort) }
            return try PNGEncoder.encodeAnimation(frames: images, delays: frames.delays, loopCount: frames.loopCount,
                                                  effort: effort, alwaysAnimated: frames.animated)
        }
    }
}
