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
