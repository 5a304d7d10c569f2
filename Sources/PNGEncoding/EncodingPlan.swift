/// What one effort level means for one kind of image: the deflate level and which filter
/// strategies to try. Figures behind the choices are in NOTES.md.
struct EncodingPlan {
    /// libdeflate level of the stream that is written.
    let level: Int
    /// Whole-image filter strategies; with more than one, each is compressed at `trialLevel`
    /// and the best `finalists` are compressed again at `level`.
    let strategies: [FilterStrategy]
    let trialLevel: Int
    let finalists: Int
    /// Rank the strategies on a sample of rows (`RasterStreams.sampleRows`) instead of the whole
    /// raster; only the finalists are filtered whole.
    var sampledTrials = false
    /// When set and the winning strategy is "none" (flat artwork), its stream is compressed at
    /// this level instead of `level`: there level 10 saves little over 7 at twice the time,
    /// unlike on filtered photos (NOTES.md). Stills at `.default` only (`still(_:)`).
    var unfilteredLevel: Int? = nil
    /// When set, a filtered winner whose ranking sample deflates at level 1 to less than
    /// `compressibleRatio` of its bytes is compressed at this level instead of `level`: the
    /// near-optimal levels cost about the same per input byte whatever the rows hold but save a
    /// share of the compressed bytes, so on rows that compress that well they buy few bytes for
    /// their time (NOTES.md, "Compressible stills"). Sampled trials only (`still(_:)`).
    var compressibleLevel: Int? = nil
    /// Level-1 sample bytes ÷ sample input bytes under which `compressibleLevel` applies.
    static let compressibleRatio = 0.06

    /// This plan without its lower levels (`unfilteredLevel`, `compressibleLevel`), or nil when
    /// it has none: what a file that missed its budget at a lower level is made again with.
    var atFullLevel: EncodingPlan? {
        guard unfilteredLevel != nil || compressibleLevel != nil else { return nil }
        var full = self
        full.unfilteredLevel = nil
        full.compressibleLevel = nil
        return full
    }
    /// Plans whose result is also computed, the smallest stream winning: lets `.max` promise it
    /// is never larger than `.default` (libdeflate's level 12 is not always below level 10).
    var alternatives: [EncodingPlan] = []

    /// The kinds of raster that want different filters.
    enum Kind {
        /// Palette image with 1, 2 or 4 bits per pixel: filters work on bytes that hold several
        /// pixels, which only hurts.
        case packedPalette
        case palette
        case truecolor
    }

    /// The strategy the layout search of APNG frames compares candidates with.
    static func defaultStrategy(for kind: Kind) -> FilterStrategy {
        switch kind {
        case .packedPalette, .palette: .none
        case .truecolor: .minimumSum
        }
    }

    static func plan(_ effort: Effort, kind: Kind) -> EncodingPlan {
        switch (effort, kind) {
        case (_, .packedPalette):
            // Filters on bytes that pack several indices only scramble them.
            return EncodingPlan(level: level(effort), strategies: [.none], trialLevel: 6, finalists: 1,
                                alternatives: effort == .max ? [plan(.default, kind: kind)] : [])
        case (.max, .palette):
            // "none" won on every quantized file measured; the others are cheap insurance at level 6.
            return EncodingPlan(level: 12, strategies: [.none, .fixed(.sub), .minimumSum], trialLevel: 6, finalists: 1,
                                alternatives: [plan(.default, kind: kind)])
        case (_, .palette):
            return EncodingPlan(level: level(effort), strategies: [.none], trialLevel: 6, finalists: 1)
        case (.max, .truecolor):
            // Three finalists: the level-6 ranking of the top ones is not the level-12 ranking.
            return EncodingPlan(level: 12, strategies: FilterStrategy.all, trialLevel: 6, finalists: 3,
                                alternatives: [plan(.default, kind: kind)])
        case (.fast, .truecolor):
            // Flat artwork compresses best unfiltered, photos with the heuristic: a level-6 trial
            // of both, and the smaller is the file.
            return EncodingPlan(level: 6, strategies: [.none, .minimumSum], trialLevel: 6, finalists: 1)
        case (.default, .truecolor):
            // The same two, ranked by level 1 on a quarter of the rows: it picks the level-10
            // winner as often as a whole level-6 trial did, at a tenth of its cost (NOTES.md).
            return EncodingPlan(level: 10, strategies: [.none, .minimumSum], trialLevel: 1, finalists: 1, sampledTrials: true)
        }
    }

    /// The plan of a truecolour still (not of APNG frames) at `effort`: `plan(effort, kind:
    /// .truecolor)`, except that at `.default` an unfiltered winner, and a filtered one whose
    /// rows compress very well, are compressed at level 7, and `.max` is never larger than that
    /// `.default`.
    static func still(_ effort: Effort) -> EncodingPlan {
        var p = plan(effort, kind: .truecolor)
        switch effort {
        case .fast: break
        case .default:
            p.unfilteredLevel = 7
            p.compressibleLevel = 7
        case .max: p.alternatives = [still(.default)]
        }
        return p
    }

    /// The plans a truecolour animation's streams are tried with, in order, until its file fits
    /// its budget. At `.default` the first writes the ranked winner at level 6, as the palette
    /// animations' probes are written: the same pixels as level 10 or 7 in a file 0–12 % larger,
    /// at about two thirds of the time (NOTES.md); then the still rules (`still(_:)`), then
    /// those without their lower levels.
    static func truecolorAnimation(_ effort: Effort) -> [EncodingPlan] {
        let still = still(effort)
        guard effort == .default, let full = still.atFullLevel else { return [still] }
        return [full.at(level: level(.fast)), still, full]
    }

    /// This plan with its streams written at `level`.
    func at(level: Int) -> EncodingPlan {
        EncodingPlan(level: level, strategies: strategies, trialLevel: trialLevel, finalists: finalists,
                     sampledTrials: sampledTrials, unfilteredLevel: unfilteredLevel, compressibleLevel: compressibleLevel,
                     alternatives: alternatives)
    }

    /// The level a palette animation a little over its budget is first shrunk at
    /// (`PNGEncoder.shrinkAnimation`), below the effort's own; nil when there is none.
    static func shrinkLevel(_ effort: Effort) -> Int? {
        level(effort) > 7 ? 7 : nil
    }

    /// The libdeflate level of the stream written at `effort`.
    private static func level(_ effort: Effort) -> Int {
        switch effort {
        case .fast: 6
        case .default: 10
        case .max: 12
        }
    }

    /// The plan behind the (palette-only) size estimators: one unfiltered level-6 pass, whose
    /// stream is about `1 / estimateScale` times the `.default` stream.
    static func estimate(kind: Kind) -> EncodingPlan {
        EncodingPlan(level: 6, strategies: [.none], trialLevel: 6, finalists: 1)
    }

    /// `.default` stream size ÷ level-6 stream size, measured on quantized corpus art (NOTES.md).
    static let estimateScale = 0.9

    /// A file size with its zlib streams scaled from the estimate plan to `.default`.
    static func estimatedSize(fileBytes: Int, streamBytes: Int) -> Int {
        fileBytes - streamBytes + Int((Double(streamBytes) * estimateScale).rounded())
    }

    /// The zlib stream of `raster` under this plan: the smallest over the strategies tried.
    func compress(_ raster: Raster, with compressor: ZlibCompressor) -> [UInt8] {
        compress(RasterStreams(raster, compressor: compressor))
    }

    /// The zlib stream of `streams.raster` under this plan, reusing (and keeping) what
    /// `streams` already holds.
    func compress(_ streams: RasterStreams) -> [UInt8] {
        var best = compressOwn(streams)
        for a in alternatives {
            let other = a.compress(streams)
            if other.count < best.count { best = other }
        }
        return best
    }

    private func compressOwn(_ streams: RasterStreams) -> [UInt8] {
        if strategies.count == 1 {
            return streams.stream(strategies[0], level: strategies[0] == .none ? unfilteredLevel ?? level : level)
        }
        // Stable: on equal trial sizes the earlier strategy wins.
        let ranked: [FilterStrategy]
        var compressible: Set<FilterStrategy> = []
        if sampledTrials {
            let sizes = strategies.map { streams.sampleSize($0, level: trialLevel) }
            ranked = strategies.indices.sorted { (sizes[$0], $0) < (sizes[$1], $1) }.map { strategies[$0] }
            if compressibleLevel != nil {
                let limit = EncodingPlan.compressibleRatio * Double(streams.sampledByteCount)
                compressible = Set(strategies.indices.filter { Double(sizes[$0]) < limit }.map { strategies[$0] })
            }
        } else {
            let sizes = strategies.map { streams.stream($0, level: trialLevel).count }
            ranked = strategies.indices.sorted { (sizes[$0], $0) < (sizes[$1], $1) }.map { strategies[$0] }
        }
        var best: [UInt8] = []
        for s in ranked.prefix(max(1, finalists)) {
            let stream = streams.stream(s, level: s == .none ? unfilteredLevel ?? level
                                                : compressible.contains(s) ? compressibleLevel ?? level : level)
            if best.isEmpty || stream.count < best.count { best = stream }
        }
        return best
    }
}
