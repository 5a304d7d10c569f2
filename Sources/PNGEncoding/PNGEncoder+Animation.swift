import ImageCore

extension PNGEncoder {
    /// An animated PNG of palette frames that all share one palette.
    ///
    /// - Parameters:
    ///   - frames: the whole canvas at each step, all the same size, all with the *same* `palette`
    ///     (as the quantizer's shared-palette result gives them).
    ///   - delays: how long each frame is shown; `delays.count == frames.count`.
    ///   - loopCount: times to play, 0 = forever (acTL num_plays).
    ///   - effort: as for still images; frame layouts are ranked the same way at every effort.
    ///
    /// Decoding the result with any spec-conforming APNG reader gives exactly `frames` (as
    /// `expanded()` RGBA) with exactly `delays`, except that:
    /// - consecutive identical frames are merged into one whose delay is their exact sum;
    /// - a delay whose reduced fraction does not fit fcTL's two UInt16 is rounded as
    ///   `Delay.apngFraction` describes;
    /// - a one-frame input gives a plain PNG (no acTL, no delay); frames that all merge into one
    ///   still give an APNG of one frame, keeping the duration and loop count.
    ///
    /// How it is laid out: the first frame is the default image (IDAT, with an fcTL, so it is
    /// part of the animation). Every later frame is cropped to the rectangle that differs from
    /// the canvas a decoder holds at that point, and the encoder tries, for the previous frame's
    /// dispose op, NONE and BACKGROUND, and for this frame's blend op, SOURCE (the cropped pixels)
    /// and OVER (unchanged pixels replaced by a fully transparent entry, allowed only when every
    /// changed pixel is opaque so the result is exact in every reader); the combination whose
    /// frame deflates smallest at level 1 wins (at level 6 for frames of a few KB), and only it is
    /// compressed for real. The palette is rewritten as for `encode(_:effort:)` (but
    /// always written as a palette, never as gray); if no
    /// used entry has alpha 0, one is added when that keeps the bit depth (a quantizer that
    /// reserves one for animations gives OVER every chance).
    ///
    /// - Throws: `ImageError` of kind `.parameter` (format APNG) for no frames, a delay count
    ///   that differs from the frame count, frames of different sizes or palettes, a zero-sized
    ///   frame, or a negative loop count.
    ///   - alwaysAnimated: write an APNG even for a single frame (acTL with one fcTL), for an input
    ///     that was animated; otherwise one frame gives a plain PNG.
    public static func encodeAnimation(frames: [IndexedImage], delays: [Delay], loopCount: Int = 0,
                                       effort: Effort = .default, alwaysAnimated: Bool = false) throws -> [UInt8] {
        try encodeAnimationWithLayout(frames: frames, delays: delays, loopCount: loopCount, effort: effort,
                                      alwaysAnimated: alwaysAnimated).bytes
    }

    /// `encodeAnimation(frames:delays:loopCount:effort:alwaysAnimated:)`, also returning the frame
    /// layout it chose, so that the same frames can later be encoded at another effort without
    /// searching the layout again (the search ranks candidates the same way at every effort).
    package static func encodeAnimationWithLayout(frames: [IndexedImage], delays: [Delay], loopCount: Int = 0,
                                                 effort: Effort = .default,
                                                 alwaysAnimated: Bool = false) throws -> (bytes: [UInt8], layout: APNGLayout) {
        var e = try APNGEncoder(indexed: frames, delays: delays, loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        let r = try e.encode { EncodingPlan.plan(effort, kind: $0) }
        return (r.bytes, r.layout)
    }

    /// `encodeAnimationWithLayout` over palette frames read from a sequence, walked once, so
    /// that an animation of any length costs one frame's samples and the canvas model. `palette`
    /// is the frames' palette (at most 256 entries) and `used[i]` must say whether index `i`
    /// occurs in any frame (only used entries are written).
    package static func encodeAnimationWithLayout(frames: any FrameSequence, palette: [RGBA], used: [Bool], delays: [Delay],
                                                 loopCount: Int = 0, effort: Effort = .default,
                                                 alwaysAnimated: Bool = false) throws -> (bytes: [UInt8], layout: APNGLayout) {
        var e = try APNGEncoder(indexed: frames, palette: palette, used: used, delays: delays, loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        let r = try e.encode { EncodingPlan.plan(effort, kind: $0) }
        return (r.bytes, r.layout)
    }

    /// The most an animation encode holds beside its frames to rank and compress regions that
    /// come back only once (`StreamMemo`): a memory plan counts it with the encoder's working set.
    package static let animationMemoBytes = StreamMemo.maxHeldBytes

    /// `encodeAnimationWithLayout` over palette frames read from a sequence at `.fast`, for a
    /// search that only needs to know how far over a setting is once it is far over: when the
    /// file written so far passes `stopPast` bytes before the last frame, the walk stops and the
    /// result is the whole file's size extrapolated from the input frames walked: the later
    /// frames' bytes per unit of `weights` (one per input frame, the first not counted; say, the
    /// pixels that changed from the frame before), or per input frame when `weights` is empty or
    /// the frames walked weigh nothing. With `projectedPast`, the walk also stops once a quarter
    /// of the later frames' weight is walked and that extrapolation passes `projectedPast` bytes
    /// (a setting clearly over is known for less). Otherwise it is the file
    /// `encodeAnimationWithLayout` gives at `.fast`.
    package static func probeAnimation(frames: any FrameSequence, palette: [RGBA], used: [Bool], delays: [Delay],
                                       loopCount: Int = 0, alwaysAnimated: Bool = false, stopPast: Int,
                                       projectedPast: Int? = nil, weights: [Int] = []) throws -> APNGProbe {
        var e = try APNGEncoder(indexed: frames, palette: palette, used: used, delays: delays, loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        do {
            let r = try e.encode({ EncodingPlan.plan(.fast, kind: $0) }, stopPast: stopPast, projectedPast: projectedPast,
                                 weights: weights)
            return .file(bytes: r.bytes, layout: r.layout)
        } catch let stopped as APNGEncoder.Stopped {
            return .over(estimatedBytes: stopped.estimatedBytes)
        }
    }

    /// `encodeAnimation(frames:delays:loopCount:effort:alwaysAnimated:layout:)` over palette
    /// frames read from a sequence.
    package static func encodeAnimation(frames: any FrameSequence, palette: [RGBA], used: [Bool], delays: [Delay],
                                        loopCount: Int = 0, effort: Effort = .default, alwaysAnimated: Bool = false,
                                        layout: APNGLayout) throws -> [UInt8] {
        var e = try APNGEncoder(indexed: frames, palette: palette, used: used, delays: delays, loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        return try e.encode({ EncodingPlan.plan(effort, kind: $0) }, reusing: layout).bytes
    }

    /// The truecolour animation of RGBA frames read from a sequence: a first walk finds the
    /// smallest colour type that holds them all, a second encodes. The streams are made with
    /// each of `EncodingPlan.truecolorAnimation(effort)` in turn until the file is within
    /// `maxBytes` (at `.default`: level 6, then the rules of a truecolour still — level 7 for
    /// an unfiltered or very compressible stream, else 10 — then level 10 for every stream);
    /// the smallest file made is returned when none is, so a budget is never missed for the
    /// time saved. Without `allowsGray`, gray frames are written as RGB or RGBA.
    package static func encodeAnimation(truecolor frames: any FrameSequence, delays: [Delay], loopCount: Int = 0,
                                        effort: Effort = .default, alwaysAnimated: Bool = false,
                                        within maxBytes: Int = .max, allowsGray: Bool = true) throws -> [UInt8] {
        var e = try APNGEncoder(truecolor: frames, layout: try TruecolorLayout(fitting: frames, allowsGray: allowsGray), delays: delays,
                                loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        var best: [UInt8] = []
        for plan in EncodingPlan.truecolorAnimation(effort) {
            let bytes = try e.encode { $0 == .truecolor ? plan : EncodingPlan.plan(effort, kind: $0) }.bytes
            if best.isEmpty || bytes.count < best.count { best = bytes }
            if best.count <= maxBytes { break }
        }
        return best
    }

    /// The same frames encoded with a layout from `encodeAnimationWithLayout`: only the chosen
    /// frames are compressed, at `effort`, and no candidate is ranked. With the frames, delays,
    /// loop count and `alwaysAnimated` of the encode that made `layout`, the result is the bytes
    /// a fresh encode at `effort` gives. Whatever the layout, the file decodes exactly as
    /// `encodeAnimation` promises, or the call throws.
    ///
    /// - Throws: as `encodeAnimation`, and `ImageError` of kind `.parameter` (format APNG) when
    ///   `layout` was made for another frame count or size, or does not reproduce these frames
    ///   (a pixel changes outside a written frame's rectangle, a merged frame differs, an OVER
    ///   frame would need a pixel that is not opaque).
    package static func encodeAnimation(frames: [IndexedImage], delays: [Delay], loopCount: Int = 0,
                                       effort: Effort = .default, alwaysAnimated: Bool = false,
                                       layout: APNGLayout) throws -> [UInt8] {
        var e = try APNGEncoder(indexed: frames, delays: delays, loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        return try e.encode({ EncodingPlan.plan(effort, kind: $0) }, reusing: layout).bytes
    }

    /// The file of an `encodeAnimationWithLayout` encode made to fit `maxBytes` with the least
    /// work: written frames are compressed again at `effort`'s level — those whose streams are
    /// largest for their pixels first, where a slower deflate saves most per unit of work — a
    /// few at a time until the file fits; the rest keep the first encode's streams. The pixels
    /// are those of the first encode. Over `maxBytes` only when compressing every frame again was
    /// not enough (then it is the file a fresh encode at `effort` gives).
    ///
    /// Level 10 saves about 7 % over level 6 on palette frames at 20 times the cost, and the
    /// first tenth of the work (by this order) saves a third of that (PNGEncoding/NOTES.md): a
    /// file a few per cent over its budget costs a fraction of a full encode.
    ///
    /// - Precondition: `layout` came from `encodeAnimationWithLayout` of exactly these frames,
    ///   delays, loop count and `alwaysAnimated`: its streams are written as they are.
    package static func shrinkAnimation(frames: [IndexedImage], delays: [Delay], loopCount: Int = 0,
                                        alwaysAnimated: Bool = false, layout: APNGLayout, effort: Effort,
                                        maxBytes: Int) throws -> [UInt8] {
        var e = try APNGEncoder(indexed: frames, delays: delays, loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        return try shrink(e, layout: layout, effort: effort, maxBytes: maxBytes)
    }

    /// `shrinkAnimation` over palette frames read from a sequence (walked once per round);
    /// `used` as for `encodeAnimationWithLayout(frames:palette:used:…)`.
    package static func shrinkAnimation(frames: any FrameSequence, palette: [RGBA], used: [Bool], delays: [Delay],
                                        loopCount: Int = 0, alwaysAnimated: Bool = false, layout: APNGLayout,
                                        effort: Effort, maxBytes: Int) throws -> [UInt8] {
        var e = try APNGEncoder(indexed: frames, palette: palette, used: used, delays: delays, loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        return try shrink(e, layout: layout, effort: effort, maxBytes: maxBytes)
    }

    private static func shrink(_ e: APNGEncoder, layout: APNGLayout, effort: Effort, maxBytes: Int) throws -> [UInt8] {
        let planFor = { EncodingPlan.plan(effort, kind: $0) }
        guard layout.streams.count == layout.frames.count else { return try e.encode(planFor, reusing: layout).bytes }
        guard layout.fileBytes > maxBytes else { return try e.encode(planFor, reusing: layout, only: []).bytes }
        // A file that the lighter level (7) is measured to bring within the budget is shrunk
        // there first: over level 6 it saves a third of what level 10 does on flat artwork at a
        // twelfth of the extra time per byte saved (NOTES.md). Level 10 takes over when it is
        // not enough.
        var current = layout
        let excess = Double(layout.fileBytes - maxBytes)
        let streams = Double(layout.streamBytes.reduce(0, +))
        if let light = EncodingPlan.shrinkLevel(effort), let saving = sampledSaving(layout, level: light),
           excess * lightMargin <= saving * streams {
            let r = try shrinkRounds(e, current, plan: { EncodingPlan.plan(effort, kind: $0).at(level: light) },
                                     saving: saving, maxBytes: maxBytes)
            if r.bytes.count <= maxBytes { return r.bytes }
            current = r.layout
        }
        // `current` is over the budget here, so at least one round runs and gives the file.
        return try shrinkRounds(e, current, plan: planFor, saving: expectedSaving, maxBytes: maxBytes).bytes
    }

    /// The share of their bytes that compressing again at `level` saves on the densest written
    /// frames' streams (densest first, at least `savingSample` of all stream bytes), or nil when
    /// a stream does not inflate. Level 7's saving over level 6 is 0.3–4 % on the animated
    /// corpus, so it is measured, not assumed: a few frames inflated and compressed again cost
    /// a small share of the level-10 work it may save.
    static func sampledSaving(_ layout: APNGLayout, level: Int) -> Double? {
        let order = densestFirst(layout)
        let all = layout.streamBytes.reduce(0, +)
        let compressor = ZlibCompressor()
        var before = 0, after = 0
        for w in order where Double(before) < savingSample * Double(all) {
            let r = layout.frames[w].rect
            guard let raw = ZlibCompressor.inflate(layout.streams[w], capacity: (r.width * 4 + 1) * r.height) else { return nil }
            before += layout.streams[w].count
            after += compressor.compress(raw, level: level).count
        }
        return before > 0 ? max(0, 1 - Double(after) / Double(before)) : nil
    }

    /// Written frames by stream bytes per pixel written, densest first (the earlier on a tie).
    static func densestFirst(_ layout: APNGLayout) -> [Int] {
        let density = layout.frames.indices.map { Double(layout.streamBytes[$0]) / Double(layout.frames[$0].rect.width * layout.frames[$0].rect.height) }
        return layout.frames.indices.sorted { density[$0] > density[$1] || (density[$0] == density[$1] && $0 < $1) }
    }

    /// Rounds of `shrink` under one plan: written frames compressed again under `plan` a few
    /// at a time, densest first, until the file fits `maxBytes` or every frame has been.
    /// - Precondition: `layout.fileBytes > maxBytes` (at least one round runs).
    private static func shrinkRounds(_ e: APNGEncoder, _ layout: APNGLayout, plan: (EncodingPlan.Kind) -> EncodingPlan,
                                     saving expected: Double, maxBytes: Int) throws -> (bytes: [UInt8], layout: APNGLayout) {
        let order = densestFirst(layout)
        var current = layout
        var bytes: [UInt8] = []
        var done = Set<Int>()
        var total = layout.fileBytes
        var round = 0
        precondition(total > maxBytes && !order.isEmpty)
        while total > maxBytes && done.count < order.count {
            // Enough frames that the expected saving (`expected` of their streams) covers the
            // excess one and a half times; the third round takes every frame left.
            let excess = Double(total - maxBytes) * 1.5
            var pick = Set<Int>()
            var saving = 0.0
            for w in order where !done.contains(w) {
                pick.insert(w)
                saving += expected * Double(current.streamBytes[w])
                if saving >= excess && round < 2 { break }
            }
            let r = try e.encode(plan, reusing: current, only: pick)
            done.formUnion(pick)
            current = r.layout
            bytes = r.bytes
            total = r.bytes.count
            round += 1
        }
        return (bytes, current)
    }

    /// What recompressing a level-6 palette stream at level 10 is expected to save, as a share of
    /// it (7.2 % over the animated corpus at 618 px, 3–12 % per file).
    static let expectedSaving = 0.06
    /// Share of the stream bytes `sampledSaving` measures on.
    static let savingSample = 0.1
    /// The lighter level is tried when its measured saving over every frame covers the excess
    /// this many times (the sample is of the densest frames, which save the most).
    static let lightMargin = 1.25

    /// An animated PNG of truecolour frames, in the smallest of gray, RGB, gray+alpha and RGBA that
    /// holds every frame exactly. Frame layout, merging, delays and errors are as for the palette
    /// overload; OVER blending needs an alpha channel, so fully opaque animations use SOURCE only.
    public static func encodeAnimation(frames: [Image], delays: [Delay], loopCount: Int = 0,
                                       effort: Effort = .default, alwaysAnimated: Bool = false) throws -> [UInt8] {
        var e = try APNGEncoder(truecolor: frames, delays: delays, loopCount: loopCount)
        e.alwaysAnimated = alwaysAnimated
        return try e.encode { EncodingPlan.plan(effort, kind: $0) }.bytes
    }

    /// A cheap estimate of `encodeAnimation(frames:delays:loopCount:effort: .default).count`: the
    /// same frame layout search, every stream compressed once at libdeflate level 6 and scaled
    /// by 0.9 (the measured level-10 ÷ level-6 ratio). It costs what `.fast` costs.
    ///
    /// Measured on seven corpus animations (24–150 frames, 148–408 px; NOTES.md): within
    /// −5.3 % … +4.6 % of the `.default` size (five of them within −0.9 … −1.9 %), at a fifth of
    /// its time or less.
    ///
    /// - Throws: as `encodeAnimation`.
    package static func estimatedAnimationSize(frames: [IndexedImage], delays: [Delay], loopCount: Int = 0) throws -> Int {
        try estimatedAnimationSizes(frames: frames, delays: delays, loopCount: loopCount).all
    }

    /// `estimatedAnimationSize` of `frames`, and from the same encode the estimate of their
    /// first frame alone: its stream in a still PNG of its own. (A one-frame encode of it
    /// would write only the palette entries that frame uses, relabelled, and may pack them into
    /// fewer bits: a few bytes apart, and no second compression of the frame.)
    ///
    /// - Throws: as `encodeAnimation`.
    package static func estimatedAnimationSizes(frames: [IndexedImage], delays: [Delay],
                                                loopCount: Int = 0) throws -> (all: Int, first: Int) {
        let encoder = try APNGEncoder(indexed: frames, delays: delays, loopCount: loopCount)
        let r = try encoder.encode { EncodingPlan.estimate(kind: $0) }
        let all = EncodingPlan.estimatedSize(fileBytes: r.bytes.count, streamBytes: r.streamBytes)
        guard frames.count > 1, let first = r.layout.streamBytes.first else { return (all, all) }
        return (all, EncodingPlan.estimatedSize(fileBytes: encoder.stillFileBytes(stream: first), streamBytes: first))
    }

    /// What `frames` after the first add to the estimate: `all - first` of
    /// `estimatedAnimationSizes`, without compressing the first frame (laid out, as the later
    /// frames' differences need, but its stream left empty). The streams' scaling rounds once
    /// for the later frames instead of once for all and once for the first, so it can be one
    /// byte from that difference. 0 for a single frame.
    ///
    /// - Throws: as `encodeAnimation`.
    package static func estimatedLaterFramesSize(frames: [IndexedImage], delays: [Delay], loopCount: Int = 0) throws -> Int {
        guard frames.count > 1 else { return 0 }
        let encoder = try APNGEncoder(indexed: frames, delays: delays, loopCount: loopCount)
        let r = try encoder.encode({ EncodingPlan.estimate(kind: $0) }, firstStream: false)
        let all = EncodingPlan.estimatedSize(fileBytes: r.bytes.count, streamBytes: r.streamBytes)
        return all - encoder.stillFileBytes(stream: 0)
    }
}
