import ImageCore
import ImageQuantize
import PNGEncoding

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
    /// libwebp's and libvpx's animation encoders hold encoded frames of their own beyond the
    /// fixed parts the estimate counts for them (`ConversionMemory.encoder`): the other
    /// platforms keep 0.4.
    static let platformFittedShare = 0.4

    /// What the search takes beyond its indexed and samples shares (`searchReserve`): the
    /// fitted frames' share is taken from what it leaves.
    var searchExcess: Int
    /// The frames the plan was made for, when known: a timeline of at most
    /// `AnimationBudget.realProbeFrames` is searched by real encodes alone (`predicts`).
    let frames: Int?

    /// The plan for `options`, sharing `available` bytes (by default the whole budget; a file's
    /// conversion gives what its fixed parts leave, `ConversionMemory.available`). A still
    /// (`animated` false) has no search to reserve for. `frames`, the animation's frame count
    /// when known (its structure's, or the frames given), sizes the reserve of a short one.
    init(options: ConversionOptions, available: Int? = nil, animated: Bool = true, frames: Int? = nil) {
        budget = available ?? options.limits.maxMemory
        fittedShare = MemoryPlan.fittedShare(options)
        self.frames = frames
        searchExcess = animated && MemoryPlan.searchesPalettes(options)
            ? MemoryPlan.searchReserve(budget, side: MemoryPlan.largestSide(options), options: options, frames: frames)
                - MemoryPlan.indexedShare(budget) - MemoryPlan.samplesShare(budget)
            : 0
    }

    /// Whether a palette search of `frames` frames (unknown: nil) may predict sizes from sampled
    /// frames: only a timeline of more than `AnimationBudget.realProbeFrames` does; a shorter one
    /// is sized by real encodes and holds no sampled frames.
    static func predicts(frames: Int?) -> Bool {
        frames.map { $0 > AnimationBudget.realProbeFrames } ?? true
    }

    /// Whether `options`' animations are searched by palette (`AnimationBudget`: Messages' APNG,
    /// and Signal's, Discord's and LINE's), which holds a histogram, sampled frames and remaps;
    /// a WebP or WebM animation's search (`CodecBudgetSearch`) holds its fitted frames and its
    /// encoder's own (`ConversionMemory.encoder`).
    static func searchesPalettes(_ options: ConversionOptions) -> Bool {
        if case .png = options.target.animationCodec { return true }
        return false
    }

    static func fittedShare(_ options: ConversionOptions) -> Double {
        options.target.isMessages ? messagesFittedShare : platformFittedShare
    }

    /// The largest side an animation is searched at: Messages' largest size, or the platform's.
    static func largestSide(_ options: ConversionOptions) -> Int {
        options.target.isMessages ? options.sizes.map(\.pixels).max() ?? 0 : PlatformConverter.side(options.target)
    }

    /// The bytes the fitted frames of all sizes may hold together.
    var fittedFrames: Int { Int(Double(max(0, budget - searchExcess)) * fittedShare) }

    /// What one size prediction holds at the least, whatever the budget: copies of its sampled
    /// frames (`AnimationTimeline.maxSampleFrames`, RGBA) and their remaps to one colour count.
    /// At 618 px 30.6 MB, past the samples' tenth of any budget under 306 MB once the fixed
    /// parts are taken: under `--max-memory 128` the watchface's search held 17 MB of copies
    /// against a share of 8.8 MB.
    static func sampleFloor(side: Int) -> Int { AnimationTimeline.maxSampleFrames * side * side * (4 + 1) }

    /// What the plan sets aside beside the fitted frames before the search's remaps and copies
    /// hold anything: the histogram (`Histogram.maxBytes`, 2.5 MB) and, with it, the part of the
    /// search's working set its shares do not count. Kept at the 42 MB (40 MiB) the histogram
    /// alone could reach before it grouped its colours: set to the histogram's own 2.5 MB, the
    /// plan let the watchface and the terminal recording convert for Signal under
    /// `--max-memory 64` and peak at 66–67 MB (`scripts/check-budgets 64`, 2026-12-02).
    static let histogram = 40 << 20

    /// What a search of `frames` frames that predicts nothing (`predicts(frames:)` false) holds
    /// beside its shares, whatever the budget: the histogram (`Histogram.maxBytes`), the mappers
    /// of the colour counts asked about last (`Palettes.keptMappers`, `Palettes.mapperBytes`
    /// each) and the probes that fit (`keptProbes` of them, each its file and its layout's
    /// streams, about three times a file within the search budget, and no file larger than its
    /// frames' indices at the largest side): about 13.5 MB for Messages' default 500 KB. With it
    /// the 3-frame maneki neko converts for Messages at `--size all` under `--max-memory 64` (it
    /// peaks at 46 MB under the default budget), where the 40 MiB reserve of a long timeline
    /// asked 91 MB.
    static func shortReserve(_ options: ConversionOptions, frames: Int) -> Int {
        let side = Double(largestSide(options))
        let file = min(AnimationBudget.Search.searchBudget(options), Double(max(1, frames)) * side * side)
        return Histogram.maxBytes + AnimationBudget.Palettes.keptMappers * AnimationBudget.Palettes.mapperBytes
            + Int((Double(keptProbes) * 3 * file).rounded(.up)) + PNGEncoder.animationMemoBytes
    }

    /// The fitting probes a short search holds at most at once: its best, the one it is
    /// comparing and the final encode made from them.
    static let keptProbes = 4

    /// The sample floor a search of `frames` frames holds: `sampleFloor(side:)` where it predicts,
    /// none where it is sized by real encodes alone.
    static func sampleFloor(side: Int, frames: Int?) -> Int { predicts(frames: frames) ? sampleFloor(side: side) : 0 }

    /// What the plan sets aside before the search's shares hold anything: `histogram` for a search
    /// that predicts (or of frames unknown), the counted working set (`shortReserve`) for one that
    /// does not.
    static func reserve(_ options: ConversionOptions, frames: Int?) -> Int {
        guard let frames, !predicts(frames: frames) else { return histogram }
        return shortReserve(options, frames: frames)
    }

    /// What the search holds at most beside the fitted frames: the indexed share and the
    /// samples' share (at least the floor of a search that predicts), or its reserve before them.
    static func searchReserve(_ budget: Int, side: Int, options: ConversionOptions, frames: Int?) -> Int {
        max(indexedShare(budget) + max(samplesShare(budget), sampleFloor(side: side, frames: frames)), reserve(options, frames: frames))
    }

    /// The samples' share of the budget is its `samplesDivisor`th, the probes' remapped frames'
    /// its `indexedDivisor`th.
    static let samplesDivisor = 10
    static let indexedDivisor = 8
    static func samplesShare(_ budget: Int) -> Int { budget / samplesDivisor }
    static func indexedShare(_ budget: Int) -> Int { budget / indexedDivisor }

    /// The least an animation's conversion must have beyond its fixed parts for the fitted
    /// frames and the search's reserve `R` to fit: with fitted share `s` and the indexed and
    /// samples fractions `i` and `m` they come to `s·(B − R + i·B + m·B) + R`, at most `B` once
    /// `R·(1 − s) ≤ B·(1 − s·(1 + i + m))`. For the floor (`R = i·B + F`) that is
    /// `B ≥ F·(1 − s) / (1 − i − s·(1 + m))`, for the reserve (`reserve`)
    /// `B ≥ H·(1 − s) / (1 − s·(1 + i + m))`: 54 MB for Messages (the histogram's), 49 MB for the
    /// platforms whose animations are APNG; 0 where the search holds none of it
    /// (`searchesPalettes`). A timeline of `frames` that predicts nothing has no floor, and its
    /// reserve is `shortReserve`: about 17.5 MB for Messages' default budget.
    static func leastAvailable(_ options: ConversionOptions, frames: Int? = nil) -> Int {
        guard searchesPalettes(options) else { return 0 }
        let s = fittedShare(options)
        let i = 1 / Double(indexedDivisor), m = 1 / Double(samplesDivisor)
        let floor = Double(sampleFloor(side: largestSide(options), frames: frames))
        let byFloor = floor * (1 - s) / (1 - i - s * (1 + m))
        let byReserve = Double(reserve(options, frames: frames)) * (1 - s) / (1 - s * (1 + i + m))
        return Int(max(byFloor, byReserve).rounded(.up))
    }

    /// The part of `fittedFrames` that is one size's own: split over the sizes converted together
    /// in proportion to their pixels. A size may hold more while the others leave room; when
    /// the total passes `fittedFrames`, the size furthest past its own part gives up its store
    /// (`FittedFrames.giveUp`), so that none within its part ever does.
    func fittedPart(side: Int, sizes: [StickerSize]) -> Int {
        let total = sizes.reduce(0) { $0 + $1.pixels * $1.pixels }
        return Int(Double(fittedFrames) * Double(side * side) / Double(max(1, total)))
    }

    /// A plan made for a short timeline (its structure's frame count, `predicts(frames:)` false)
    /// whose decode `found` a long one: refused (`LimitsError.overMemory`, the estimate of the
    /// frames found) when what the plan shares could not hold a long timeline's least; otherwise
    /// its fitted frames have taken at most the short reserve's difference more than a long
    /// plan would give them. The decoder alone decides what a file holds: an outline may miss
    /// frames behind damage.
    func check(found: Int, options: ConversionOptions, format: ImageFormat?) throws {
        guard MemoryPlan.searchesPalettes(options), !MemoryPlan.predicts(frames: frames), MemoryPlan.predicts(frames: found) else { return }
        let least = ConversionMemory.animationLeast(options, frames: found)
        guard least > budget else { return }
        try options.limits.check(memory: max(0, options.limits.maxMemory - budget) + least, format: format)
    }

    /// The budget search's shares for a sticker of `side` pixels.
    func search(side: Int) -> AnimationBudget.Memory {
        AnimationBudget.Memory(indexed: MemoryPlan.indexedShare(budget),
                               samples: max(MemoryPlan.samplesShare(budget), MemoryPlan.sampleFloor(side: side)))
    }
}
