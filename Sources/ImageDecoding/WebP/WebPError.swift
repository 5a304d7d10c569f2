import CWebP
import ImageCore

/// Why a WebP file could not be decoded, with the offending values. `status` is libwebp's
/// `VP8StatusCode`.
public enum WebPError: ImageErrorReason {
    case endsInHeader(fileSize: Int)
    case cannotReadHeader(status: Int)
    /// The file ends after `fileSize` of the `declared` bytes its RIFF header announces.
    case endsInImageData(fileSize: Int, declared: Int)
    case endsBeforeFirstRow(fileSize: Int, declared: Int)
    case cannotDecodeImage(status: Int)
    case animationTruncated(WebPCut, fileSize: Int, declared: Int)
    case animationDecoderVersion
    case cannotParseAnimation(bytes: Int)
    case cannotReadAnimationHeader
    /// libwebp could not decode frame `frame` (1-based) of `of`.
    case cannotDecodeFrame(frame: Int, of: Int)
    case noFrames

    public var kind: ImageError.Kind { .decoding }

    public var message: String {
        switch self {
        case .endsInHeader(let total):
            "data ends after \(total) bytes (header only)"
        case .cannotReadHeader(let status):
            "libwebp cannot read the header: \(WebPError.describe(status))"
        case let .endsInImageData(total, declared):
            "data ends after \(total) of \(declared) bytes, in the image data"
        case let .endsBeforeFirstRow(total, declared):
            "data ends after \(total) of \(declared) bytes, before the first row"
        case .cannotDecodeImage(let status):
            "libwebp cannot decode the image: \(WebPError.describe(status))"
        case let .animationTruncated(cut, total, declared):
            "\(cut) (data ends after \(total) of \(declared) bytes)"
        case .animationDecoderVersion:
            "libwebp animation decoder version mismatch"
        case .cannotParseAnimation(let bytes):
            "libwebp cannot parse the animation (\(bytes) bytes)"
        case .cannotReadAnimationHeader:
            "libwebp cannot read the animation header"
        case let .cannotDecodeFrame(frame, of):
            "libwebp cannot decode frame \(frame) of \(of)"
        case .noFrames:
            "animation has no frames"
        }
    }

    static func describe(_ status: Int) -> String {
        switch VP8StatusCode(rawValue: UInt32(truncatingIfNeeded: status)) {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data"
        default: "status \(status)"
        }
    }
}
