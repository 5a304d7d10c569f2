import ArgumentParser

/// The `stickerkit` command: folders of artwork in, iMessage stickers out.
@main
struct Stickerkit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stickerkit",
        abstract: "Turn artwork into iMessage stickers (PNG/APNG, 300/408/618 px, within the byte budget).",
        version: "0.1.0",
        subcommands: [Resize.self, Check.self],
        defaultSubcommand: nil
    )
}
