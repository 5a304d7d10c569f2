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

    /// Mean SSIM with a separable Gaussian window (σ 1.5, radius 5), border of 5 px excluded.
    static func structuralSimilarity(_ x: [Float], _ y: [Float], width w: Int, height h: Int) -> Double {
        let r = 5
        guard w > 2 * r, h > 2 * r else { return x == y ? 1 : 0 }
        var kernel = [Float](repeating: 0, count: 2 * r + 1)
        var ksum: Float = 0
        for i in -r...r { let v = Float(exp(-Double(i * i) / (2 * 1.5 * 1.5))); kernel[i + r] = v; ksum += v }
        for i in kernel.indices { kernel[i] /= ksum }
        let n = w * h
        var xx = [Float](repeating: 0, count: n), yy = xx, xy = xx
        for i in 0..<n { xx[i] = x[i] * x[i]; yy[i] = y[i] * y[i]; xy[i] = x[i] * y[i] }
        let mx = blur(x, w, h, kernel), my = blur(y, w, h, kernel)
        let sxx = blur(xx, w, h, kernel), syy = blur(yy, w, h, kernel), sxy = blur(xy, w, h, kernel)
        let c1: Float = (0.01 * 255) * (0.01 * 255), c2: Float = (0.03 * 255) * (0.03 * 255)
        var total = 0.0
        var count = 0
        for yI in r..<(h - r) {
            for xI in r..<(w - r) {
                let i = yI * w + xI
                let ux = mx[i], uy = my[i]
                let vx = sxx[i] - ux * ux, vy = syy[i] - uy * uy, cxy = sxy[i] - ux * uy
                let s = ((2 * ux * uy + c1) * (2 * cxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2))
                total += Double(s)
                count += 1
            }
        }
        return total / Double(count)
    }

    /// Separable Gaussian blur; edges clamp (only the interior is used for SSIM).
    private static func blur(_ src: [Float], _ w: Int, _ h: Int, _ k: [Float]) -> [Float] {
        let r = k.count / 2
        var tmp = [Float](repeating: 0, count: w * h), out = tmp
        src.withUnsafeBufferPointer { s in
            tmp.withUnsafeMutableBufferPointer { t in
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        var acc: Float = 0
                        for j in -r...r { acc += k[j + r] * s[row + min(max(x + j, 0), w - 1)] }
                        t[row + x] = acc
                    }
                }
            }
        }
        tmp.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<h {
                    for x in 0..<w {
                        var acc: Float = 0
                        for j in -r...r { acc += k[j + r] * t[min(max(y + j, 0), h - 1) * w + x] }
                        o[y * w + x] = acc
                    }
                }
            }
        }
        return out
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
