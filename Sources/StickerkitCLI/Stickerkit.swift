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
    /// cannot be used, found before any work). Every message is one escaped line.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = DashedArgument.problem(in: arguments) {
            printError("Error: " + problem)
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let failure as CommandFailure {
            printError(failure.description)
            Foundation.exit(1)
        } catch let failure as FileError {
            printError("error: \(failure)")
            Foundation.exit(1)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                printError(fullMessage(for: error))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }

    /// Writes `message` on stderr, each of its lines escaped (`MessageText`).
    static func printError(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { MessageText.escape(String($0)) }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}
