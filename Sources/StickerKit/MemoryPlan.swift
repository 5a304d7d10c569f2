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

    /// The bytes the fitted frames of all sizes may hold together.
    var fittedFrames: Int { Int(Double(budget) * fittedShare) }

    /// The part of `fittedFrames` that is one size's own: split over the sizes converted together
    /// in proportion to their pixels. A size may hold more while the others leave room; when
    /// the total passes `fittedFrames`, the size furthest past its own part gives up its store
    /// (`FittedFrames.giveUp`), so that none within its part ever does.
    func fittedPart(side: Int, sizes: [StickerSize]) -> Int {
        let total = sizes.reduce(0) { $0 + $1.pixels * $1.pixels }
        return Int(Double(fittedFrames) * Double(side * side) / Double(max(1, total)))
    }

    /// The budget search's shares for a sticker of `side` pixels.
    func search(side: Int) -> AnimationBudget.Memory {
        AnimationBudget.Memory(indexed: budget / 8, samples: budget / 10)
    }
}
