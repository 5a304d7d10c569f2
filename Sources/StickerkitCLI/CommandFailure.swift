/// A one-line error printed on stderr, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
