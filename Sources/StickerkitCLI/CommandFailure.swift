/// The one error of a command that stops it: one line on stderr, `SUBJECT: error: WHAT` (or
/// `error: WHAT` when no one path is at fault), escaped like every message (`MessageText`), and
/// its exit status: 2 for a usage error (the command line asks for what cannot be — an option
/// value, a path in the way — found before any work), 1 for a failure (inputs or outputs failed).
/// `Stickerkit.main()` prints it; nothing else prints usage text after it.
struct CommandFailure: Error, CustomStringConvertible {
    enum Kind: Sendable { case usage, failed }

    var kind: Kind
    /// The path (or argument) at fault, as shown.
    var subject: String?
    var message: String

    static func usage(_ subject: String?, _ message: String) -> CommandFailure {
        CommandFailure(kind: .usage, subject: subject, message: message)
    }

    static func failed(_ subject: String?, _ message: String) -> CommandFailure {
        CommandFailure(kind: .failed, subject: subject, message: message)
    }

    /// The same failure about `subject`, unless it names one already.
    func about(_ subject: String) -> CommandFailure {
        var f = self
        if f.subject == nil { f.subject = subject }
        return f
    }

    /// `error`'s message about `subject`: a `CommandFailure`'s own, any other error's description.
    static func failed(_ subject: String, _ error: any Error) -> CommandFailure {
        (error as? CommandFailure)?.about(subject) ?? .failed(subject, "\(error)")
    }

    var description: String { (subject.map { "\($0): " } ?? "") + "error: " + message }

    var exitStatus: Int32 { kind == .usage ? 2 : 1 }
}
