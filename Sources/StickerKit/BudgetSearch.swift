import ImageCore
import ImageQuantize
import PNGEncoding

/// The budget search: the best-looking encoding whose whole file fits `maxBytes`.
///
/// Quality first: lossless (an exact palette, or truecolour) when it fits; otherwise the palette
/// size that gives the best measured quality within the budget, found by bisection over the
/// colour count. Resolution is never lowered. A pure function: same input, same bytes.
enum BudgetSearch {
    /// The best-looking still of `image` (the fitted sticker) within the budget, or why there is
    /// none; `builder` makes the sticker and its report.
    static func encodeStill(_ image: Image, options: ConversionOptions, builder: StickerBuilder,
                            clock: StageClock) -> Result<StickerOutput, StickerError> {
        let maxBytes = options.maxBytes
        let effort = options.effort
        let gray = options.target.allowsGrayPNG
        func output(_ bytes: [UInt8], mode: OutputMode, colors: Int?, dithering: Float?, quality: Int,
                    metrics: QualityMetrics?) -> StickerOutput {
            builder.still(bytes, mode: mode, colors: colors, dithering: dithering, effort: effort, quality: quality, metrics: metrics)
        }

        let minQuality = options.quality.lowerBound, maxQuality = options.quality.upperBound

        // 1. Lossless, if it fits: an exact palette when there are ≤ 256 colours, else truecolour.
        let cap = options.maxColors ?? 256
        // One histogram, one set of palette working points and one dither map for every colour
        // count the search tries, made when first needed: a truecolour still that fits never
        // needs them (its colours are counted only until there are too many for a palette).
        var ditherMap: FrameDitherMap? = nil
        var palettesMade: HistogramPalettes? = nil
        func palettes() -> HistogramPalettes {
            if let p = palettesMade { return p }
            let p = clock.measure(\.quantize) {
                var histogram = Histogram()
                histogram.add(image)
                return HistogramPalettes(histogram, keepsPaintedAlpha: !options.target.isMessages)
            }
            palettesMade = p
            return p
        }
        func quantize(_ n: Int) -> QuantizeResult {
            clock.measure(\.quantize) {
                let palette = palettes().palette(maxColors: n)
                if ditherMap == nil && !palette.exact { ditherMap = FrameDitherMap(image) }
                return PaletteMapper(palette).quantize([image], dithering: 1, ditherMaps: ditherMap.map { [$0] })
            }
        }
        // The palette at the cap, made when first needed: a truecolour still that fits never
        // needs it (median cut, k-means and a dithered remap of every pixel, for nothing).
        var firstResult: QuantizeResult? = nil
        func first() -> QuantizeResult {
            if let f = firstResult { return f }
            let f = quantize(cap)
            firstResult = f
            return f
        }
        var upper = cap
        if clock.measure(\.quantize, { HistogramPalettes.hasExactPalette(image, maxColors: cap) }), first().exact {
            let first = first()
            let bytes = clock.measure(\.encode) { PNGEncoder.encode(first.frames[0], effort: effort, allowsGray: gray) }
            if bytes.count <= maxBytes {
                return .success(output(bytes, mode: .paletteExact, colors: first.palette.count, dithering: nil,
                                       quality: 100, metrics: nil))
            }
            upper = first.palette.count - 1
        } else if options.maxColors == nil {
            if maxQuality == 100 {
                // Encoded once at the requested effort, when a cheap level-1 trial says it may fit.
                let still = TruecolorStill(image, splitsLargeStreams: true, allowsGray: gray)
                if clock.measure(\.encode, { still.mayFit(maxBytes) }) {
                    let bytes = clock.measure(\.encode) { still.encode(effort: effort, within: maxBytes) }
                    if bytes.count <= maxBytes {
                        return .success(output(bytes, mode: .truecolor, colors: nil, dithering: nil, quality: 100, metrics: nil))
                    }
                }
            }
            // 1b. Lossy truecolour: channels rounded to a step, millions of colours kept. The
            //     finest step that fits (size falls as the step grows), or with --quality …MAX
            //     the coarsest that still reaches MAX.
            if let lt = posterized(image, maxBytes: maxBytes, maxQuality: maxQuality, effort: effort, allowsGray: gray, clock: clock),
               lt.quality >= first().quality {
                if lt.quality < minQuality {
                    return .failure(.belowMinimumQuality(quality: lt.quality, minimum: minQuality, colors: nil, budget: maxBytes))
                }
                let metrics = builder.metrics { clock.measure(\.other) { QualityMetrics.compare(image, lt.image) } }
                return .success(builder.still(lt.bytes, mode: .truecolorLossy, colors: nil, dithering: nil, effort: effort,
                                              quality: lt.quality, metrics: metrics, posterizeStep: lt.step))
            }
        }

        // 2. Palette: the most colours that fit (size grows with the colour count), unless fewer
        //    already reach the requested maximum quality.
        var cache: [Int: Probe] = [:]
        func probe(_ n: Int) -> Probe {
            if let p = cache[n] { return p }
            let q = n == cap ? first() : quantize(n)
            let bytes = clock.measure(\.encode) { PNGEncoder.encode(q.frames[0], effort: .fast, allowsGray: gray) }
            let p = Probe(colors: n, result: q, bytes: bytes)
            cache[n] = p
            return p
        }

        var chosen: Probe
        var overAtFast: Probe? = nil
        let top = probe(upper)
        if top.bytes.count <= maxBytes {
            chosen = top
        } else {
            overAtFast = top
            // Invariant: lo fits (or is the floor, untested), hi does not fit.
            var lo = 2, hi = upper
            let floor = probe(2)
            if floor.bytes.count > maxBytes {
                return .failure(.stillOverBudget(smallest: floor.bytes.count, budget: maxBytes))
            }
            chosen = floor
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                let p = probe(mid)
                if p.bytes.count <= maxBytes { lo = mid; chosen = p } else { hi = mid; overAtFast = p }
            }
        }
        // Probes ran at the fast setting; the full effort may fit one more step.
        if effort != .fast, let over = overAtFast, over.colors > chosen.colors,
           over.bytes.count <= ProbeAllowance.still.limit(maxBytes) {
            let b = clock.measure(\.encode) { PNGEncoder.encode(over.result.frames[0], effort: effort, allowsGray: gray) }
            if b.count <= maxBytes { chosen = Probe(colors: over.colors, result: over.result, bytes: b) }
        }

        // Stop improving at the maximum quality: the fewest colours that still reach it.
        if maxQuality < 100, chosen.result.quality > maxQuality {
            var lo = 2, hi = chosen.colors
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if probe(mid).result.quality >= maxQuality { hi = mid } else { lo = mid }
            }
            let p = probe(hi)
            if p.bytes.count <= maxBytes { chosen = p }
        }

        if chosen.result.quality < minQuality {
            return .failure(.belowMinimumQuality(quality: chosen.result.quality, minimum: minQuality, colors: chosen.colors,
                                                 budget: maxBytes))
        }
        let metrics = builder.metrics { clock.measure(\.other) { QualityMetrics.compare(image, chosen.result.frames[0].expanded()) } }
        let indexed = chosen.result.frames[0]
        let finalBytes = finalEncode(chosen.bytes, effort: effort, clock: clock) { PNGEncoder.encode(indexed, effort: $0, allowsGray: gray) }
        return .success(output(finalBytes, mode: .palette, colors: chosen.result.palette.count, dithering: 1,
                               quality: chosen.result.quality, metrics: metrics))
    }

    /// Steps tried for lossy truecolour, finest first.
    static let posterizeSteps = [2, 3, 4, 5, 6, 8, 10, 12, 16]

    /// The lossy-truecolour candidate: the smallest step whose file fits (bisection; the size
    /// falls as the step grows), or with maxQuality < 100 the largest fitting step that still
    /// reaches it. Nil when even the coarsest step does not fit.
    static func posterized(_ image: Image, maxBytes: Int, maxQuality: Int, effort: Effort, allowsGray gray: Bool = true,
                           clock: StageClock) -> (bytes: [UInt8], step: Int, quality: Int, image: Image)? {
        let steps = posterizeSteps
        var encoded: [Int: [UInt8]] = [:]
        func bytes(_ i: Int) -> [UInt8] {
            if let b = encoded[i] { return b }
            let p = clock.measure(\.quantize) { Posterizer.posterize(image, step: steps[i]) }
            let b = clock.measure(\.encode) { PNGEncoder.encode(p, effort: .fast, allowsGray: gray) }
            encoded[i] = b
            return b
        }
        func quality(_ p: Image) -> Int { clock.measure(\.other) { Posterizer.measure(p, against: image).quality } }
        guard bytes(steps.count - 1).count <= maxBytes else { return nil }
        var lo = -1, hi = steps.count - 1   // lo does not fit (or is before the first), hi fits
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if bytes(mid).count <= maxBytes { hi = mid } else { lo = mid }
        }
        var pick = hi
        if maxQuality < 100 {
            while pick + 1 < steps.count, quality(Posterizer.posterize(image, step: steps[pick + 1])) >= maxQuality { pick += 1 }
        }
        // Probes ran at the fast setting: the full effort may make the next finer step fit.
        if effort != .fast, maxQuality == 100, pick > 0, bytes(pick - 1).count <= ProbeAllowance.still.limit(maxBytes) {
            let finer = Posterizer.posterize(image, step: steps[pick - 1])
            let b = clock.measure(\.encode) { PNGEncoder.encode(finer, effort: effort, allowsGray: gray) }
            if b.count <= maxBytes { return (b, steps[pick - 1], quality(finer), finer) }
        }
        let chosen = Posterizer.posterize(image, step: steps[pick])
        let final = finalEncode(bytes(pick), effort: effort, clock: clock) { PNGEncoder.encode(chosen, effort: $0, allowsGray: gray) }
        return (final, steps[pick], quality(chosen), chosen)
    }

    /// The file to write from a probe made at `.fast`: encoded again at `effort` (unless that is
    /// `.fast`), keeping the smaller, so the result never grows past the probe that fitted.
    static func finalEncode(_ probe: [UInt8], effort: Effort, clock: StageClock, _ encode: (Effort) -> [UInt8]) -> [UInt8] {
        if effort == .fast { return probe }
        let b = clock.measure(\.encode) { encode(effort) }
        return (!b.isEmpty && b.count <= probe.count) ? b : probe
    }

    struct Probe {
        var colors: Int
        var result: QuantizeResult
        var bytes: [UInt8]
    }
}
