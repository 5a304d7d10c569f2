import CGIF
import ImageCore

/// Why a GIF file could not be decoded, with the offending values.
public enum GIFError: ImageErrorReason {
    case endsInScreenDescriptor(fileSize: Int)
    /// giflib refused the file's opening; `code` is giflib's error code.
    case cannotOpen(code: Int)
    case noImage(fileSize: Int)
    /// The data ends at `place`.
    case dataEnds(GIFPlace, fileSize: Int)
    /// giflib failed with error `code` at `place`, having read `offset` bytes.
    case giflib(code: Int, GIFPlace, offset: Int)

    /// Frame `frame`'s LZW minimum code size is outside `GIFDescriptor.readableCodeSizes`.
    case invalidLZWCodeSize(frame: Int, size: Int)
    /// Frame `frame`'s image descriptor has a zero width or height.
    case frameZeroSize(frame: Int, width: Int, height: Int)

    public var kind: ImageError.Kind { .decoding }

    /// Lenient decoding's note for a problem it passes over as browsers do.
    var skippedNote: String {
        switch self {
        case let .frameZeroSize(frame, w, h): "frame \(frame) is \(w)×\(h): nothing drawn for it, as browsers do"
        default: message
        }
    }

    public var message: String {
        switch self {
        case .endsInScreenDescriptor(let total):
            "data ends after \(total) bytes, inside the screen descriptor"
        case .cannotOpen(let code):
            "giflib cannot open the file: \(GIFError.giflibText(code))"
        case .noImage(let total):
            "no image in the file (\(total) bytes)"
        case let .dataEnds(place, total):
            "data ends \(place) (after \(total) bytes)"
        case let .giflib(code, place, offset):
            "\(GIFError.giflibText(code)) \(place) (at byte \(offset))"
        case let .invalidLZWCodeSize(frame, size):
            "frame \(frame) has an invalid LZW minimum code size of \(size) (decodable: \(GIFDescriptor.readableCodeSizes.lowerBound) to \(GIFDescriptor.readableCodeSizes.upperBound))"
        case let .frameZeroSize(frame, w, h):
            "frame \(frame) is \(w)×\(h): a frame without pixels (--lenient draws nothing for it, as browsers do)"
        }
    }

    /// The note for a frame past the screen (the decoder adds "; clipped").
    static func outsideScreen(frame: Int, left: Int, top: Int, width: Int, height: Int, screenWidth: Int, screenHeight: Int) -> String {
        "frame \(frame) at (\(left),\(top)) size \(width)×\(height) extends past the \(screenWidth)×\(screenHeight) screen"
    }

    /// giflib's text for an error code.
    static func giflibText(_ code: Int) -> String {
        if let text = GifErrorString(Int32(truncatingIfNeeded: code)) { return String(cString: text) }
        return "giflib error \(code)"
    }
}
