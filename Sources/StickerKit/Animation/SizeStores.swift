import ImageCore

/// The fitted frames of every size of one conversion, filled together in one walk, sharing the
/// fitted frames' budget (`MemoryPlan.fittedFrames`): one size may hold more than its own part
/// (`MemoryPlan.fittedPart`) while the others leave room, and spans are deflated once all the
/// stores together pass the plan's uncompressed share. When the total passes the budget, the
/// size furthest past its own part gives up its store (its frames are then made again on every
/// walk), so that a size within its part never does (NOTES.md: what that saved).
final class SizeStores {
    private(set) var frames: [FittedFrames] = []
    /// Sizes that left the shared walk (`settle`): each fills its own store in a walk of its own
    /// when its turn comes (`refill`).
    private var deferred: Set<Int> = []
    /// Sizes the walk under way fills.
    private var filling: Set<Int> = []
    private var sides: [Int] = []
    private var canvasPixels = 0
    /// How many times the canvas's pixels a size's frame must have to leave the shared walk:
    /// decoding a canvas pixel again costs about what packing and unpacking an output pixel saves.
    static let deferralRatio = 2
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

    /// Adds the store of the next size, fitted to `side` pixels from a canvas of `canvasPixels`.
    func add(side: Int, canvasPixels: Int) {
        self.canvasPixels = canvasPixels
        frames.append(FittedFrames(side: side, budget: budget, tally: tally))
        filling.insert(frames.count - 1)
        sides.append(side)
        parts.append(plan.fittedPart(side: side, sizes: sizes))
    }

    /// True while size `k` is filled by the shared walk.
    func isFilling(_ k: Int) -> Bool { filling.contains(k) }

    /// Bytes the stores hold together.
    var bytes: Int { tally.bytes }

    /// Once a frame is in every store. While more than one size shares the walk and the stores
    /// together pass the uncompressed share, the largest leaves the walk (`deferred`): its frames
    /// would be packed here and unpacked on each of its walks, where a walk of its own later,
    /// with the share to itself, keeps more of them as they are (NOTES.md: what that saves).
    /// Then stores give up, furthest past its part first, until the rest are within the budget.
    func settle() {
        while tally.bytes > tally.uncompressed, filling.count > 1, let k = filling.max(by: { sides[$0] < sides[$1] }),
              sides[k] * sides[k] >= Self.deferralRatio * canvasPixels {
            filling.remove(k)
            deferred.insert(k)
            frames[k] = FittedFrames(side: 1, budget: 0)
        }
        while tally.bytes > budget, let k = frames.indices.filter({ !deferred.contains($0) && !frames[$0].replays && frames[$0].bytes > 0 })
                .max(by: { frames[$0].bytes - parts[$0] < frames[$1].bytes - parts[$1] }) {
            frames[k].giveUp()
        }
    }

    /// A fresh store for deferred size `k`, to be filled by a walk of its own.
    func refill(_ k: Int) -> FittedFrames {
        deferred.remove(k)
        filling = [k]
        frames[k] = FittedFrames(side: sides[k], budget: budget, tally: tally)
        return frames[k]
    }

    /// Drops size `k`'s frames (once its sticker is made, or it is refused), leaving its bytes to
    /// the others.
    func release(_ k: Int) {
        filling.remove(k)
        frames[k] = FittedFrames(side: 1, budget: 0)
    }
}
