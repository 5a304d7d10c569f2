import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to the terminal: one-line messages on stderr, and a progress line that is redrawn in
/// place when stderr is a terminal. Every message is escaped (`MessageText`): a file name cannot
/// break `PATH: error: WHAT` into two lines or rewrite the screen.
final class Terminal: Sendable {
    let isTTY: Bool
    let quiet: Bool
    /// Whether result lines go to stderr: standard output carries a report (`--report -`).
    let resultsOnStderr: Bool
    /// Whether a progress line is on screen; its lock also keeps lines from different threads
    /// whole and in order.
    private let progressShown = Locked(false)

    init(quiet: Bool, resultsOnStderr: Bool = false) {
        self.isTTY = isatty(STDERR_FILENO) == 1
        self.quiet = quiet
        self.resultsOnStderr = resultsOnStderr
    }

    /// Whether progress, warnings and the summary are shown (a terminal, not --quiet).
    var chatty: Bool { isTTY && !quiet }

    /// An error line: always shown.
    func error(_ line: String) { emit(line) }

    /// Every `warn(_:_:)` line so far, in order, for a `--report` (kept under --quiet too).
    var warnings: [String] { recorded.withLock { $0 } }
    private let recorded = Locked<[String]>([])

    /// A warning the user must see (a renamed output, a skipped link, a rebuilt manifest):
    /// shown unless --quiet, whether or not stderr is a terminal (a warning a script never sees
    /// is lost).
    func warning(_ line: String) { if !quiet { emit(line) } }

    /// `SUBJECT: warning: MESSAGE`, shown as `warning(_:)` shows it and kept in `warnings`.
    func warn(_ subject: String, _ message: String) {
        let line = "\(subject): warning: \(message)"
        recorded.withLock { $0.append(line) }
        warning(line)
    }

    /// A note: only on a terminal without --quiet.
    func note(_ line: String) { if chatty { emit(line) } }

    /// A line the user asked for (`-v`): shown unless --quiet, whether or not stderr is a
    /// terminal (`resize -v 2> log` keeps them).
    func detail(_ line: String) { if !quiet { emit(line) } }

    /// A line of the command's result on stdout (escaped as every message is), or on stderr
    /// when stdout carries a report.
    func result(_ line: String) {
        if resultsOnStderr { return emit(line) }
        progressShown.withLock { _ in FileHandle.standardOutput.write(Data((MessageText.escape(line) + "\n").utf8)) }
    }

    func progress(_ line: String) {
        guard chatty else { return }
        progressShown.withLock { shown in
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
            shown = true
        }
    }

    func finishProgress() {
        progressShown.withLock { shown in
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)); shown = false }
        }
    }

    private func emit(_ line: String) {
        progressShown.withLock { shown in
            let prefix = shown ? "\r\u{1B}[2K" : ""
            shown = false
            FileHandle.standardError.write(Data((prefix + MessageText.escape(line) + "\n").utf8))
        }
    }
}

/// "1.2 MB", "830 KB", "512 bytes" with 1 KB = 1,000 bytes, as the budget counts.
func formatBytes(_ n: Int) -> String {
    if n >= 1_000_000 { return String(format: "%.1f MB", Double(n) / 1_000_000) }
    if n >= 1_000 { return String(format: "%.1f KB", Double(n) / 1_000) }
    return "\(n) bytes"
}

func formatDuration(_ s: Double) -> String {
    if s < 60 { return String(format: "%.1f s", s) }
    return String(format: "%d min %02d s", Int(s) / 60, Int(s) % 60)
}
