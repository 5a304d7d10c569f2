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
        guard case .png(let effort) = self else { return try encode(frames.streamed, quality: quality) }
        let container = container(still: frames.isStill)
        guard quality == .lossless else { throw ImageError(nil, StickerEncodingError.noLevels(container: container)) }
        return EncodedSticker(bytes: try Self.encodePNG(frames, effort: effort), container: container, animated: !frames.isStill,
                              quality: quality)
    }

    /// The whole file for frames given one at a time. WebP and WebM never hold them all (WebP's
    /// animation encoder takes them frame by frame; WebM walks them once per stream and pass);
    /// PNG/APNG, whose writer compares frames, collects them first.
    ///
    /// With `stopPast`, a codec that can tell part-way that the file will pass that many bytes
    /// (WebM: its packets so far already do) stops there and throws `EncodeStopped`; the others
    /// encode the whole file.
    public func encode(_ frames: StreamedFrames, quality: EncodeQuality, stopPast: Int? = nil) throws -> EncodedSticker {
        let container = container(still: frames.isStill)
        let bytes: [UInt8]
        switch (self, quality) {
        case (.png, _):
            let images = try frames.images()
            return try encode(StickerFrames(pixels: .rgba(images), delays: frames.delays, loopCount: frames.loopCount,
                                            animated: frames.animated), quality: quality)
        case (.webp(let options), _):
            let compression: WebPCompression
            switch quality {
            case .lossless: compression = .lossless
            case .level(let q): compression = .lossy(quality: try checked(q, container))
            }
            if frames.isStill {
                var still: [UInt8]?
                try frames.walk { i, pixels in
                    guard i == 0 else { return }
                    still = try WebPEncoder.encode(Image(width: frames.width, height: frames.height, pixels: [UInt8](pixels)),
                                                   compression: compression, options: options)
                }
                guard let still else { throw ImageError(.webp, WebPEncodingError.noFrames) }
                bytes = still
            } else {
                bytes = try WebPEncoder.encodeAnimation(width: frames.width, height: frames.height, delays: frames.delays,
                                                        loopCount: frames.loopCount, compression: compression, options: options,
                                                        alwaysAnimated: frames.animated, walk: frames.walk)
            }
        case (.webm, .lossless):
            throw ImageError(nil, StickerEncodingError.noLossless(container: container))
        case (.webm(let options), .level(let q)):
            let level = try checked(q, container)
            do {
                bytes = try WebMEncoder.encode(width: frames.width, height: frames.height, delays: frames.delays,
                                               rate: .constantQuality(cqLevel: 63 - level), options: options,
                                               stopPast: stopPast, walk: frames.walk)
            } catch let s as WebMStopped {
                throw EncodeStopped(estimatedBytes: s.estimatedBytes)
            }
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
