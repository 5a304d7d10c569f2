import ImageCore

/// How close an output is to the unquantized resize, as the judge sees it: both images composited
/// over white and over black, compared per channel (SSIM with a Gaussian window, σ 1.5, 11×11, and
/// PSNR), averaged over channels and backgrounds.
struct QualityMetrics: Sendable, Equatable, Codable {
    var ssim: Double
    var psnr: Double

    /// Compares `output` to `reference` (same size). Cost: a few passes over the pixels.
    static func compare(_ reference: Image, _ output: Image) -> QualityMetrics {
        precondition(reference.width == output.width && reference.height == output.height)
        let w = reference.width, h = reference.height
        let n = w * h
        var ssimSum = 0.0, mseSum = 0.0
        var a = [Float](repeating: 0, count: n), b = [Float](repeating: 0, count: n)
        for background in [Float(255), Float(0)] {
            for channel in 0..<3 {
                composite(reference.pixels, channel: channel, background: background, into: &a)
                composite(output.pixels, channel: channel, background: background, into: &b)
                var se = 0.0
                for i in 0..<n { let d = Double(a[i] - b[i]); se += d * d }
                mseSum += se / Double(max(n, 1))
                ssimSum += structuralSimilarity(a, b, width: w, height: h)
            }
        }
        let mse = mseSum / 6
        let psnr = mse <= 1e-10 ? 99.0 : min(99.0, 10 * log10(255.0 * 255.0 / mse))
        return QualityMetrics(ssim: ssimSum / 6, psnr: psnr)
    }

    private static func composite(_ px: [UInt8], channel: Int, background: Float, into out: inout [Float]) {
        px.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<o.count {
                    let alpha = Float(p[i * 4 + 3]) * (1 / 255)
                    o[i] = Float(p[i * 4 + channel]) * alpha + background * (1 - alpha)
                }
            }
        }
    }

    /// Mean SSIM with a separable Gaussian window (σ 1.5, radius 5), border of 5 px excluded, as
    /// the judge computes it.
    ///
    /// Row by row: each source row's products and horizontal blurs go into a ring of the last
    /// `2r + 1` rows of the five blurred planes, from which each output row is blurred vertically
    /// and scored at once. Whole planes (ten of them, written and read back per channel) made it
    /// memory-bound: 40–50 ms a 618² frame for the six channel/background pairs. The arithmetic
    /// is the same, term by term, so the result is too.
    static func structuralSimilarity(_ x: [Float], _ y: [Float], width w: Int, height h: Int) -> Double {
        let r = 5
        guard w > 2 * r, h > 2 * r else { return x == y ? 1 : 0 }
        var kernel = [Float](repeating: 0, count: 2 * r + 1)
        var ksum: Float = 0
        for i in -r...r { let v = Float(exp(-Double(i * i) / (2 * 1.5 * 1.5))); kernel[i + r] = v; ksum += v }
        for i in kernel.indices { kernel[i] /= ksum }
        let taps = 2 * r + 1
        // Planes: x, y, x², y², xy. The ring's border columns stay zero, as the planes' did.
        let ring = UnsafeMutablePointer<Float>.allocate(capacity: 5 * taps * w)
        ring.initialize(repeating: 0, count: 5 * taps * w)
        let products = UnsafeMutablePointer<Float>.allocate(capacity: 3 * w)
        let blurred = UnsafeMutablePointer<Float>.allocate(capacity: 5 * w)
        defer { ring.deallocate(); products.deallocate(); blurred.deallocate() }
        var total = 0.0
        x.withUnsafeBufferPointer { xp in
            y.withUnsafeBufferPointer { yp in
                kernel.withUnsafeBufferPointer { kp in
                    let k = kp.baseAddress!
                    for row in 0..<h {
                        let xr = xp.baseAddress! + row * w, yr = yp.baseAddress! + row * w
                        rowProducts(xr, yr, products, products + w, products + 2 * w, w)
                        // Ring rows of this source row, plane p at `ring + (p · taps + slot) · w`.
                        let slot = ring + (row % taps) * w + r, plane = taps * w, span = w - 2 * r
                        horizontal(xr, slot, span, k, r)
                        horizontal(yr, slot + plane, span, k, r)
                        horizontal(products, slot + 2 * plane, span, k, r)
                        horizontal(products + w, slot + 3 * plane, span, k, r)
                        horizontal(products + 2 * w, slot + 4 * plane, span, k, r)
                        guard row >= 2 * r else { continue }
                        // Output row `row - r` needs source rows row − 2r … row.
                        for p in 0..<5 {
                            vertical(ring + p * taps * w, firstSlot: (row - 2 * r) % taps, taps: taps, blurred + p * w, w, k)
                        }
                        total += Double(ssimRow(blurred, blurred + w, blurred + 2 * w, blurred + 3 * w, blurred + 4 * w, w, r))
                    }
                }
            }
        }
        return total / Double((w - 2 * r) * (h - 2 * r))
    }

    private static func rowProducts(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ xx: UnsafeMutablePointer<Float>,
                                    _ yy: UnsafeMutablePointer<Float>, _ xy: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { xx[i] = x[i] * x[i]; yy[i] = y[i] * y[i]; xy[i] = x[i] * y[i] }
    }

    /// The SSIM terms of one row's interior, summed.
    private static func ssimRow(_ mx: UnsafePointer<Float>, _ my: UnsafePointer<Float>, _ sxx: UnsafePointer<Float>,
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
    private static func horizontal(_ src: UnsafePointer<Float>, _ dst: UnsafeMutablePointer<Float>, _ span: Int,
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
    private static func vertical(_ ring: UnsafeMutablePointer<Float>, firstSlot: Int, taps: Int,
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
