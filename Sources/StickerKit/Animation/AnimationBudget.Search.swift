import Foundation
import ImageCore
import ImageQuantize
import PNGEncoding

extension AnimationBudget {
    /// One animation's search: the strategy over the parts that hold its state — the palettes
    /// (`Palettes`), the sampled frames (`Samples`), the real encodes (`Probes`) and the size
    /// predictions (`SizeModel`).
    final class Search {
        let frames: FittedFrames
        let timeline: AnimationTimeline
        let maxBytes: Int
        let options: ConversionOptions
        let clock: StageClock
        let builder: StickerBuilder
        let palettes: Palettes
        let samples: Samples
        let probes: Probes
        let model: SizeModel
        /// Most colours tried (`--colors`, else 256).
        let cap: Int
        /// What a `.fast` probe may weigh: a little over the budget when the file is written at a
        /// higher effort (`ProbeAllowance.animation`); the final encode is checked.
        var searchBudget: Double { Search.searchBudget(options) }
        static func searchBudget(_ options: ConversionOptions) -> Double {
            Double(options.maxBytes) * (options.effort == .fast ? 1.0 : ProbeAllowance.animation.factor)
        }

        init(_ frames: FittedFrames, loopCount: Int, options: ConversionOptions, budgets: AnimationBudget.Memory,
             builder: StickerBuilder, clock: StageClock) throws {
            self.frames = frames
            timeline = AnimationTimeline(delays: frames.delays)
            maxBytes = options.maxBytes
            self.options = options
            self.clock = clock
            self.builder = builder
            cap = options.maxColors ?? 256
            // Other platforms keep alpha painted almost opaque; Messages' palettes are as they were.
            palettes = try Palettes(frames, keepsPaintedAlpha: !options.target.isMessages, clock: clock)
            samples = Samples(frames, timeline: timeline, palettes: palettes, imageBudget: budgets.samples, clock: clock)
            let samples = self.samples
            probes = Probes(frames, timeline: timeline, palettes: palettes, loops: loopCount, indexedBudget: budgets.indexed,
                            maxBytes: maxBytes, writable: Int(Search.searchBudget(options)),
                            stopPast: Int(Double(maxBytes) * AnimationBudget.stopPast), clock: clock, heldBeside: { samples.bytesPastBudget })
            model = SizeModel(timeline: timeline, steps: timeline.steps(minFPS: options.minFPS), samples: samples, probes: probes,
                              loops: loopCount, clock: clock)
        }

        /// Frees remaps of colour counts other than `keeping` (an animation's frames at one palette
        /// take as much memory as the frames themselves).
        func release(keeping: [Int]) {
            samples.release(keeping: keeping, steps: model.predictedSteps)
        }

        /// The most colours in `lo…hi` whose predicted size is within the margin (bisection on
        /// predictions), or nil when even `lo` is predicted over. With real sizes (`isExact`) the
        /// top is tried first, since it is often the answer and each try is an encode — unless a
        /// real size at another frame rate, scaled to this one, says it is over (`scaledSize`).
        func predictedColours(step: Int, lo: Int, hi: Int) -> Int? {
            let exact = model.isExact(step)
            let target = searchBudget * (exact ? 1 : AnimationBudget.margin)
            // Ends whose scaled size settles them are not encoded: a top scaled over the target
            // stays an (estimated) upper end; a bottom scaled well over means this frame rate
            // cannot fit, one scaled under is an estimated lower end until a real encode fits.
            var estimated: [Int: Double] = [:]
            if exact, probes.byKey[Setting(colors: hi, step: step)] == nil, let s = probes.scaledSize(hi, step), s > target {
                estimated[hi] = s
            }
            if exact, probes.byKey[Setting(colors: lo, step: step)] == nil, let s = probes.scaledSize(lo, step) {
                if s > target * AnimationBudget.hopeless { return nil }
                if s <= target && lo < hi { estimated[lo] = s }
            }
            func size(_ n: Int) -> Double { estimated[n] ?? model.predict(n, step) }
            if exact && estimated[hi] == nil && model.predict(hi, step) <= target { return hi }
            // On real encodes: the top's size (real, or scaled from another frame rate), and
            // whether the floor is still unencoded.
            let top = exact ? probes.byKey[Setting(colors: hi, step: step)].map({ Double($0.size) }) ?? estimated[hi] : nil
            let floorUnencoded = probes.byKey[Setting(colors: lo, step: step)] == nil
            // A top far over settles the floor without encoding it: sizes fall more slowly than
            // the square root of the colour count (`floorSlope`).
            if let top, lo >= min(cap, AnimationBudget.colourFloor), lo < hi, floorUnencoded, top > 0,
               top * pow(Double(lo) / Double(hi), AnimationBudget.floorSlope) > target * AnimationBudget.hopeless {
                return nil
            }
            var a = lo, b = hi
            // A top over the target guesses the answer from its own size: sizes fall with the
            // colour count no faster than `guessSlope`, so the guess lands at or under the
            // target, where it settles the bottom without encoding the floor.
            if let top, lo + 1 < hi, floorUnencoded, estimated[lo] == nil, top > target {
                let guess = Int(Double(hi) * pow(target / top, 1 / AnimationBudget.guessSlope))
                if guess > lo && guess < hi {
                    if size(guess) <= target { a = guess } else { b = guess }
                }
            }
            if a == lo && size(lo) > target { return nil }
            if !exact && model.predict(hi, step) <= target { return hi }
            // Regula falsi on log(size) against log(colours), which is close to a straight line:
            // two or three predictions instead of a bisection's six or seven. When the same end
            // moves twice in a row the curve is bending away from the chord: bisect once instead
            // (plain regula falsi would creep up on the answer one or two colours at a time).
            var lastMoved = 0
            // A real encode that fits within `closeEnough` of the target is the answer: more
            // colours could only add the last few per cent of bytes.
            for _ in 0..<4 where b - a > max(1, a / (exact ? AnimationBudget.colourResolution : 16))
                && !(exact && size(a) >= target * AnimationBudget.closeEnough) {
                var t = 0.5
                if lastMoved != 2 {
                    let sa = log(size(a)), sb = log(size(b))
                    t = sb > sa ? (log(target) - sa) / (sb - sa) : 0.5
                    t = min(0.9, max(0.1, t))
                }
                let n = min(b - 1, max(a + 1, Int(exp(log(Double(a)) + t * (log(Double(b)) - log(Double(a)))))))
                let moved = model.predict(n, step) <= target ? -1 : 1
                if moved < 0 { a = n } else { b = n }
                lastMoved = lastMoved == moved ? 2 : moved
            }
            // An estimated bottom is the answer only once a real encode says it fits.
            if estimated[a] != nil && model.predict(a, step) > target { return nil }
            return a
        }

        /// Real encodes from `n` down until one fits (each step down by the overshoot), or nil.
        func fitting(from n: Int, step: Int, floor: Int) -> Encoded? {
            var n = n
            var over = n + 1   // the fewest colours known not to fit
            for _ in 0..<6 {
                let e = probes.probe(n, step)
                if e.fits(maxBytes) {
                    // The steps down overshoot: bisect back up towards the last size that missed.
                    var best = e
                    var lo = n, hi = over
                    for _ in 0..<3 where hi - lo > max(1, lo / 8) {
                        let mid = (lo + hi) / 2
                        let m = probes.probe(mid, step)
                        if m.fits(maxBytes) { best = m; lo = mid } else { hi = mid }
                    }
                    return best
                }
                if n <= floor { return nil }
                over = n
                let ratio = Double(e.size) / Double(maxBytes)
                n = max(floor, min(n - 1, Int(Double(n) / (ratio * ratio * 1.05))))
            }
            return nil
        }

        /// The setting predicted best within the budget: the most colours (down to the floor) at
        /// the fewest dropped frames, then fewer colours at the lowest frame rate allowed.
        func choose(_ steps: [Int]) -> (colors: Int, step: Int) {
            let floor = min(cap, AnimationBudget.colourFloor)
            for step in steps {
                if let n = predictedColours(step: step, lo: floor, hi: cap) { return (n, step) }
            }
            let last = steps.last!
            return (predictedColours(step: last, lo: 2, hi: floor) ?? 2, last)
        }

        /// Fewer dropped frames first, then more colours.
        static func better(colors: Int, step: Int, than b: Encoded?) -> Bool {
            guard let b else { return true }
            return step < b.step || (step == b.step && colors > b.colors)
        }

        static func better(_ a: Encoded, than b: Encoded?) -> Bool { better(colors: a.colors, step: a.step, than: b) }

        func run() -> Result<StickerOutput, StickerError> {
            let steps = timeline.steps(minFPS: options.minFPS)
            var (best, fitting) = predictAndProbe(steps)
            if let b = best { best = climb(from: b, fitting: &fitting) }
            var chosen = best.flatMap { finalFile($0, fitting: fitting) }
            if chosen == nil {
                // Predictions kept missing: walk down from the last choice with real encodes.
                let (n, step) = choose(steps)
                chosen = self.fitting(from: n, step: step, floor: step == steps.last! ? 2 : min(cap, AnimationBudget.colourFloor))
                    ?? self.fitting(from: min(n, AnimationBudget.colourFloor), step: steps.last!, floor: 2)
            }
            guard let chosen else {
                let last = steps.last!
                let smallest = probes.probe(2, last, whole: true)
                return .failure(.animationOverBudget(smallest: smallest.size, budget: maxBytes,
                                                     keptFrames: smallest.indices.count, frames: timeline.frameCount,
                                                     fps: timeline.fps(last)))
            }
            if let truecolor = losslessTruecolor(instead: chosen) { return .success(truecolor) }
            probes.countChosen(chosen)
            return finish(chosen)
        }

        /// Predict, encode the choice for real, learn from the real size, and repeat: the
        /// calibrated prediction converges in one or two rounds. Returns the best probe within
        /// the search budget and the best within the real budget (the fallback).
        func predictAndProbe(_ steps: [Int]) -> (best: Encoded?, fitting: Encoded?) {
            var best: Encoded? = nil, fitting: Encoded? = nil
            var tried = Set<Setting>()
            for _ in 0..<4 {
                let (n, step) = choose(steps)
                if let b = best, !Search.better(colors: n, step: step, than: b) { break }
                if !tried.insert(Setting(colors: n, step: step)).inserted { break }
                let e = probes.probe(n, step)
                release(keeping: [best?.colors, fitting?.colors, n].compactMap { $0 })
                model.learn(from: e)
                if e.fits(maxBytes), Search.better(e, than: fitting) { fitting = e }
                if e.fits(Int(searchBudget)) {
                    if Search.better(e, than: best) { best = e }
                    // Close enough to the budget, or nothing better to ask for.
                    if n == cap && step == 1 { break }
                    if Double(e.bytes.count) >= searchBudget * 0.9 { break }
                }
                // Over budget: the calibration now knows by how much; the next round chooses less.
            }
            return (best, fitting)
        }

        /// Predictions can be far off for unusual animations (long, mostly still ones): when the
        /// best probe leaves much of the budget unused, bisect the colour count upwards with real
        /// encodes at the same frame rate.
        func climb(from start: Encoded, fitting: inout Encoded?) -> Encoded {
            var b = start
            guard b.colors < cap, Double(b.bytes.count) < searchBudget * 0.85 else { return b }
            // Above the fewest colours already seen not to fit there is nothing to find.
            let over = probes.realSizes(b.step).filter { $0.key > b.colors && Double($0.value) > searchBudget }.keys.min()
            var lo = b.colors, hi = over ?? cap + 1
            var topMoved = 0   // real sizes in a row found over the budget
            for _ in 0..<4 where hi - lo > max(1, lo / 8) {
                // The top first when nothing above is known (often it fits); then between two
                // real sizes, where log size against log colours is nearly straight, kept an
                // eighth of the gap away from either end. Once the top has come down twice in
                // a row the sizes are flatter than the chord near it (a gradient moving
                // everywhere at 618 px crept 39, 38, 37, 36 colours, a probe each): bisect.
                var mid = (lo + hi) / 2
                if hi > cap {
                    mid = cap
                } else if topMoved < 2, let sLo = probes.realSizes(b.step)[lo], let sHi = probes.realSizes(b.step)[hi], sHi > sLo {
                    let t = (log(searchBudget * 0.98) - log(Double(sLo))) / (log(Double(sHi)) - log(Double(sLo)))
                    let guess = Int(exp(log(Double(lo)) + t * (log(Double(hi)) - log(Double(lo)))))
                    mid = min(hi - max(1, (hi - lo) / 8), max(lo + max(1, (hi - lo) / 8), guess))
                }
                // A probe over the search budget stops there: on a long, mostly still timeline
                // the top and the guesses below it can be 1.1–3 times over (5,000 frames of a
                // square moving over a 32² screen at 408 px: 256, 43, 28 and 20 colours, 7.8 s
                // of its 12.8 encoded in full; 4.1 s stopped, the same sticker).
                let e = probes.probe(mid, b.step, stoppingPast: Int(searchBudget))
                if e.fits(Int(searchBudget)) {
                    b = e
                    lo = mid
                    topMoved = 0
                    if e.fits(maxBytes), Search.better(e, than: fitting) { fitting = e }
                } else {
                    hi = mid
                    topMoved += 1
                }
                release(keeping: [b.colors, fitting?.colors, mid].compactMap { $0 })
            }
            return b
        }

        /// The chosen setting at the requested effort; if that still misses, the best probe that
        /// fitted as it was.
        ///
        /// Under `.default` a probe that already fits is written as it is: the level-10 encode
        /// holds the same pixels (the judge's scores are the same) in a file 5–12 % smaller, at
        /// four to six times the probe's cost — 28 % of all CPU over the animated corpus at 618
        /// px. A probe in the search's allowance over the budget is shrunk: only as many of its
        /// frames are compressed again at level 10 as the file needs to fit, the densest first
        /// (watchface, funky chicken, balls and one big buck bunny at 618 px were 0.06–3.5 % over,
        /// and a whole level-10 encode cost 4–6 probes). `.max` always re-encodes every frame,
        /// for the smallest file.
        func finalFile(_ b: Encoded, fitting: Encoded?) -> Encoded? {
            let keepProbe = options.effort == .fast || (options.effort == .default && b.fits(maxBytes))
            let final = keepProbe ? b : probes.encode(b.colors, b.step, effort: options.effort, from: b,
                                                       fitting: options.effort == .default ? maxBytes : nil)
            if final.fits(maxBytes) { return final }
            guard let f = fitting else { return nil }
            let again = options.effort == .max ? probes.encode(f.colors, f.step, effort: options.effort, from: f) : f
            return again.fits(maxBytes) && again.bytes.count <= f.bytes.count ? again : f
        }

        /// Lossless truecolour when a palette loses colours and leaves plenty of room.
        func losslessTruecolor(instead chosen: Encoded) -> StickerOutput? {
            guard chosen.colors == cap, chosen.step == 1, !chosen.exact, options.maxColors == nil,
                  chosen.bytes.count * 3 < maxBytes else { return nil }
            let tc = clock.measure(\.encode) {
                (try? PNGEncoder.encodeAnimation(truecolor: frames, delays: timeline.delays, loopCount: builder.loopCount,
                                                 effort: options.effort, alwaysAnimated: true, within: maxBytes,
                                                 allowsGray: options.target.allowsGrayPNG)) ?? []
            }
            guard !tc.isEmpty, tc.count <= maxBytes else { return nil }
            return builder.animation(tc, mode: .truecolor, effort: options.effort, colors: nil, kept: timeline.frameCount,
                                     framesInput: timeline.frameCount, duration: timeline.duration, quality: 100, metrics: nil,
                                     warnings: [], search: searched)
        }

        /// The search's real encodes and its number of predictions, for the report.
        var searched: (steps: [SearchStep], predictions: Int) { (probes.steps, model.predictions.count) }

        /// The sticker of the chosen encode, with its quality against the unquantized resize.
        func finish(_ e: Encoded) -> Result<StickerOutput, StickerError> {
            var warnings: [String] = []
            if e.step > 1 {
                warnings.append(String(format: "kept %d of %d frames (%.1f fps) to fit the budget", e.indices.count,
                                       timeline.frameCount, timeline.fps(e.step)))
            }
            let quality = e.exact ? 100 : PaletteMapper.quality(meanSquaredError: e.mse)
            if quality < options.quality.lowerBound {
                return .failure(.belowMinimumQuality(quality: quality, minimum: options.quality.lowerBound, colors: e.palette,
                                                     budget: maxBytes))
            }
            // Quality against the unquantized resize, on frames spread over the animation (when
            // the report asks for it: a walk of the frames, three remaps and SSIM over them cost
            // 7–8 % of the animated corpus's CPU).
            let metrics = builder.metrics { clock.measure(\.other) {
                let picks = Array(Set([0, e.indices.count / 2, e.indices.count - 1])).sorted().map { e.indices[$0] }
                let images = samples.images(picks)
                let mapper = palettes.mapper(e.colors)
                var ssim = 0.0, psnr = 0.0
                for image in images {
                    let m = QualityMetrics.compare(image, mapper.remapUndithered(image).image.expanded())
                    ssim += m.ssim; psnr += m.psnr
                }
                return QualityMetrics(ssim: ssim / Double(picks.count), psnr: psnr / Double(picks.count))
            } }
            return .success(builder.animation(e.bytes, mode: e.exact ? .paletteExact : .palette, effort: e.effort,
                                              colors: e.palette, kept: e.indices.count, framesInput: timeline.frameCount,
                                              duration: timeline.duration, quality: quality, metrics: metrics,
                                              warnings: warnings, search: searched))
        }
    }
}
