import ImageCore

/// How one conversion shares what `Limits.maxMemory` leaves it among what it holds: the fitted frames of each
/// size (`FittedFrames`), and the budget search's remapped frames and sampled frames. Each part
/// keeps within its share by construction (a store that would pass it gives up and its frames
/// are made again on each walk), so no input's memory grows with its frame count.
struct MemoryPlan {
    let budget: Int
    /// The fitted frames' share of the budget, all sizes together: `messagesFittedShare` for
    /// Messages, `platformFittedShare` for the other platforms.
    var fittedShare: Double
    /// The part of Messages' fitted frames (`SizeStores`) kept as they come before spans are
    /// packed: with `messagesFittedShare`, 0.3 of the budget.
    var uncompressedShare = 0.6
    /// Messages' search holds little beyond the plan's parts (its encoder a canvas model and a
    /// few rasters): the stores take half the budget, the parts 0.725 in all, and a third more
    /// of the stores' frames stay unpacked than at 0.4 (NOTES.md, "Memory": 3 % less CPU over
    /// the animated corpus; the whole batch's peak stays under its 500 MB).
    static let messagesFittedShare = 0.5
    /// libwebp's and libvpx's encoders hold frames the plan does not count (WhatsApp's terminal
    /// recording peaked at 105 MB under `--max-memory 70`): the other platforms keep 0.4.
    static let platformFittedShare = 0.4

    /// What the sampled frames' floor (`sampleFloor`) at the largest side takes beyond the
    /// samples' share: the fitted frames' share is taken from what is left.
    let floorExcess: Int

    /// The plan for `options`, sharing `available` bytes (by default the whole budget; a file's
    /// conversion gives what its fixed parts leave, `ConversionMemory.available`).
    init(options: ConversionOptions, available: Int? = nil) {
        budget = available ?? options.limits.maxMemory
        fittedShare = options.target.isMessages ? MemoryPlan.messagesFittedShare : MemoryPlan.platformFittedShare
        let side = options.target.isMessages ? options.sizes.map(\.pixels).max() ?? 0 : PlatformConverter.side(options.target)
        floorExcess = max(0, MemoryPlan.sampleFloor(side: side) - MemoryPlan.samplesShare(budget))
    }

    /// The bytes the fitted frames of all sizes may hold together.
    var fittedFrames: Int { Int(Double(max(0, budget - floorExcess)) * fittedShare) }

    /// What one size prediction holds at the least, whatever the budget: copies of its sampled
    /// frames (`AnimationTimeline.maxSampleFrames`, RGBA) and their remaps to one colour count.
    /// At 618 px 30.6 MB, past the samples' tenth of any budget under 306 MB once the fixed
    /// parts are taken: under `--max-memory 128` the watchface's search held 17 MB of copies
    /// against a share of 8.8 MB.
    static func sampleFloor(side: Int) -> Int { AnimationTimeline.maxSampleFrames * side * side * (4 + 1) }

    /// The samples' share of `budget`.
    static func samplesShare(_ budget: Int) -> Int { budget / 10 }

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
        AnimationBudget.Memory(indexed: budget / 8, samples: max(MemoryPlan.samplesShare(budget), MemoryPlan.sampleFloor(side: side)))
    }
}
