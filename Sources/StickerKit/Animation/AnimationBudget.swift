import ImageCore

/// The budget search for animations: an APNG with one shared palette (or truecolour) whose whole
/// file fits `maxBytes`.
///
/// Levers, in order, each used only as far as needed: the colour count (down to
/// `colourFloor`), then frame decimation that keeps the total duration and the timeline (drop
/// frames, give their time to the kept ones) down to `options.minFPS`, then the colour count below
/// the floor. Resolution never changes; timing is never sped up.
///
/// Cost: one histogram over every frame, and palettes of any size from it; sizes of candidate
/// settings are *predicted* from a sample of frames (a few short windows spread over the
/// animation, estimated with the encoder's cheap estimator) and anchored on the real `.fast`
/// encodes made so far, so that only a few settings are remapped and encoded in full; short
/// timelines (≤ `realProbeFrames` kept frames) are simply encoded for real. The chosen setting's
/// probe is written when it fits; it is encoded once more at the requested effort only when it
/// must shrink to fit, or under `.max`. See NOTES.md beside this file.
enum AnimationBudget {
    /// Colours kept before any frame is dropped: fewer than this bands visibly.
    static let colourFloor = 64
    /// Error diffusion strength for animations: none. Diffusion noise differs from frame to
    /// frame, so it flickers and costs bytes in every frame difference; measured with the judge at
    /// 618 px, 0.5 against 0: rgb_color_cube SSIM 0.777 → 0.910, rlottie watchface 0.864 → 0.950,
    /// spinfox 0.809 → 0.843, party penguin unchanged (exact palette).
    static let dithering: Float = 0
    /// Consecutive kept frames in each sampled window.
    static let windowLength = 4
    /// Predictions aim this far under the budget, so the real encode usually fits first time.
    static let margin = 0.97
    /// Timelines of at most this many kept frames are sized by real `.fast` encodes instead of
    /// predictions: a prediction encodes up to 16 sampled frames (and remaps 12) whatever the
    /// length, so up to about twice that a real encode costs little more and is exact — no
    /// calibration, no margin, no round lost to a missed prediction.
    static let realProbeFrames = 32
    /// A search on real encodes stops when the answer is known within `colours /
    /// colourResolution`: a few colours more or less change the judge's SSIM by under 0.001, and
    /// each further step is a remap and an encode (the 31-frame balls APNG at 618 px took 6 probes
    /// for 66 colours against 65). Predictions are cheap and keep a finer resolution (1/16).
    static let colourResolution = 8
    /// A search on real encodes also stops at a setting whose real size fits within this share
    /// of the target: the colours above it could add at most the last 3 % of bytes (about a
    /// tenth more colours, the same as `colourResolution`), and on the animated corpus each
    /// such step was another remap and encode of every kept frame for 1–15 colours more
    /// (at 618 px, 64 → 73 (over) → 65 colours).
    static let closeEnough = 0.97
    /// A frame rate whose fewest colours are scaled to more than this times the target is not
    /// encoded at all (`scaledSize` misses by a few per cent; this leaves room for much more).
    static let hopeless = 1.15
    /// Steepest fall of a real encode's size with the colour count, as the exponent of a power
    /// law (size ∝ colours^slope), used to settle the floor of a short timeline as over from its
    /// top alone: on the animated corpus 256 → 64 colours shrank files to 0.61–0.66 of their
    /// size (slope 0.30–0.36), so at 0.5 a floor is skipped only when its top is more than
    /// twice `hopeless` over the target, where the floor was 1.2–3.3 times over.
    static let floorSlope = 0.5
    /// Gentlest fall of a real encode's size near the top colour count, as a power law's
    /// exponent: a short timeline whose top is over guesses its answer with it.
    static let guessSlope = 0.28

    /// A probe of a short timeline stops once its file has passed this many times the budget,
    /// and its size is extrapolated from the frames written (`Probes.probe`): the search only
    /// needs to know how far over it is. The extrapolation still moves the regula falsi's chord
    /// a little: at 1.3 times, big buck bunny's 256 colours at 618 px were put 1.5 % under their
    /// real 2.29 MB and the WebP's sticker lost 0.003 of judge SSIM (another setting); at 2 times
    /// one sticker of the corpus changes (the GIF at 408 px, 118 colours instead of 117).
    static let stopPast = 2.0

    /// A probe of the climb (`Search.climb`) also stops once a quarter of its kept frames'
    /// expected bytes (`Probes.weights`) is written and the whole file is extrapolated past this
    /// many times its limit: it is over, and by how much matters only to place the next probe.
    /// The margin leaves room for an extrapolation that runs high, so a probe that would fit is
    /// not taken for one over (by changed pixels alone, the watchface's ran 1.5–1.8 times its
    /// size). The 5,000 frames of a square moving over a 32² screen at 408 px climbed through
    /// three probes of 1,667 kept frames each 1.4–1.8 times over, each stopped only past the
    /// budget.
    static let projectedStop = 1.3

    /// Bytes the search's parts may hold beyond the fitted frames: remapped frames of one
    /// setting (`Probes`, beyond that they are remapped on each walk) and copies of sampled
    /// frames (`Samples`).
    struct Memory {
        var indexed: Int
        var samples: Int
    }

    /// The best sticker of `frames` within the budget, or why there is none. Throws only when a
    /// walk over the frames fails (replaying a source that decoded once). With `change` (what
    /// the frames changed as they were fitted) past its limit, the sticker is refused once the
    /// histogram shows more than `Palettes.fewColours` colours (`ChangeCount`).
    static func encode(_ frames: FittedFrames, loopCount: Int, options: ConversionOptions, memory: Memory,
                       builder: StickerBuilder, change: ChangeCount? = nil, clock: StageClock) throws -> Result<StickerOutput, StickerError> {
        let search = try Search(frames, loopCount: loopCount, options: options, budgets: memory, builder: builder, clock: clock)
        if let change, change.isOver, !search.palettes.hasFewColours {
            return .failure(change.error(frames: frames.count))
        }
        return search.run()
    }
}
