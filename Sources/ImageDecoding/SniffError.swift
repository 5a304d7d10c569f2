import ImageCore

/// Why bytes are not an image Stickerkit reads at all (the format is unknown, so `ImageError`'s
/// is nil).
public enum SniffError: ImageErrorReason {
    case emptyFile
    /// No known signature; the first bytes (up to 8) for the message.
    case unknownFormat(firstBytes: [UInt8])

    public var kind: ImageError.Kind { .unsupported }

    public var message: String {
        switch self {
        case .emptyFile: "empty file (0 bytes)"
        case .unknownFormat(let head): "not an image: unknown format (first bytes \(Hex.bytes(head)))"
        }
    }
}
