/// Why `Limits` refused a canvas or an animation. `source` names where the numbers came from as
/// the message says it ("IHDR says", "logical screen is", "image is").
public enum LimitsError: ImageErrorReason {
    /// A width or height of zero: bad data rather than a limit.
    case zeroSize(source: String, width: Int, height: Int)
    case overDimensions(source: String, width: Int, height: Int, maxWidth: Int, maxHeight: Int)
    /// Width × height over `maxPixels` (or overflowing `Int`).
    case overPixels(source: String, width: Int, height: Int, maxPixels: Int)
    /// One frame's decoded bytes (width × height × 4) over `maxTotalBytes`.
    case overDecodedSize(source: String, width: Int, height: Int, maxTotalBytes: Int)
    case overFrames(frames: Int, maxFrames: Int)
    /// Frames counted one by one (GIF image descriptors, APNG fcTL chunks) passed `maxFrames`,
    /// before the total is known.
    case moreFramesThan(maxFrames: Int)
    /// All frames' decoded bytes over `maxTotalBytes`.
    case framesOverDecodedSize(frames: Int, width: Int, height: Int, maxTotalBytes: Int)
    /// A JPEG with more scans than `maxScans`, counted from its markers.
    case overScans(scans: Int, maxScans: Int)
    /// What converting the file would hold at its peak, estimated from its structure before
    /// decoding, over `maxMemory` (the CLI's `--max-memory` raises it).
    case overMemory(estimate: Int, maxMemory: Int)
    /// The file's bytes alone, held whole through the conversion beside what any conversion
    /// holds (`least`), pass the budget: refused before it is read.
    case fileOverMemory(bytes: Int, least: Int, maxMemory: Int)

    public var kind: ImageError.Kind {
        if case .zeroSize = self { return .decoding }
        return .limits
    }

    public var message: String {
        switch self {
        case let .zeroSize(source, w, h):
            "\(source) \(w)×\(h): zero size"
        case let .overDimensions(source, w, h, maxW, maxH):
            "\(source) \(w)×\(h), over the \(maxW)×\(maxH) limit"
        case let .overPixels(source, w, h, max):
            "\(source) \(w)×\(h), over the \(Limits.describePixels(max)) limit"
        case let .overDecodedSize(source, w, h, max):
            "\(source) \(w)×\(h), over the \(Limits.describeBytes(max)) decoded-size limit"
        case let .overFrames(frames, max):
            "\(frames) frames, over the \(max)-frame limit"
        case let .moreFramesThan(max):
            "more than \(max) frame\(max == 1 ? "" : "s"), over the frame limit"
        case let .framesOverDecodedSize(frames, w, h, max):
            "\(frames) frames of \(w)×\(h) decode to more than the \(Limits.describeBytes(max)) limit"
        case let .overScans(scans, max):
            "\(scans) scans, over the \(max)-scan limit"
        case let .overMemory(estimate, max):
            "converting it needs about \(Limits.describeMegabytes(estimate)) of memory, over the \(Limits.describeMegabytes(max)) limit (--max-memory raises it)"
        case let .fileOverMemory(bytes, least, max):
            "converting this \(Limits.describeFileSize(bytes)) file needs at least \(Limits.describeMegabytes(least)) of memory, over the \(Limits.describeMegabytes(max)) limit (--max-memory raises it)"
        }
    }

    /// For a command without `--max-memory` (`check`, `preview`): "needs about N MB of memory,
    /// more than one file may use (M MB)" when `error` is an `overMemory` refusal, else nil.
    package static func memoryNeed(of error: any Error) -> String? {
        guard case let .overMemory(estimate, max)? = (error as? ImageError)?.reason as? LimitsError else { return nil }
        return "needs about \(Limits.describeMegabytes(estimate)) of memory, more than one file may use (\(Limits.describeMegabytes(max)))"
    }
}
