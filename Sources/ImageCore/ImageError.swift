/// A typed error from any stage, classified by who is at fault, carrying the format and a message
/// that names the offending values ("IHDR says 100000×100000, over the 100 MP limit").
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// The data is malformed or truncated.
        case decoding
        /// The data is well formed but over a configured `Limits` bound.
        case limits
        /// A valid feature this build does not handle, or not an image format at all.
        case unsupported
        /// Producing output failed.
        case encoding
        /// A caller passed a bad parameter.
        case parameter
    }

    public var kind: Kind
    public var format: ImageFormat?
    public var message: String

    public init(_ kind: Kind, _ format: ImageFormat?, _ message: String) {
        self.kind = kind
        self.format = format
        self.message = message
    }

    public static func decoding(_ format: ImageFormat?, _ message: String) -> ImageError { .init(.decoding, format, message) }
    public static func limits(_ format: ImageFormat?, _ message: String) -> ImageError { .init(.limits, format, message) }
    public static func unsupported(_ format: ImageFormat?, _ message: String) -> ImageError { .init(.unsupported, format, message) }

    /// "PNG: IHDR says 0×16" — one line, format first.
    public var description: String {
        if let format { return "\(format.displayName): \(message)" }
        return message
    }
}
