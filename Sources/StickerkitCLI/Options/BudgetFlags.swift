import ArgumentParser
import StickerKit

/// `--max-kb` / `--max-bytes`: the byte budget per file, for the commands that convert and for
/// those that judge existing stickers. The one home of the KB → bytes rule and its limits.
struct BudgetFlags: ParsableArguments {
    @Option(name: .customLong("max-kb"),
            help: "Byte budget per file in KB (1 KB = 1,000 bytes). Default: \(ByteBudget.messages / 1000), Messages' limit.")
    var maxKB: Double?

    @Option(name: .customLong("max-bytes"), help: "Byte budget per file, exact (overrides --max-kb).")
    var maxBytes: Int?

    /// The smallest budget: an 8-bit PNG of the smallest sticker size takes more than this, so
    /// a smaller budget is a typo, not a request.
    static let minimumBytes = 100
    /// The largest `--max-kb`: far above any file, and small enough that the bytes fit an `Int`.
    static let maximumKB = 1e9

    func validate() throws {
        if let b = maxBytes {
            if b < Self.minimumBytes { throw ValidationError("--max-bytes must be at least \(Self.minimumBytes) (got \(b))") }
        } else if let k = maxKB, !(k * 1000 >= Double(Self.minimumBytes) && k <= Self.maximumKB) {
            throw ValidationError("--max-kb must be at least \(Double(Self.minimumBytes) / 1000) and at most 1e9 (got \(k))")
        }
    }

    /// The budget in bytes: `--max-bytes`, else `--max-kb` × 1,000 rounded down, else Messages'
    /// limit.
    var bytes: Int { maxBytes ?? maxKB.map { Int(($0 * 1000).rounded(.down)) } ?? ByteBudget.messages }
}
