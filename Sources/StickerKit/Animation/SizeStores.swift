import ImageCore

/// The fitted frames of every size of one conversion, filled together in one walk, sharing the
/// fitted frames' budget (`MemoryPlan.fittedFrames`): one size may hold more than its own part
/// (`MemoryPlan.fittedPart`) while the others leave room, and spans are deflated once all the
/// stores together pass the plan's uncompressed share. When the total passes the budget, the
/// size furthest past its own part gives up its store (its frames are then made again on every
/// walk), so that a size within its part never does (NOTES.md: what that saved).
final class SizeStores {
    private(set) var frames: [FittedFrames] = []
    private var parts: [Int] = []
    private let tally: StoreTally
    private let plan: MemoryPlan
    private let sizes: [StickerSize]
    private var budget: Int { plan.fittedFrames }

    /// Stores for `sizes`, converted together within `plan`.
    init(plan: MemoryPlan, sizes: [StickerSize]) {
        self.plan = plan
        self.sizes = sizes
        tally = StoreTally(uncompressed: Int(Double(plan.fittedFrames) * plan.uncompressedShare))
    }

    /// Adds the store of the next size, fitted to `side` pixels.
    func add(side: Int) {
        frames.append(FittedFrames(side: side, budget: budget, tally: tally))
        parts.append(plan.fittedPart(side: side, sizes: sizes))
    }

    /// Bytes the stores hold together.
    var bytes: Int { tally.bytes }

    /// Once a frame is in every store: gives up stores, furthest past its part first, until the
    /// rest are within the budget.
    func settle() {
        while tally.bytes > budget, let k = frames.indices.filter({ !frames[$0].replays })
                .max(by: { frames[$0].bytes - parts[$0] < frames[$1].bytes - parts[$1] }) {
            frames[k].giveUp()
        }
    }

    /// Drops size `k`'s frames (once its sticker is made), leaving its bytes to the others.
    func release(_ k: Int) {
        frames[k] = FittedFrames(side: 1, budget: 0)
    }
}
