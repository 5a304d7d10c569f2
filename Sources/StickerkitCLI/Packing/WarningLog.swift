/// Warnings of a command that writes a catalog or icon set: each is one line on stderr, whether or
/// not stderr is a terminal (a warning a script never sees is lost), unless `--quiet`, and every one
/// is kept for the `--report`.
final class WarningLog {
    private let terminal: Terminal
    private(set) var lines: [String] = []

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    /// `SUBJECT: warning: MESSAGE`.
    func warn(_ subject: String, _ message: String) {
        let line = "\(subject): warning: \(message)"
        lines.append(line)
        if !terminal.quiet { terminal.error(line) }
    }
}
