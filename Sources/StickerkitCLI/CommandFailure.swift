/// A one-line error printed on stderr (escaped), exit status 1: an input or an output failed.
/// Usage errors (exit 2) are `ValidationError`s.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
