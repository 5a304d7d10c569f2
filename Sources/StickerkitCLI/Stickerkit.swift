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

    /// Like ArgumentParser's `main()`, but usage errors exit with status 2 (the documented
    /// contract: 0 all done, 1 some files failed, 2 usage error).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = fullMessage(for: error)
                FileHandle.standardError.write(Data((message + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
