import ImageCore

/// How close an output is to the unquantized resize, as the judge sees it: both images composited
/// over white and over black, compared per channel (SSIM with a Gaussian window, σ 1.5, 11×11, and
/// PSNR), averaged over channels and backgrounds.
struct QualityMetrics: Sendable, Equatable, Codable {
    var ssim: Double
    var psnr: Double

    /// Compares `output` to `reference` (same size). Cost: a few passes over the pixels.
    ///
    /// Row by row, the six (background, channel) pairs at once, each summed in the order of a
    /// separate pass. A pair whose composited source row equals an earlier pair's bit for bit
    /// (opaque pixels over white and black; transparent ones, or grey, across channels) takes
    /// that pair's blurred row, and where a whole window is such rows, its score: the same terms
    /// in the same order, so the same result.
    static func compare(_ reference: Image, _ output: Image) -> QualityMetrics {
        precondition(reference.width == output.width && reference.height == output.height)
        let w = reference.width, h = reference.height
        let n = w * h, r = Ring.radius
        // White R, G, B, then black R, G, B: the order the sums are taken in.
        let pairs: [(background: Float, channel: Int)] = [(255, 0), (255, 1), (255, 2), (0, 0), (0, 1), (0, 2)]
        let windows = w > 2 * r && h > 2 * r
        let rings = windows ? pairs.map { _ in Ring(width: w) } : []
        // Composited rows: x of pair i at `i · w`, y at `(6 + i) · w`.
        var rows = [Float](repeating: 0, count: 12 * w)
        var squaredErrors = [Double](repeating: 0, count: 6), totals = squaredErrors
        var equal = [Bool](repeating: true, count: 6)
        // The last source row at which pair i's rows differed from pair j's (j < i).
        var lastDifferent = [Int](repeating: -1, count: 36)
        var scores = [Float](repeating: 0, count: 6)
        reference.pixels.withUnsafeBufferPointer { a in
            output.pixels.withUnsafeBufferPointer { b in
                rows.withUnsafeMutableBufferPointer { rp in
                    let base = rp.baseAddress!
                    for row in 0..<h {
                        for (i, pair) in pairs.enumerated() {
                            let x = base + i * w, y = base + (6 + i) * w
                            composite(a.baseAddress! + row * w * 4, channel: pair.channel, background: pair.background, w, into: x)
                            composite(b.baseAddress! + row * w * 4, channel: pair.channel, background: pair.background, w, into: y)
                            var se = squaredErrors[i]
                            for k in 0..<w { let d = Double(x[k] - y[k]); se += d * d }
                            squaredErrors[i] = se
                            if !windows && equal[i] { equal[i] = memcmp(x, y, w * 4) == 0 }
                        }
                        guard windows else { continue }
                        for i in 0..<6 {
                            let x = base + i * w, y = base + (6 + i) * w
                            var source: Int?
                            for j in 0..<i {
                                if memcmp(x, base + j * w, w * 4) == 0 && memcmp(y, base + (6 + j) * w, w * 4) == 0 {
                                    if source == nil { source = j }
                                } else {
                                    lastDifferent[i * 6 + j] = row
                                }
                            }
                            if let j = source { rings[i].copy(row: row, from: rings[j]) } else { rings[i].add(row: row, x: x, y: y) }
                        }
                        guard row >= 2 * r else { continue }
                        for i in 0..<6 {
                            if let j = (0..<i).first(where: { lastDifferent[i * 6 + $0] < row - 2 * r }) {
                                scores[i] = scores[j]
                            } else {
                                scores[i] = rings[i].score(through: row)
                            }
                            totals[i] += Double(scores[i])
                        }
                    }
                }
            }
        }
        var ssimSum = 0.0, mseSum = 0.0
        for i in 0..<6 {
            mseSum += squaredErrors[i] / Double(max(n, 1))
            ssimSum += windows ? totals[i] / Double((w - 2 * r) * (h - 2 * r)) : (equal[i] ? 1 : 0)
        }
        let mse = mseSum / 6
        let psnr = mse <= 1e-10 ? 99.0 : min(99.0, 10 * log10(255.0 * 255.0 / mse))
        return QualityMetrics(ssim: ssimSum / 6, psnr: psnr)
    }

    /// One row of `count` pixels composited over `background`, one channel.
    private static func composite(_ p: UnsafePointer<UInt8>, channel: Int, background: Float, _ count: Int,
                                  into o: UnsafeMutablePointer<Float>) {
        for i in 0..<count {
            let alpha = Float(p[i * 4 + 3]) * (1 / 255)
            o[i] = Float(p[i * 4 + channel]) * alpha + background * (1 - alpha)
        }
    }

    /// Mean SSIM with a separable Gaussian window (σ 1.5, radius 5), border of 5 px excluded, as
    /// the judge computes it.
    ///
    /// Row by row: each source row's products and horizontal blurs go into a `Ring` of the last
    /// `2r + 1` rows of the five blurred planes, from which each output row is blurred vertically
    /// and scored at once. Whole planes (ten of them, written and read back per channel) made it
    /// memory-bound: 40–50 ms a 618² frame for the six channel/background pairs. The arithmetic
    /// is the same, term by term, so the result is too.
    static func structuralSimilarity(_ x: [Float], _ y: [Float], width w: Int, height h: Int) -> Double {
        let r = Ring.radius
        guard w > 2 * r, h > 2 * r else { return x == y ? 1 : 0 }
        let ring = Ring(width: w)
        var total = 0.0
        x.withUnsafeBufferPointer { xp in
            y.withUnsafeBufferPointer { yp in
                for row in 0..<h {
                    ring.add(row: row, x: xp.baseAddress! + row * w, y: yp.baseAddress! + row * w)
                    guard row >= 2 * r else { continue }
                    total += Double(ring.score(through: row))
                }
            }
        }
        return total / Double((w - 2 * r) * (h - 2 * r))
    }

    static func rowProducts(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ xx: UnsafeMutablePointer<Float>,
                                    _ yy: UnsafeMutablePointer<Float>, _ xy: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { xx[i] = x[i] * x[i]; yy[i] = y[i] * y[i]; xy[i] = x[i] * y[i] }
    }

    /// The SSIM terms of one row's interior, summed.
    static func ssimRow(_ mx: UnsafePointer<Float>, _ my: UnsafePointer<Float>, _ sxx: UnsafePointer<Float>,
                                _ syy: UnsafePointer<Float>, _ sxy: UnsafePointer<Float>, _ w: Int, _ r: Int) -> Float {
        let c1: Float = (0.01 * 255) * (0.01 * 255), c2: Float = (0.03 * 255) * (0.03 * 255)
        var row: Float = 0
        for i in r..<(w - r) {
            let ux = mx[i], uy = my[i]
            let vx = sxx[i] - ux * ux, vy = syy[i] - uy * uy, cxy = sxy[i] - ux * uy
            row += ((2 * ux * uy + c1) * (2 * cxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
        }
        return row
    }

    /// One row's horizontal blur: `span` outputs at `dst` from `src`, one multiply-add sweep per
    /// tap so the loops vectorize.
    static func horizontal(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ span: Int,
                                   _ k: UnsafePointer<Float>, _ r: Int) {
        let k0 = k[0]
        for x in 0..<span { dst[x] = k0 * src[x] }
        for j in 1...(2 * r) {
            let kj = k[j]
            let sj = src + j
            for x in 0..<span { dst[x] += kj * sj[x] }
        }
    }

    /// One output row of a plane's vertical blur from its ring of `taps` rows (the oldest at
    /// `firstSlot`), interior columns only.
    static func vertical(_ ring: UnsafeMutablePointer<Float>, firstSlot: Int, taps: Int,
                                 _ dst: UnsafeMutablePointer<Float>, _ w: Int, _ k: UnsafePointer<Float>) {
        let r = taps / 2
        let span = w - 2 * r
        let out = dst + r
        let k0 = k[0], first = ring + firstSlot * w + r
        for x in 0..<span { out[x] = k0 * first[x] }
        for j in 1..<taps {
            let kj = k[j]
            let src = ring + ((firstSlot + j) % taps) * w + r
            for x in 0..<span { out[x] += kj * src[x] }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
