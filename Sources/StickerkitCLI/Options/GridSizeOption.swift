import ArgumentParser
import StickerKit

extension StickerSize: ExpressibleByArgument {}

/// `--size small|regular|large` of a command that writes one grid size (`pack`: a sticker pack
/// has one), so that it never offers `all` only to refuse it. Not given, the catalog's own grid
/// size is kept (one set in Xcode too), else regular.
struct GridSizeOption: ParsableArguments {
    @Option(name: .long, help: "Sticker size of the pack's grid: small (300 px), regular (408 px) or large (618 px). (default: the catalog's grid size, else regular)")
    var size: StickerSize?
}
