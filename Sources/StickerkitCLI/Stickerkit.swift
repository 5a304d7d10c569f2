import ArgumentParser
import Foundation

/// The `stickerkit` command: folders of artwork in, iMessage stickers out.
@main
struct Stickerkit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stickerkit",
        abstract: "Turn artwork into iMessage stickers (PNG/APNG, 300/408/618 px, within the byte budget).",
        version: "0.1.0",
        subcommands: [Resize.self, Bench.self, Check.self, Pack.self, Icons.self, Preview.self]
    )

    /// Like ArgumentParser's `main()`, with the one exit-code rule of every command: 0 all done,
    /// 1 some inputs failed (each named on stderr), 2 usage error (bad options, or paths that
    /// cannot be used, found before any work). Every error is one escaped line — `PATH: error:
    /// WHAT` or `error: WHAT` — never followed by usage text (`--help` shows that).
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = DashedArgument.problem(in: arguments) { stop(problem) }
        if let first = arguments.first, let problem = unknownCommand(first) { stop(problem) }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            let code = exitCode(for: error)
            // --help, --version: ArgumentParser prints them.
            if code == .success { exit(withError: error) }
            let sub = configuration.subcommands.first { $0._commandName == arguments.first }
            let help = "stickerkit " + (sub.map { $0._commandName + " " } ?? "") + "--help"
            stop(.usage(nil, oneLine(message(for: error)) + " (see '\(help)')"))
        }
        do {
            try command.run()
        } catch let failure as CommandFailure {
            stop(failure)
        } catch let failure as FileError {
            stop(.failed(nil, "\(failure)"))
        } catch let code as ExitCode {
            // The command named what failed already.
            Foundation.exit(code.rawValue)
        } catch {
            let code = exitCode(for: error)
            // --help given after a subcommand ends here.
            if code == .success { exit(withError: error) }
            stop(CommandFailure(kind: code == .validationFailure ? .usage : .failed, subject: nil,
                                message: oneLine(message(for: error))))
        }
    }

    /// The usage error for a first argument that is no command: ArgumentParser calls every
    /// argument after it "unexpected"; this names the command meant when one is a letter or two
    /// away (`rezise` → `resize`), and otherwise lists them. Nil for a command or an option.
    static func unknownCommand(_ word: String) -> CommandFailure? {
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !word.hasPrefix("-"), !names.contains(word) else { return nil }
        let near = names.map { ($0, editDistance(word.lowercased(), $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }
        let hint = near.map { "did you mean '\($0.0)'?" } ?? "the commands are " + names.dropLast().joined(separator: ", ")
        return .usage(nil, "'\(MessageText.escape(word))' is not a stickerkit command; \(hint) (see 'stickerkit --help')")
    }

    /// Levenshtein distance between two short words, in characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        guard !x.isEmpty, !y.isEmpty else { return max(x.count, y.count) }
        var row = Array(0...y.count)
        for i in 1...x.count {
            var previous = row[0]
            row[0] = i
            for j in 1...y.count {
                let kept = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (x[i - 1] == y[j - 1] ? 0 : 1))
                previous = kept
            }
        }
        return row[y.count]
    }

    /// Prints `failure` and exits with its status.
    static func stop(_ failure: CommandFailure) -> Never {
        Terminal(quiet: false).error(failure.description)
        Foundation.exit(failure.exitStatus)
    }

    /// ArgumentParser's message without its "Error: " and on one line.
    static func oneLine(_ message: String) -> String {
        var text = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
        text = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "; ")
        return text
    }
}
