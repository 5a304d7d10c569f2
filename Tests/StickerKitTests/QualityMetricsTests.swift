import Foundation
import ImageCore
import TestSupport
import XCTest
@testable import StickerKit

/// The report's SSIM against a direct, slow computation of the judge's definition: a 2-D 11×11
/// Gaussian window (σ 1.5) at every interior pixel, in Double.
final class QualityMetricsTests: XCTestCase {
    static func directSSIM(_ x: [Float], _ y: [Float], _ w: Int, _ h: Int) -> Double {
        let r = 5
        var k = [Double](repeating: 0, count: 2 * r + 1)
        for i in -r...r { k[i + r] = exp(-Double(i * i) / (2 * 1.5 * 1.5)) }
        let s = k.reduce(0, +)
        k = k.map { $0 / s }
        let c1 = (0.01 * 255.0) * (0.01 * 255.0), c2 = (0.03 * 255.0) * (0.03 * 255.0)
        var total = 0.0
        for cy in r..<(h - r) {
            for cx in r..<(w - r) {
                var mx = 0.0, my = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0
                for dy in -r...r {
                    for dx in -r...r {
                        let g = k[dy + r] * k[dx + r]
                        let a = Double(x[(cy + dy) * w + cx + dx]), b = Double(y[(cy + dy) * w + cx + dx])
                        mx += g * a; my += g * b; sxx += g * a * a; syy += g * b * b; sxy += g * a * b
                    }
                }
                let vx = sxx - mx * mx, vy = syy - my * my, cxy = sxy - mx * my
                total += (2 * mx * my + c1) * (2 * cxy + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2))
            }
        }
        return total / Double((w - 2 * r) * (h - 2 * r))
    }

    func testSSIMMatchesTheDirectDefinition() {
        var rng = SplitMix64(seed: 11)
        for (w, h) in [(11, 11), (12, 30), (37, 23), (64, 64)] {
            let x = (0..<(w * h)).map { i in Float((i % w) * 4 % 256) + Float(rng.next() % 8) }
            for noise: UInt64 in [1, 16, 120] {
                let y = x.map { max(0, min(255, $0 + Float(Int(rng.next() % (2 * noise + 1)) - Int(noise)))) }
                let fast = QualityMetrics.structuralSimilarity(x, y, width: w, height: h)
                XCTAssertEqual(fast, Self.directSSIM(x, y, w, h), accuracy: 2e-4, "\(w)×\(h), noise \(noise)")
            }
            XCTAssertEqual(QualityMetrics.structuralSimilarity(x, x, width: w, height: h), 1, accuracy: 1e-5)
        }
        XCTAssertEqual(QualityMetrics.structuralSimilarity([1, 2], [1, 2], width: 2, height: 1), 1, "too small: equal or not")
        XCTAssertEqual(QualityMetrics.structuralSimilarity([1, 2], [1, 3], width: 2, height: 1), 0)
    }

    func testCompareAveragesChannelsOverWhiteAndBlack() {
        var a = Image(width: 20, height: 20), b = a
        for y in 0..<20 { for x in 0..<20 { a[x, y] = RGBA(UInt8(x * 12), UInt8(y * 12), 90, 255); b[x, y] = a[x, y] } }
        XCTAssertEqual(QualityMetrics.compare(a, b), QualityMetrics(ssim: 1, psnr: 99))
        // One channel off by 10 everywhere, opaque: MSE 100 in one of three channels.
        for y in 0..<20 { for x in 0..<20 { b[x, y] = RGBA(UInt8(x * 12 + 10), UInt8(y * 12), 90, 255) } }
        XCTAssertEqual(QualityMetrics.compare(a, b).psnr, 10 * log10(255.0 * 255 / (100.0 / 3)), accuracy: 1e-6)
        // Fully transparent pixels composite to the background whatever their colour.
        var c = Image(width: 20, height: 20), d = c
        for y in 0..<20 { for x in 0..<20 { c[x, y] = RGBA(200, 0, 0, 0); d[x, y] = RGBA(0, 0, 0, 0) } }
        XCTAssertEqual(QualityMetrics.compare(c, d), QualityMetrics(ssim: 1, psnr: 99))
    }

    /// `compare` (rows equal across backgrounds and channels blurred and scored once) gives exactly
    /// what compositing and scoring each background and channel separately gives, for images
    /// opaque, transparent or grey in some rows and windows and not in others, and for images too
    /// small for a window.
    func testSharedRowsChangeNothing() {
        var rng = SplitMix64(seed: 5)
        for (w, h) in [(11, 11), (16, 40), (33, 75), (4, 30), (30, 7)] {
            var reference = Image(width: w, height: h), output = reference
            for y in 0..<h {
                // Bands of opaque rows (long enough for whole windows), translucent rows, rows
                // opaque in the reference only, transparent rows and opaque grey rows.
                let band = (y / 13) % 5
                for x in 0..<w {
                    let c = RGBA(UInt8(rng.next() % 256), UInt8((x * 7 + y) % 256), UInt8(rng.next() % 256), 255)
                    let alpha: UInt8 = band == 0 || band == 4 ? 255 : band == 3 ? 0 : UInt8(rng.next() % 256)
                    reference[x, y] = band == 4 ? RGBA(c.g, c.g, c.g) : RGBA(c.r, c.g, c.b, band == 2 ? 255 : alpha)
                    output[x, y] = band == 4 ? RGBA(c.g, c.g, c.g) : RGBA(c.r &+ UInt8(rng.next() % 9), c.g, c.b, alpha)
                }
            }
            var sse = 0.0, ssim = 0.0
            var a = [Float](repeating: 0, count: w * h), b = a
            for background in [Float(255), Float(0)] {
                for channel in 0..<3 {
                    for i in 0..<(w * h) {
                        let pa = reference.pixels, pb = output.pixels
                        let alphaA = Float(pa[i * 4 + 3]) * (1 / 255), alphaB = Float(pb[i * 4 + 3]) * (1 / 255)
                        a[i] = Float(pa[i * 4 + channel]) * alphaA + background * (1 - alphaA)
                        b[i] = Float(pb[i * 4 + channel]) * alphaB + background * (1 - alphaB)
                    }
                    var se = 0.0
                    for i in a.indices { let d = Double(a[i] - b[i]); se += d * d }
                    sse += se / Double(w * h)
                    ssim += QualityMetrics.structuralSimilarity(a, b, width: w, height: h)
                }
            }
            let m = QualityMetrics.compare(reference, output)
            XCTAssertEqual(m.ssim, ssim / 6, "\(w)×\(h)")
            XCTAssertEqual(m.psnr, min(99, 10 * log10(255.0 * 255.0 / (sse / 6))), "\(w)×\(h)")
        }
    }
}
