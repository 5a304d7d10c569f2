import ImageCore

/// Why a JPEG file could not be decoded, with the offending values.
public enum JPEGError: ImageErrorReason {
    case decoderAllocationFailed
    case endsInHeader(fileSize: Int)
    case dataEnds(fileSize: Int)
    /// libjpeg stopped with this message (empty when it gave none).
    case libjpeg(String)
    /// The ICC_PROFILE chunks' sequence numbers and counts do not make one profile.
    case inconsistentICCChunks(sequences: [Int], counts: [Int])

    public var kind: ImageError.Kind {
        guard case .libjpeg(let text) = self else { return .decoding }
        // 12-bit data, features left out of the build and colour conversions libjpeg lacks.
        let unsupported = ["data precision", "omitted at compile time", "color conversion"].contains { text.contains($0) }
        return unsupported ? .unsupported : .decoding
    }

    public var message: String {
        switch self {
        case .decoderAllocationFailed:
            "libjpeg could not allocate a decoder"
        case .endsInHeader(let total):
            "file is truncated: data ends after \(total) bytes, inside the header"
        case .dataEnds(let total):
            "data ends after \(total) bytes"
        case .libjpeg(let text):
            text.isEmpty ? "libjpeg failed without a message" : "libjpeg: \(text)"
        case let .inconsistentICCChunks(sequences, counts):
            "embedded ICC profile chunks are inconsistent (sequence numbers \(sequences) of \(counts))"
        }
    }
}
