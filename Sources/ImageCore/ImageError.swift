/// A typed error from any stage: what went wrong (`reason`, a case of the stage's own error enum
/// carrying the offending values), in which format, and — through the reason — who is at fault.
///
/// Match the reason's case to learn what happened (`error.reason as? LimitsError`); print the
/// error for one line that names the format and the values ("PNG: IHDR says 100000×100000, over
/// the 65535×65535 limit").
public struct ImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Who is at fault.
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

    /// The format of the data at fault, when known.
    public let format: ImageFormat?
    /// What went wrong, with the offending values.
    public let reason: any ImageErrorReason

    public init(_ format: ImageFormat?, _ reason: any ImageErrorReason) {
        self.format = format
        self.reason = reason
    }

    /// Who is at fault, from the reason.
    public var kind: Kind { reason.kind }
    /// The reason in words, without the format.
    public var message: String { reason.message }

    /// "PNG: IHDR says 0×16" — one line, format first.
    public var description: String {
        if let format { return "\(format.displayName): \(message)" }
        return message
    }

    public static func == (a: ImageError, b: ImageError) -> Bool {
        a.format == b.format && a.reason.isEqual(to: b.reason)
    }
}
