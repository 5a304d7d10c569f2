import ArgumentParser
import StickerKit

extension FitMode: ExpressibleByArgument {}

/// `--fit contain|cover`: how artwork that is not of the target's shape fills it. Each command
/// gives its own default (`mode(default:)`): stickers keep the whole artwork, icons fill.
struct FitFlags: ParsableArguments {
    @Option(name: .long, help: "contain: the whole artwork, padded; cover: filled, the centre cropped. (default: contain for stickers, cover for icons)")
    var fit: FitMode?

    func mode(default fallback: FitMode) -> FitMode { fit ?? fallback }
}
