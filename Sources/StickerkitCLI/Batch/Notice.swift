/// Something the user must know about that is not an error of one input: a renamed output, a
/// link that was not followed, a damaged manifest rebuilt. Printed on stderr (unless `--quiet`,
/// whether or not stderr is a terminal) and listed in the report's `notices`.
struct Notice: Encodable, Sendable, Equatable {
    var path: String
    var message: String

    init(_ path: BytePath, _ message: String) {
        self.path = path.string ?? path.display
        self.message = message
    }

    /// `PATH: warning: MESSAGE`.
    var line: String { "\(path): warning: \(message)" }
}
