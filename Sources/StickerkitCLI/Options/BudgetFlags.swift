import ArgumentParser
import StickerKit

/// `--max-kb` / `--max-bytes`: the byte budget per file, for the commands that convert and for
/// those that judge existing stickers. The one home of the KB → bytes rule and its limits.
struct BudgetFlags: ParsableArguments {
    // `.unconditional`: `--max-kb -5` is a value to judge (and refuse with the rule), not a
    // missing value followed by an option.
    @Option(name: .customLong("max-kb"), parsing: .unconditional,
            help: ArgumentHelp("Byte budget per file in KB (1 KB = 1,000 bytes), from \(BudgetFlags.minimumKB) to \(BudgetFlags.maximumKBText). Default: \(ByteBudget.messages / 1000), Messages' limit.",
                               valueName: "KB"))
    var maxKB: Double?

    @Option(name: .customLong("max-bytes"), parsing: .unconditional,
            help: ArgumentHelp("Byte budget per file in bytes, exact (overrides --max-kb), at least \(BudgetFlags.minimumBytes).", valueName: "bytes"))
    var maxBytes: Int?

    /// The smallest budget: an 8-bit PNG of the smallest sticker size takes more than this, so
    /// a smaller budget is a typo, not a request.
    static let minimumBytes = 100
    static var minimumKB: String { "\(Double(minimumBytes) / 1000)" }
    /// The largest `--max-kb`: far above any file, and small enough that the bytes fit an `Int`.
    static let maximumKB = 1e9
    static let maximumKBText = "1,000,000,000"

    func validate() throws {
        if let b = maxBytes {
            if b < Self.minimumBytes { throw ValidationError("--max-bytes takes a budget of at least \(Self.minimumBytes) bytes (got \(b))") }
        } else if let k = maxKB, !(k * 1000 >= Double(Self.minimumBytes) && k <= Self.maximumKB) {
            let got = k == k.rounded() && abs(k) < 1e15 ? String(Int(k)) : "\(k)"
            throw ValidationError("--max-kb takes a budget in KB (1 KB = 1,000 bytes) from \(Self.minimumKB) to \(Self.maximumKBText) (got \(got))")
        }
    }

    /// The budget in bytes: `--max-bytes`, else `--max-kb` × 1,000 rounded down, else Messages'
    /// limit.
    var bytes: Int { maxBytes ?? maxKB.map { Int(($0 * 1000).rounded(.down)) } ?? ByteBudget.messages }
}
