import ArgumentParser
import StickerKit

/// `--platform NAME`: the app whose rules apply (`StickerTarget.all`), Messages unless given.
struct PlatformOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The app the stickers are for: \(StickerTarget.all.map(\.name).joined(separator: ", ")).",
                                            valueName: "name"))
    var platform: String = StickerTarget.imessage.name

    func validate() throws {
        guard StickerTarget.named(platform) != nil else {
            throw ValidationError("--platform takes one of \(StickerTarget.all.map(\.name).joined(separator: ", ")) (got \(platform))")
        }
    }

    /// The chosen platform.
    var target: StickerTarget { StickerTarget.named(platform) ?? .imessage }
}
