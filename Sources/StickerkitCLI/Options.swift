import ArgumentParser
import StickerKit

/// `--size small|regular|large|all`.
enum SizeChoice: String, ExpressibleByArgument, CaseIterable {
    case small, regular, large, all

    var sizes: [StickerSize] {
        switch self {
        case .small: [.small]
        case .regular: [.regular]
        case .large: [.large]
        case .all: StickerSize.allCases
        }
    }
}

extension FitMode: ExpressibleByArgument {}
extension Effort: ExpressibleByArgument {}

/// Options shared by every command that converts (`resize`, `pack`, `bench`).
struct ConversionFlags: ParsableArguments {
    @Option(name: .long, help: "Sticker size: small (300 px), regular (408 px), large (618 px) or all.")
    var size: SizeChoice = .regular

    @Option(name: .long, help: "contain: whole artwork, transparent padding; cover: fill and crop the centre.")
    var fit: FitMode = .contain

    @Flag(name: .long, help: "Crop fully transparent margins before fitting.")
    var trim = false

    @Option(name: .long, help: "Transparent margin kept on every side, in pixels.")
    var inset: Int = 0

    @Flag(name: .long, help: "Average in linear light instead of sRGB values.")
    var linear = false

    @Option(name: .customLong("max-kb"), help: "Byte budget per file in KB (1 KB = 1,000 bytes). Messages refuses stickers over 500.")
    var maxKB: Double = 500

    @Option(name: .customLong("max-bytes"), help: "Byte budget per file, exact (overrides --max-kb).")
    var maxBytes: Int?

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

    func validate() throws {
        if inset < 0 { throw ValidationError("--inset must be 0 or more pixels") }
        let smallest = size.sizes.map(\.pixels).min() ?? 300
        if inset * 2 >= smallest - 1 { throw ValidationError("--inset \(inset) leaves no room in a \(smallest) px sticker") }
        if let b = maxBytes, b < 100 { throw ValidationError("--max-bytes must be at least 100") }
        if maxBytes == nil && !(maxKB > 0.1) { throw ValidationError("--max-kb must be more than 0.1") }
        _ = try qualityRange()
        if !(minFPS > 0) { throw ValidationError("--min-fps must be positive") }
        if let c = colors, !(2...256).contains(c) { throw ValidationError("--colors takes 2 to 256") }
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

    var budgetBytes: Int { maxBytes ?? Int((maxKB * 1000).rounded(.down)) }

    func conversionOptions() throws -> ConversionOptions {
        ConversionOptions(sizes: size.sizes, fit: fit, trim: trim, inset: inset, linear: linear,
                          maxBytes: budgetBytes, effort: effort, quality: try qualityRange(), minFPS: minFPS,
                          lenient: lenient, maxColors: colors)
    }
}

/// The byte budget `check` and `preview` judge existing stickers against (the rest of the rules
/// are fixed by Messages).
struct CheckBudgetFlags: ParsableArguments {
    @Option(name: .customLong("max-kb"), help: "Byte budget in kB (1 kB = 1000 bytes). Default: 500.")
    var maxKB: Double?

    @Option(name: .customLong("max-bytes"), help: "Byte budget in bytes (overrides --max-kb). Default: 500000.")
    var maxBytes: Int?

    func validate() throws {
        if let k = maxKB, !(k > 0 && k <= 1e9) { throw ValidationError("--max-kb must be above 0 and at most 1e9 (got \(k)).") }
        if let b = maxBytes, b <= 0 { throw ValidationError("--max-bytes must be positive (got \(b)).") }
    }

    /// Messages' rules with this budget.
    var rules: CheckRules {
        var rules = CheckRules()
        if let k = maxKB { rules.maxBytes = Int((k * 1000).rounded(.down)) }
        if let b = maxBytes { rules.maxBytes = b }
        return rules
    }
}
