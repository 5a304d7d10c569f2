import ArgumentParser
import StickerKit

/// `--size small|regular|large|all` of the commands that may write every size (`resize`, `bench`).
struct SizeOption: ParsableArguments {
    @Option(name: .long, help: "Sticker size: small (300 px), regular (408 px), large (618 px) or all.")
    var size: SizeChoice = .regular

    var sizes: [StickerSize] { size.sizes }
}
