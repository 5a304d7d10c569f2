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

    /// The kinds of raster that want different filters.
    enum Kind {
        /// Palette image with 1, 2 or 4 bits per pixel: filters work on bytes that hold several
        /// pixels, which only hurts.
        case packedPalette
        case palette
        case truecolor
    }

    /// The one strategy used below `.max` effort.
    static func defaultStrategy(for kind: Kind) -> FilterStrategy {
        switch kind {
        case .packedPalette, .palette: .none
        case .truecolor: .minimumSum
        }
    }

    static func plan(_ effort: Effort, kind: Kind) -> EncodingPlan {
        let single = [defaultStrategy(for: kind)]
        switch effort {
        case .fast: return EncodingPlan(level: 6, strategies: single, trialLevel: 6, finalists: 1)
        case .default: return EncodingPlan(level: 10, strategies: single, trialLevel: 10, finalists: 1)
        case .max: return EncodingPlan(level: 12, strategies: FilterStrategy.all, trialLevel: 6, finalists: 2)
        }
    }

    /// The cheap plan behind the size estimators.
    static func estimate(kind: Kind) -> EncodingPlan {
        EncodingPlan(level: 3, strategies: [defaultStrategy(for: kind)], trialLevel: 3, finalists: 1)
    }

    /// The zlib stream of `raster` under this plan: the smallest over the strategies tried.
    func compress(_ raster: Raster, with compressor: ZlibCompressor) -> [UInt8] {
        if strategies.count == 1 {
            return compressor.compress(ScanlineFilter.filter(raster, strategy: strategies[0]), level: level)
        }
        var trials: [(size: Int, filtered: [UInt8])] = []
        for s in strategies {
            let filtered = ScanlineFilter.filter(raster, strategy: s)
            trials.append((compressor.compress(filtered, level: trialLevel).count, filtered))
        }
        trials.sort { $0.size < $1.size }
        var best: [UInt8] = []
        for t in trials.prefix(max(1, finalists)) {
            let stream = compressor.compress(t.filtered, level: level)
            if best.isEmpty || stream.count < best.count { best = stream }
        }
        return best
    }
}
