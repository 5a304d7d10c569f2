import ImageCore

/// Why the APNG encoder refused its input: a caller's mistake (`ImageError.Kind.parameter`), with
/// the offending values.
public enum APNGEncodingError: ImageErrorReason {
    case noFrames
    case delayCount(frames: Int, delays: Int)
    case unwritableSize(width: Int, height: Int)
    /// Frame `frame` is not the size of frame 0.
    case frameSize(frame: Int, width: Int, height: Int, firstWidth: Int, firstHeight: Int)
    case loopCount(Int)
    case tooManyFrames(Int)
    /// Frame `frame`'s palette differs from frame 0's; all frames must share one.
    case paletteDiffers(frame: Int, entries: Int, firstEntries: Int)
    /// A layout given to the encoder does not fit the frames; `detail` says how.
    case layoutMismatch(detail: String)

    public var kind: ImageError.Kind { .parameter }

    public var message: String {
        switch self {
        case .noFrames:
            "no frames to encode"
        case let .delayCount(frames, delays):
            "\(frames) frames but \(delays) delays"
        case let .unwritableSize(w, h):
            "frame size \(w)×\(h) cannot be written"
        case let .frameSize(frame, w, h, fw, fh):
            "frame \(frame) is \(w)×\(h), frame 0 is \(fw)×\(fh)"
        case .loopCount(let n):
            "loop count \(n) is outside 0…\(UInt32.max)"
        case .tooManyFrames(let n):
            "\(n) frames, more than APNG sequence numbers can count"
        case let .paletteDiffers(frame, entries, firstEntries):
            "frame \(frame) has a palette (\(entries) entries) that differs from frame 0's (\(firstEntries) entries); all frames must share one palette"
        case .layoutMismatch(let detail):
            "the given layout does not fit these frames: \(detail)"
        }
    }
}
