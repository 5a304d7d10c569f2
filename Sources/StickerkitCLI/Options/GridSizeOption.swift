import ArgumentParser
import StickerKit

extension StickerSize: ExpressibleByArgument {}

/// `--size small|regular|large` of a command that writes one grid size (`pack`: a sticker pack
/// has one), so that it never offers `all` only to refuse it.
struct GridSizeOption: ParsableArguments {
    @Option(name: .long, help: "Sticker size of the pack's grid: small (300 px), regular (408 px) or large (618 px).")
    var size: StickerSize = .regular
}
