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
    /// The RIFF header's size field is 0.
    case riffSizeZero(fileSize: Int)
    /// The RIFF header declares `declared` bytes, fewer than the file's, ending inside the
    /// `chunk` chunk at `chunkOffset`.
    case riffSizeEndsInChunk(declared: Int, fileSize: Int, chunk: String, chunkOffset: Int)
    /// Frame `frame` (1-based) does not lie inside the canvas.
    case frameOutsideCanvas(frame: Int, x: Int, y: Int, width: Int, height: Int, canvasWidth: Int, canvasHeight: Int)
    /// Frame `frame`'s ANMF chunk and its bitstream disagree on its size, and the bitstream's
    /// (what libwebp draws) does not fit the canvas.
    case frameBitstreamOutsideCanvas(frame: Int, width: Int, height: Int, bitstreamWidth: Int, bitstreamHeight: Int,
                                     x: Int, y: Int, canvasWidth: Int, canvasHeight: Int)

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
        case .riffSizeZero(let total):
            "RIFF header says 0 bytes (the file has \(total))"
        case let .riffSizeEndsInChunk(declared, total, chunk, offset):
            "RIFF header says \(declared) bytes, fewer than the file's \(total), and ends inside the '\(chunk)' chunk at byte \(offset)"
        case let .frameOutsideCanvas(frame, x, y, w, h, cw, ch):
            w > cw || h > ch
                ? "frame \(frame) is \(w)×\(h), larger than the \(cw)×\(ch) canvas"
                : "frame \(frame) is \(w)×\(h) at (\(x),\(y)), outside the \(cw)×\(ch) canvas"
        case let .frameBitstreamOutsideCanvas(frame, w, h, bw, bh, x, y, cw, ch):
            "frame \(frame)'s ANMF chunk says \(w)×\(h) but its bitstream is \(bw)×\(bh), which at (\(x),\(y)) does not fit the \(cw)×\(ch) canvas"
        }
    }

    /// The note for a frame whose ANMF chunk and bitstream disagree on its size but whose
    /// bitstream fits the canvas: libwebp (and so Chromium) draws the bitstream's size.
    static func sizeMismatchNote(_ frame: WebPFrameHeader) -> String {
        "frame \(frame.number)'s ANMF chunk says \(frame.width)×\(frame.height) but its bitstream is \(frame.bitstreamWidth ?? frame.width)×\(frame.bitstreamHeight ?? frame.height); drawn at the bitstream's size, as libwebp and browsers do"
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
