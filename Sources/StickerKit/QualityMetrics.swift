import ImageCore

/// How close an output is to the unquantized resize, as the judge sees it: both images composited
/// over white and over black, compared per channel (SSIM with a Gaussian window, σ 1.5, 11×11, and
/// PSNR), averaged over channels and backgrounds.
public struct QualityMetrics: Sendable, Equatable, Codable {
    public var ssim: Double
    public var psnr: Double

    /// Compares `output` to `reference` (same size). Cost: a few passes over the pixels.
    public static func compare(_ reference: Image, _ output: Image) -> QualityMetrics {
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
    static func structuralSimilarity(_ x: [Float], _ y: [Float], width w: Int, height h: Int) -> Double {
        let r = 5
        guard w > 2 * r, h > 2 * r else { return x == y ? 1 : 0 }
        var kernel = [Float](repeating: 0, count: 2 * r + 1)
        var ksum: Float = 0
        for i in -r...r { let v = Float(exp(-Double(i * i) / (2 * 1.5 * 1.5))); kernel[i + r] = v; ksum += v }
        for i in kernel.indices { kernel[i] /= ksum }
        let n = w * h
        var xx = [Float](repeating: 0, count: n), yy = xx, xy = xx
        x.withUnsafeBufferPointer { xp in
            y.withUnsafeBufferPointer { yp in
                xx.withUnsafeMutableBufferPointer { a in
                    yy.withUnsafeMutableBufferPointer { b in
                        xy.withUnsafeMutableBufferPointer { c in
                            products(xp.baseAddress!, yp.baseAddress!, a.baseAddress!, b.baseAddress!, c.baseAddress!, n)
                        }
                    }
                }
            }
        }
        let mx = blur(x, w, h, kernel), my = blur(y, w, h, kernel)
        let sxx = blur(xx, w, h, kernel), syy = blur(yy, w, h, kernel), sxy = blur(xy, w, h, kernel)
        var total = 0.0
        mx.withUnsafeBufferPointer { a in my.withUnsafeBufferPointer { b in
            sxx.withUnsafeBufferPointer { c in syy.withUnsafeBufferPointer { d in sxy.withUnsafeBufferPointer { e in
                total = ssimSum(a.baseAddress!, b.baseAddress!, c.baseAddress!, d.baseAddress!, e.baseAddress!, w, h, r)
            } } }
        } }
        return total / Double((w - 2 * r) * (h - 2 * r))
    }

    private static func products(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>, _ xx: UnsafeMutablePointer<Float>,
                                 _ yy: UnsafeMutablePointer<Float>, _ xy: UnsafeMutablePointer<Float>, _ n: Int) {
        for i in 0..<n { xx[i] = x[i] * x[i]; yy[i] = y[i] * y[i]; xy[i] = x[i] * y[i] }
    }

    private static func ssimSum(_ mx: UnsafePointer<Float>, _ my: UnsafePointer<Float>, _ sxx: UnsafePointer<Float>,
                                _ syy: UnsafePointer<Float>, _ sxy: UnsafePointer<Float>, _ w: Int, _ h: Int, _ r: Int) -> Double {
        let c1: Float = (0.01 * 255) * (0.01 * 255), c2: Float = (0.03 * 255) * (0.03 * 255)
        var total = 0.0
        for yI in r..<(h - r) {
            var row: Float = 0
            let base = yI * w
            for xI in r..<(w - r) {
                let i = base + xI
                let ux = mx[i], uy = my[i]
                let vx = sxx[i] - ux * ux, vy = syy[i] - uy * uy, cxy = sxy[i] - ux * uy
                row += ((2 * ux * uy + c1) * (2 * cxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
            }
            total += Double(row)
        }
        return total
    }

    /// Separable Gaussian blur of the interior (the `r`-pixel border is left zero: SSIM does not
    /// read it). Written as one multiply-add sweep per tap so the loops vectorize.
    private static func blur(_ src: [Float], _ w: Int, _ h: Int, _ k: [Float]) -> [Float] {
        let r = k.count / 2
        var tmp = [Float](repeating: 0, count: w * h), out = tmp
        src.withUnsafeBufferPointer { s in
            tmp.withUnsafeMutableBufferPointer { t in
                k.withUnsafeBufferPointer { kp in
                    horizontal(s.baseAddress!, t.baseAddress!, w, h, kp.baseAddress!, r)
                }
            }
        }
        tmp.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                k.withUnsafeBufferPointer { kp in
                    vertical(t.baseAddress!, o.baseAddress!, w, h, kp.baseAddress!, r)
                }
            }
        }
        return out
    }

    private static func horizontal(_ s: UnsafePointer<Float>, _ t: UnsafeMutablePointer<Float>, _ w: Int, _ h: Int,
                                   _ k: UnsafePointer<Float>, _ r: Int) {
        let span = w - 2 * r
        for y in 0..<h {
            let src = s + y * w, dst = t + y * w + r
            for j in 0...(2 * r) {
                let kj = k[j]
                let sj = src + j
                for x in 0..<span { dst[x] += kj * sj[x] }
            }
        }
    }

    private static func vertical(_ t: UnsafePointer<Float>, _ o: UnsafeMutablePointer<Float>, _ w: Int, _ h: Int,
                                 _ k: UnsafePointer<Float>, _ r: Int) {
        for y in r..<(h - r) {
            let dst = o + y * w
            for j in 0...(2 * r) {
                let kj = k[j]
                let src = t + (y + j - r) * w
                for x in 0..<w { dst[x] += kj * src[x] }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
