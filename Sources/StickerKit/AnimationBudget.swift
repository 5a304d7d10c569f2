import ImageCore
import ImageQuantize
import PNGEncoding

/// The budget search for animations: an APNG with one shared palette (or truecolour) whose whole
/// file fits `maxBytes`.
///
/// Levers, in order, each used only as far as needed: the colour count (down to
/// `colourFloor`), then frame decimation that keeps the total duration and the timeline (drop
/// frames, give their time to the kept ones) down to `options.minFPS`, then the colour count below
/// the floor. Resolution never changes; timing is never sped up.
///
/// Cost: one histogram over every frame; one full remap and real encode at 256 colours; then
/// sizes of other settings are *predicted* from a sample of frames (a few short windows spread
/// over the animation, estimated with the encoder's cheap estimator and calibrated against the
/// real 256-colour file), so that only the chosen setting is remapped and encoded in full (once
/// more if the prediction was short). See NOTES.md beside this file.
enum AnimationBudget {
    /// Colours kept before any frame is dropped: fewer than this bands visibly.
    static let colourFloor = 64
    /// Error diffusion strength for animations: full-strength diffusion flickers from frame to
    /// frame and costs bytes in every frame difference.
    static let dithering: Float = 0.5
    /// Predictions aim this far under the budget, so the real encode usually fits first time.
    static let margin = 0.97

    static func encode(_ animation: Animation, options: ConversionOptions, clock: StageClock) -> Result<StickerOutput, StickerError> {
        Search(animation, options: options, clock: clock).run()
    }

    final class Search {
        let frames: [Image]
        let delays: [Delay]
        let loops: Int
        let maxBytes: Int
        let options: ConversionOptions
        let clock: StageClock
        let duration: Delay
        var histogram = Histogram()
        var mappers: [Int: PaletteMapper] = [:]
        /// Remapped frames and their errors by colour count, then frame index.
        var remapped: [Int: [Int: (image: IndexedImage, mse: Double)]] = [:]
        var predictions: [String: Double] = [:]
        var calibration = 1.0

        init(_ animation: Animation, options: ConversionOptions, clock: StageClock) {
            frames = animation.frames.map(\.image)
            delays = animation.frames.map(\.delay)
            loops = animation.loopCount
            maxBytes = options.maxBytes
            self.options = options
            self.clock = clock
            duration = animation.duration
        }

        // MARK: stages, cached

        func mapper(_ n: Int) -> PaletteMapper {
            if let m = mappers[n] { return m }
            let m = clock.measure(\.quantize) { PaletteMapper(Quantizer.palette(from: histogram, maxColors: n)) }
            mappers[n] = m
            return m
        }

        func indexed(_ n: Int, _ i: Int) -> (image: IndexedImage, mse: Double) {
            if let r = remapped[n]?[i] { return r }
            let m = mapper(n)
            let m2 = clock.measure(\.quantize) { m.remap(frames[i], dithering: AnimationBudget.dithering) }
            let r = (image: m2.image, mse: m2.meanSquaredError)
            remapped[n, default: [:]][i] = r
            return r
        }

        /// The frames kept at decimation `step` (every step-th) and their delays: each kept frame
        /// is shown for its own time plus that of the frames dropped after it.
        func timeline(_ step: Int) -> (indices: [Int], delays: [Delay]) {
            var idx: [Int] = [], d: [Delay] = []
            var i = 0
            while i < frames.count {
                let end = min(i + step, frames.count)
                idx.append(i)
                d.append(delays[i..<end].reduce(Delay.zero, +))
                i = end
            }
            return (idx, d)
        }

        func fps(_ step: Int) -> Double {
            Double(timeline(step).indices.count) / max(duration.seconds, 1e-9)
        }

        /// A few short runs of consecutive kept frames spread over the timeline (all of them for
        /// short animations): what predictions are made from.
        func sample(_ step: Int) -> (indices: [Int], delays: [Delay]) {
            let t = timeline(step)
            let windows = 3, length = 4
            if t.indices.count <= windows * length + 4 { return t }
            var idx: [Int] = [], d: [Delay] = []
            for w in 0..<windows {
                let start = (t.indices.count - length) * w / (windows - 1)
                for j in start..<(start + length) { idx.append(t.indices[j]); d.append(t.delays[j]) }
            }
            return (idx, d)
        }

        /// Predicted size of the whole file at `n` colours and decimation `step`.
        func predict(_ n: Int, _ step: Int) -> Double {
            let key = "\(n)/\(step)"
            if let p = predictions[key] { return p }
            let s = sample(step)
            let sampled = s.indices.map { indexed(n, $0).image }
            let est = clock.measure(\.encode) {
                (try? PNGEncoder.estimatedAnimationSize(frames: sampled, delays: s.delays, loopCount: loops)) ?? Int.max
            }
            let perFrame = Double(est) / Double(max(1, s.indices.count))
            let p = perFrame * Double(timeline(step).indices.count) * calibration
            predictions[key] = p
            return p
        }

        struct Encoded {
            var colors: Int
            var step: Int
            var indices: [Int]
            var bytes: [UInt8]
            var palette: Int
            var mse: Double
            var exact: Bool
            /// The encoder refuses only malformed input, which this search never builds; an empty
            /// result counts as not fitting.
            func fits(_ maxBytes: Int) -> Bool { !bytes.isEmpty && bytes.count <= maxBytes }
        }

        func encodeFully(_ n: Int, _ step: Int) -> Encoded {
            let t = timeline(step)
            let mapped = t.indices.map { indexed(n, $0) }
            let bytes = clock.measure(\.encode) {
                (try? PNGEncoder.encodeAnimation(frames: mapped.map(\.image), delays: t.delays, loopCount: loops,
                                                 effort: options.effort)) ?? []
            }
            let mse = mapped.reduce(0) { $0 + $1.mse } / Double(max(1, mapped.count))
            let m = mapper(n)
            return Encoded(colors: n, step: step, indices: t.indices, bytes: bytes,
                           palette: m.palette.colors.count, mse: mse, exact: m.palette.exact && mse == 0)
        }

        /// The most colours in `lo…hi` whose predicted size is within the margin (bisection on
        /// predictions), or nil when even `lo` is predicted over.
        func predictedColours(step: Int, lo: Int, hi: Int) -> Int? {
            let target = Double(maxBytes) * AnimationBudget.margin
            if predict(lo, step) > target { return nil }
            if predict(hi, step) <= target { return hi }
            var a = lo, b = hi
            while b - a > max(1, a / 16) {
                let mid = (a + b) / 2
                if predict(mid, step) <= target { a = mid } else { b = mid }
            }
            return a
        }

        /// Real encodes from `n` down until one fits (each step down by the overshoot), or nil.
        func fitting(from n: Int, step: Int, floor: Int) -> Encoded? {
            var n = n
            for _ in 0..<6 {
                let e = encodeFully(n, step)
                if e.fits(maxBytes) { return e }
                if n <= floor { return nil }
                let over = Double(e.bytes.count) / Double(maxBytes)
                n = max(floor, min(n - 1, Int(Double(n) / (over * over * 1.05))))
            }
            return nil
        }

        // MARK: the search

        func run() -> Result<StickerOutput, StickerError> {
            clock.measure(\.quantize) { for f in frames { histogram.add(f) } }

            // 1. Every frame at 256 colours (exact when the animation has no more): estimated first,
            //    encoded for real only when it may fit.
            let all = timeline(1)
            let fullEstimate = clock.measure(\.encode) {
                Double((try? PNGEncoder.estimatedAnimationSize(frames: all.indices.map { indexed(256, $0).image },
                                                                delays: all.delays, loopCount: loops)) ?? Int.max)
            }
            // The estimator runs 0–8 % above the real size; measured below when a real encode is made.
            var realPerEstimate = 0.96
            if fullEstimate * realPerEstimate <= Double(maxBytes) * 1.05 {
                let top = encodeFully(256, 1)
                if top.fits(maxBytes) {
                    // Lossless truecolour when a palette loses colours and there is room for it.
                    if !top.exact, top.bytes.count * 3 < maxBytes {
                        let tc = clock.measure(\.encode) {
                            (try? PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: loops, effort: options.effort)) ?? []
                        }
                        if !tc.isEmpty, tc.count <= maxBytes {
                            return .success(output(tc, mode: "truecolor", colors: nil, kept: frames.count, quality: 100,
                                                   metrics: nil, warnings: []))
                        }
                    }
                    return finish(top)
                }
                if !top.bytes.isEmpty { realPerEstimate = Double(top.bytes.count) / fullEstimate }
            }

            // Calibrate predictions from samples against the whole animation, and to real sizes.
            let sampledTop = predict(256, 1)
            calibration = sampledTop > 0 ? fullEstimate / sampledTop * realPerEstimate : realPerEstimate
            predictions = [:]

            // 2. Fewer colours, then fewer frames (keeping ≥ minFPS), then fewer colours again.
            var steps = [1]
            var k = 2
            while k <= frames.count, fps(k) >= options.minFPS, timeline(k).indices.count > 1 {
                if timeline(k).indices.count < timeline(steps.last!).indices.count { steps.append(k) }
                k += 1
            }
            for step in steps {
                if let n = predictedColours(step: step, lo: AnimationBudget.colourFloor, hi: 256),
                   let e = fitting(from: n, step: step, floor: AnimationBudget.colourFloor) {
                    return finish(e)
                }
            }
            let last = steps.last!
            if let n = predictedColours(step: last, lo: 2, hi: AnimationBudget.colourFloor) ?? Optional(2),
               let e = fitting(from: n, step: last, floor: 2) {
                return finish(e)
            }
            let smallest = encodeFully(2, last)
            return .failure(StickerError(String(format: "does not fit: 2 colours and %d of %d frames (%.1f fps) still take %d bytes, over the %d-byte budget",
                                                smallest.indices.count, frames.count, fps(last), smallest.bytes.count, maxBytes),
                                         kind: .overBudget))
        }

        func finish(_ e: Encoded) -> Result<StickerOutput, StickerError> {
            var warnings: [String] = []
            if e.step > 1 {
                warnings.append(String(format: "kept %d of %d frames (%.1f fps) to fit the budget", e.indices.count,
                                       frames.count, fps(e.step)))
            }
            let quality = e.exact ? 100 : PaletteMapper.quality(meanSquaredError: e.mse)
            if quality < options.quality.lowerBound {
                return .failure(StickerError("quality \(quality) at \(e.palette) colours is below the minimum \(options.quality.lowerBound) within the \(maxBytes)-byte budget",
                                             kind: .belowMinimumQuality))
            }
            // Quality against the unquantized resize, on frames spread over the animation.
            let metrics: QualityMetrics = clock.measure(\.other) {
                let picks = Array(Set([0, e.indices.count / 2, e.indices.count - 1])).sorted()
                var ssim = 0.0, psnr = 0.0
                for p in picks {
                    let i = e.indices[p]
                    let m = QualityMetrics.compare(frames[i], indexed(e.colors, i).image.expanded())
                    ssim += m.ssim; psnr += m.psnr
                }
                return QualityMetrics(ssim: ssim / Double(picks.count), psnr: psnr / Double(picks.count))
            }
            return .success(output(e.bytes, mode: e.exact ? "palette-exact" : "palette", colors: e.palette,
                                   kept: e.indices.count, quality: quality, metrics: metrics, warnings: warnings))
        }

        func output(_ bytes: [UInt8], mode: String, colors: Int?, kept: Int, quality: Int,
                    metrics: QualityMetrics?, warnings: [String]) -> StickerOutput {
            let seconds = duration.seconds
            return StickerOutput(size: .regular, bytes: bytes, report: OutputReport(
                size: frames[0].width, bytes: bytes.count, mode: mode, colors: colors,
                dithering: mode == "palette" ? AnimationBudget.dithering : nil, effort: options.effort.rawValue,
                frames: kept, framesInput: frames.count,
                fps: seconds > 0 ? Double(kept) / seconds : nil, durationMs: duration.milliseconds,
                quality: quality, ssim: metrics?.ssim ?? 1, psnr: metrics?.psnr ?? 99, warnings: warnings))
        }
    }
}
