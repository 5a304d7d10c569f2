/// What went wrong in an `ImageError`: each stage (and each format's decoder) has its own enum of
/// reasons whose cases carry the offending values and build the message from them, so callers
/// and tests match cases, never wording.
public protocol ImageErrorReason: Sendable, Equatable {
    /// Who is at fault.
    var kind: ImageError.Kind { get }
    /// One line for people, naming the values, without the format (`ImageError` puts it first).
    var message: String { get }
}

extension ImageErrorReason {
    /// Equality across the existential: the same type and the same case and values.
    func isEqual(to other: any ImageErrorReason) -> Bool {
        (other as? Self) == self
    }
}
