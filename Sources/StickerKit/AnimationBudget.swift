import ImageCore
import ImageQuantize
import PNGEncoding

/// The budget search for animations: an APNG with one shared palette (or truecolour) whose whole
/// file fits `maxBytes`.
///
/// Levers, in order, each used only as far as needed: the colour count (down to
/// `colourFloor`), then frame decimation that keeps the total duration and the timeline (drop
/// frames, lengthen the kept ones) down to `options.minFPS`, then the colour count below the
/// floor. Resolution never changes; timing is never sped up.
enum AnimationBudget {
    /// Colours kept before any frame is dropped: fewer than this bands visibly.
    static let colourFloor = 64
    /// Error diffusion strength for animations: full-strength diffusion flickers from frame to
    /// frame and costs bytes in every frame difference.
    static let dithering: Float = 0.5

    struct Candidate {
        var colors: Int
        var step: Int
        var result: QuantizeResult
        var frames: [Image]
        var delays: [Delay]
        var bytes: [UInt8]
    }

    static func encode(_ animation: Animation, options: ConversionOptions, clock: StageClock) -> Result<StickerOutput, StickerError> {
        let maxBytes = options.maxBytes
        let effort = options.effort
        let inputFrames = animation.frames.count
        let duration = animation.duration
        let loops = animation.loopCount

        func encodeIndexed(_ frames: [IndexedImage], _ delays: [Delay], _ e: Effort) -> [UInt8] {
            clock.measure(\.encode) {
                (try? PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: loops, effort: e)) ?? []
            }
        }

        func report(_ bytes: [UInt8], mode: String, colors: Int?, framesKept: Int, quality: Int,
                    metrics: QualityMetrics?, warnings: [String]) -> StickerOutput {
            let seconds = duration.seconds
            return StickerOutput(size: .regular, bytes: bytes, report: OutputReport(
                size: animation.width, bytes: bytes.count, mode: mode, colors: colors,
                dithering: mode == "palette" ? dithering : nil, effort: effort.rawValue,
                frames: framesKept, framesInput: inputFrames,
                fps: seconds > 0 ? Double(framesKept) / seconds : nil, durationMs: duration.milliseconds,
                quality: quality, ssim: metrics?.ssim ?? 1, psnr: metrics?.psnr ?? 99, warnings: warnings))
        }

        // Candidate timelines: every frame, then every 2nd, 3rd, … frame with the dropped
        // frames' time given to the kept ones, while the frame rate stays at or above minFPS.
        let source = animation.frames
        func decimated(_ step: Int) -> (frames: [Image], delays: [Delay]) {
            if step == 1 { return (source.map(\.image), source.map(\.delay)) }
            var f: [Image] = [], d: [Delay] = []
            var i = 0
            while i < source.count {
                let end = min(i + step, source.count)
                f.append(source[i].image)
                d.append(source[i..<end].reduce(Delay.zero) { $0 + $1.delay })
                i = end
            }
            return (f, d)
        }
        let sourceFPS = duration.seconds > 0 ? Double(inputFrames) / duration.seconds : .infinity
        var steps = [1]
        var s = 2
        while s <= inputFrames, Double((inputFrames + s - 1) / s) / max(duration.seconds, 1e-9) >= options.minFPS {
            steps.append(s)
            s += 1
        }

        var quantized: [String: Candidate] = [:]
        func candidate(colors n: Int, step: Int, estimate: Bool) -> (Candidate, Int) {
            let key = "\(n)/\(step)"
            let c: Candidate
            if let cached = quantized[key] {
                c = cached
            } else {
                let (frames, delays) = decimated(step)
                let q = clock.measure(\.quantize) {
                    Quantizer.quantize(frames, options: QuantizeOptions(maxColors: n, dithering: dithering))
                }
                c = Candidate(colors: n, step: step, result: q, frames: frames, delays: delays, bytes: [])
                quantized[key] = c
            }
            if estimate {
                let size = clock.measure(\.encode) {
                    (try? PNGEncoder.estimatedAnimationSize(frames: c.result.frames, delays: c.delays, loopCount: loops)) ?? Int.max
                }
                return (c, size)
            }
            var full = c
            full.bytes = encodeIndexed(c.result.frames, c.delays, effort)
            quantized[key] = full
            return (full, full.bytes.count)
        }

        func finish(_ c: Candidate, mode: String) -> Result<StickerOutput, StickerError> {
            var warnings: [String] = []
            if c.step > 1 {
                warnings.append(String(format: "kept %d of %d frames (%.1f fps) to fit the budget", c.frames.count,
                                       inputFrames, Double(c.frames.count) / max(duration.seconds, 1e-9)))
            }
            let q = c.result.quality
            if q < options.quality.lowerBound {
                return .failure(StickerError("quality \(q) at \(c.colors) colours is below the minimum \(options.quality.lowerBound) within the \(maxBytes)-byte budget", kind: .belowMinimumQuality))
            }
            // Quality against the unquantized resize, on a few frames spread over the animation.
            let metrics: QualityMetrics = clock.measure(\.other) {
                let picks = Array(Set([0, c.frames.count / 3, 2 * c.frames.count / 3, c.frames.count - 1])).sorted()
                var ssim = 0.0, psnr = 0.0
                for i in picks {
                    let m = QualityMetrics.compare(c.frames[i], c.result.frames[i].expanded())
                    ssim += m.ssim; psnr += m.psnr
                }
                return QualityMetrics(ssim: ssim / Double(picks.count), psnr: psnr / Double(picks.count))
            }
            return .success(report(c.bytes, mode: mode, colors: c.result.palette.count, framesKept: c.frames.count,
                                   quality: q, metrics: metrics, warnings: warnings))
        }

        // 1. Every frame, 256 colours (exact when the animation has no more).
        let (top, topSize) = candidate(colors: 256, step: 1, estimate: false)
        if topSize <= maxBytes {
            // Lossless truecolour when there are more colours than a palette holds and it fits.
            if !top.result.exact, topSize * 3 < maxBytes {
                let tc = clock.measure(\.encode) {
                    (try? PNGEncoder.encodeAnimation(frames: top.frames, delays: top.delays, loopCount: loops, effort: effort)) ?? []
                }
                if !tc.isEmpty, tc.count <= maxBytes {
                    return .success(report(tc, mode: "truecolor", colors: nil, framesKept: top.frames.count, quality: 100,
                                           metrics: nil, warnings: []))
                }
            }
            return finish(top, mode: top.result.exact ? "palette-exact" : "palette")
        }

        // 2. Fewer colours, then fewer frames, then fewer colours again. Within one timeline the
        //    size grows with the colour count: bisect on estimates, confirm with the real encode.
        func bestColours(step: Int, floor: Int) -> Candidate? {
            var lo = floor, hi = 256
            let (f, fSize) = candidate(colors: floor, step: step, estimate: true)
            if fSize > maxBytes {
                let (full, size) = candidate(colors: floor, step: step, estimate: false)
                return size <= maxBytes ? full : nil
            }
            _ = f
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if candidate(colors: mid, step: step, estimate: true).1 <= maxBytes { lo = mid } else { hi = mid }
            }
            // The estimate runs a little above the real size: confirm, stepping down if needed.
            var n = lo
            while n >= floor {
                let (full, size) = candidate(colors: n, step: step, estimate: false)
                if size <= maxBytes { return full }
                n = n > floor ? max(floor, n - max(1, n / 8)) : floor - 1
            }
            return nil
        }

        for step in steps {
            if let c = bestColours(step: step, floor: colourFloor) { return finish(c, mode: "palette") }
        }
        if let c = bestColours(step: steps.last!, floor: 2) { return finish(c, mode: "palette") }
        let (smallest, size) = candidate(colors: 2, step: steps.last!, estimate: false)
        let fps = Double(smallest.frames.count) / max(duration.seconds, 1e-9)
        _ = sourceFPS
        return .failure(StickerError(String(format: "does not fit: 2 colours and %d of %d frames (%.1f fps) still take %d bytes, over the %d-byte budget", smallest.frames.count, inputFrames, fps, size, maxBytes), kind: .overBudget))
    }
}
