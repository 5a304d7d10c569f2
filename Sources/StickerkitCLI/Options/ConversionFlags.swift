import ArgumentParser
import StickerKit

extension Effort: ExpressibleByArgument {}

/// Options shared by every command that converts (`resize`, `pack`, `bench`); each command
/// gives its own `--size` (`SizeOption`, `GridSizeOption`).
struct ConversionFlags: ParsableArguments {
    @OptionGroup var fitFlags: FitFlags

    /// `--fit`, contain unless given.
    var fit: FitMode { fitFlags.mode(default: .contain) }

    @Flag(name: .long, help: "Crop fully transparent margins before fitting.")
    var trim = false

    @Option(name: .long, help: "Transparent margin kept on every side, in pixels.")
    var inset: Int = 0

    @Flag(name: .long, help: "Average in linear light instead of sRGB values.")
    var linear = false

    @OptionGroup var budget: BudgetFlags

    @Option(name: .long, help: "Encoder effort: fast, default or max.")
    var effort: Effort = .default

    @Option(name: .long, help: "MIN-MAX quality (0-100): never write below MIN, stop improving at MAX.")
    var quality: String = "0-100"

    @Option(name: .customLong("min-fps"), help: "Lowest frame rate animations may be thinned to, to fit the budget.")
    var minFPS: Double = 8

    @Option(name: .long, help: "Always write a palette of at most N colours (2-256) instead of letting the budget search choose.")
    var colors: Int?

    @Flag(name: .long, help: "Salvage what decodes from damaged files instead of failing them.")
    var lenient = false

    @Option(name: .customLong("max-memory"), help: ArgumentHelp(
        "Memory one file's conversion may use, in MB. A file that needs more is refused before decoding.",
        valueName: "MB"))
    var maxMemory: Int = Limits.defaultMemory / 1_000_000

    @Option(name: .customLong("max-changed-mp"), help: ArgumentHelp(
        "Megapixels an animation's frames may change at one sticker size (the first frame's pixels, then each frame's changed pixels), which bounds the time one size takes. A size that passes it is refused.",
        valueName: "MP"))
    var maxChangedMP: Int = Limits.defaultChangedPixels / 1_000_000

    func validate() throws {
        if inset < 0 { throw ValidationError("--inset must be 0 or more pixels") }
        _ = try qualityRange()
        if !(minFPS > 0) { throw ValidationError("--min-fps must be positive") }
        if let c = colors, !(2...256).contains(c) { throw ValidationError("--colors takes 2 to 256") }
        if !(1...1_000_000).contains(maxMemory) { throw ValidationError("--max-memory takes 1 to 1000000 MB") }
        if !(1...1_000_000).contains(maxChangedMP) { throw ValidationError("--max-changed-mp takes 1 to 1000000 MP") }
    }

    func qualityRange() throws -> ClosedRange<Int> {
        let parts = quality.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let range: ClosedRange<Int>?
        if parts.count == 1, let m = parts[0] { range = m...100 }
        else if parts.count == 2, let a = parts[0], let b = parts[1], a <= b { range = a...b }
        else { range = nil }
        guard let r = range, r.lowerBound >= 0, r.upperBound <= 100 else {
            throw ValidationError("--quality takes MIN-MAX with 0 ≤ MIN ≤ MAX ≤ 100, e.g. 60-90")
        }
        return r
    }

    /// The options for `sizes`; a usage error when `--inset` leaves no room in the smallest.
    func conversionOptions(sizes: [StickerSize]) throws -> ConversionOptions {
        let smallest = sizes.map(\.pixels).min() ?? 300
        if inset * 2 >= smallest - 1 { throw ValidationError("--inset \(inset) leaves no room in a \(smallest) px sticker") }
        return ConversionOptions(sizes: sizes, fit: fit, trim: trim, inset: inset, linear: linear,
                          maxBytes: budget.bytes, effort: effort, quality: try qualityRange(), minFPS: minFPS,
                          limits: Limits(maxMemory: maxMemory * 1_000_000, maxChangedPixels: maxChangedMP * 1_000_000), lenient: lenient, maxColors: colors)
    }
}
