import ImageCore

/// Why the WebM encoder refused or failed: a caller's mistake (`.parameter`) or libvpx's failure
/// (`.encoding`), with the offending values. Messages name WebM themselves (`ImageFormat` lists
/// the formats Stickerkit reads, and WebM is not one), so errors carry no format.
public enum WebMEncodingError: ImageErrorReason {
    case noFrames
    case delayCount(frames: Int, delays: Int)
    /// VP9 in WebM holds 2 … 16384 pixels a side here (chroma is subsampled 2×2).
    case unwritableSize(width: Int, height: Int)
    case frameSize(frame: Int, width: Int, height: Int, firstWidth: Int, firstHeight: Int)
    case cqLevel(Int)
    case bitrate(Int)
    case speed(Int)
    case keyframeInterval(Int)
    case lookahead(Int)
    /// `WebMOptions.realtime` with `twoPass`: libvpx's realtime deadline encodes in one pass.
    case realtimeTwoPass
    /// The animation is longer than the encoder's millisecond clock reaches.
    case tooLong(milliseconds: Int)
    /// libvpx failed in `stage` with this `vpx_codec_err_t` and its own words.
    case encoderFailed(stage: String, code: Int, detail: String)
    /// The colour and alpha encoders did not give one frame each per input frame, or disagreed on
    /// which frames are keyframes (the muxer needs both to pair the streams).
    case streamsDisagree(colorFrames: Int, alphaFrames: Int, frames: Int)

    public var kind: ImageError.Kind {
        switch self {
        case .encoderFailed, .streamsDisagree: .encoding
        default: .parameter
        }
    }

    public var message: String {
        switch self {
        case .noFrames: "WebM: no frames to encode"
        case let .delayCount(frames, delays): "WebM: \(frames) frames but \(delays) delays"
        case let .unwritableSize(w, h): "WebM: frame size \(w)×\(h) cannot be written (2…16384 pixels a side)"
        case let .frameSize(frame, w, h, fw, fh): "WebM: frame \(frame) is \(w)×\(h), frame 0 is \(fw)×\(fh)"
        case .cqLevel(let q): "WebM: VP9 quantizer level \(q) is outside 0…63"
        case .bitrate(let b): "WebM: bitrate \(b) kbps is outside 1…1000000"
        case .speed(let s): "WebM: speed \(s) is outside 0…8"
        case .keyframeInterval(let k): "WebM: keyframe interval \(k) is below 1"
        case .lookahead(let n): "WebM: lookahead \(n) is outside 0…25"
        case .realtimeTwoPass: "WebM: the realtime deadline encodes in one pass; turn two passes off"
        case .tooLong(let ms): "WebM: the animation lasts \(ms) ms, longer than the encoder's clock reaches"
        case let .encoderFailed(stage, code, detail): "WebM: libvpx failed in \(stage) (error \(code)): \(detail)"
        case let .streamsDisagree(c, a, n):
            "WebM: the colour and alpha streams disagree (\(c) and \(a) frames, or keyframes, for \(n) input frames)"
        }
    }
}
