import ImageCore

/// How one conversion shares what `Limits.maxMemory` leaves it among what it holds: the fitted frames of each
/// size (`FittedFrames`), and the budget search's remapped frames and sampled frames. Each part
/// keeps within its share by construction (a store that would pass it gives up and its frames
/// are made again on each walk), so no input's memory grows with its frame count.
struct MemoryPlan {
    let budget: Int
    /// The fitted frames' share of the budget, all sizes together.
    var fittedShare = 0.4
    /// The part of a fitted-frame store kept as it comes before spans are deflated.
    var uncompressedShare = 0.5

    /// The plan for `options`, sharing `available` bytes (by default the whole budget; a file's
    /// conversion gives what its fixed parts leave, `ConversionMemory.available`).
    init(options: ConversionOptions, available: Int? = nil) {
        budget = available ?? options.limits.maxMemory
    }

    /// The bytes the fitted frames of all sizes may hold together. The sizes share it: while
    /// they are fitted together each store may take what the others leave (past the pool the
    /// largest gives up); a size whose store gave up is kept again, alone, with what the sizes
    /// not yet searched still hold.
    var fittedPool: Int { Int(Double(budget) * fittedShare) }

    /// The bytes one size's store keeps as they come, before it deflates: `uncompressedShare` of
    /// the pool, split over the sizes fitted together in proportion to their pixels (so that all
    /// of them together keep at most that share as it comes, and the rest of the pool goes to
    /// deflated spans).
    func uncompressed(side: Int, sizes: [StickerSize]) -> Int {
        let total = sizes.reduce(0) { $0 + $1.pixels * $1.pixels }
        return Int(Double(fittedPool) * uncompressedShare * Double(side * side) / Double(max(1, total)))
    }

    /// The budget search's shares for a sticker of `side` pixels.
    func search(side: Int) -> AnimationBudget.Memory {
        AnimationBudget.Memory(indexed: budget / 8, samples: budget / 10)
    }
}
