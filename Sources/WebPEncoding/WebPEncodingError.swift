import ImageCore

/// Why the WebP encoder refused or failed: a caller's mistake (`.parameter`) or libwebp's failure
/// (`.encoding`), with the offending values.
public enum WebPEncodingError: ImageErrorReason {
    case noFrames
    case delayCount(frames: Int, delays: Int)
    /// WebP holds 1 … 16383 pixels a side.
    case unwritableSize(width: Int, height: Int)
    /// Frame `frame` is not the size of frame 0.
    case frameSize(frame: Int, width: Int, height: Int, firstWidth: Int, firstHeight: Int)
    /// WebP counts loops in 16 bits (0 = forever).
    case loopCount(Int)
    /// The animation is longer than WebP's timestamps (a signed 32-bit count of milliseconds) reach.
    case tooLong(milliseconds: Int)
    case quality(Int)
    case method(Int)
    case losslessEffort(Int)
    case alphaQuality(Int)
    case keyframeSpacing(minimum: Int, maximum: Int)
    /// libwebp's `WebPEncode` failed with this `WebPEncodingError` code.
    case encoderFailed(code: Int)
    /// libwebpmux's animation encoder failed on frame `frame` (nil: while assembling the file),
    /// with libwebp's own words.
    case animationEncoderFailed(frame: Int?, detail: String)

    public var kind: ImageError.Kind {
        switch self {
        case .encoderFailed, .animationEncoderFailed: .encoding
        default: .parameter
        }
    }

    public var message: String {
        switch self {
        case .noFrames: "no frames to encode"
        case let .delayCount(frames, delays): "\(frames) frames but \(delays) delays"
        case let .unwritableSize(w, h): "frame size \(w)×\(h) cannot be written (1…16383 pixels a side)"
        case let .frameSize(frame, w, h, fw, fh): "frame \(frame) is \(w)×\(h), frame 0 is \(fw)×\(fh)"
        case .loopCount(let n): "loop count \(n) is outside 0…65535"
        case .tooLong(let ms): "the animation lasts \(ms) ms, longer than WebP timestamps reach (\(Int32.max) ms)"
        case .quality(let q): "quality \(q) is outside 0…100"
        case .method(let m): "method \(m) is outside 0…6"
        case .losslessEffort(let e): "lossless effort \(e) is outside 0…100"
        case .alphaQuality(let q): "alpha quality \(q) is outside 0…100"
        case let .keyframeSpacing(lo, hi):
            "keyframe spacing \(lo)…\(hi) is not allowed (maximum 1, or maximum/2+1 ≤ minimum < maximum)"
        case .encoderFailed(let code): "libwebp's encoder failed (error \(code))"
        case let .animationEncoderFailed(frame?, detail): "libwebp's animation encoder failed on frame \(frame): \(detail)"
        case let .animationEncoderFailed(nil, detail): "libwebp's animation encoder failed: \(detail)"
        }
    }
}
