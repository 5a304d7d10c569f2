import ImageCore
import XCTest
@testable import WebMEncoding

final class YUVConversionTests: XCTestCase {
    /// The colour picture as the type's contract states it, computed in floating point: BT.601
    /// studio-range luma per pixel; chroma per 2×2 block as the alpha-weighted mean of its
    /// pixels (the plain mean where all of them are transparent), rounded half away from zero.
    /// (Transparent pixels first take their neighbours' colour; the images here keep them where
    /// `colorUnderTransparencyFilled` leaves them, so the reference fills them the same way.)
    private func reference(_ image: Image) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let p = image.isOpaque ? image.pixels : YUVConversion.colorUnderTransparencyFilled(image)
        let (w, h) = (image.width, image.height)
        func rounded(_ x: Double) -> Int { x >= 0 ? Int(x + 0.5) : -Int(-x + 0.5) }
        var y = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) {
            let (r, g, b) = (Double(p[i * 4]), Double(p[i * 4 + 1]), Double(p[i * 4 + 2]))
            y[i] = UInt8(rounded((16829 * r + 33039 * g + 6416 * b) / 65536 + 16))
        }
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        var u = [UInt8](repeating: 0, count: cw * ch), v = u
        for cy in 0..<ch {
            for cx in 0..<cw {
                var weighted = (w: 0.0, r: 0.0, g: 0.0, b: 0.0), plain = (n: 0.0, r: 0.0, g: 0.0, b: 0.0)
                for yy in (cy * 2)..<min(h, cy * 2 + 2) {
                    for xx in (cx * 2)..<min(w, cx * 2 + 2) {
                        let i = (yy * w + xx) * 4
                        let a = Double(image.pixels[i + 3])
                        let (r, g, b) = (Double(p[i]), Double(p[i + 1]), Double(p[i + 2]))
                        weighted = (weighted.w + a, weighted.r + a * r, weighted.g + a * g, weighted.b + a * b)
                        plain = (plain.n + 1, plain.r + r, plain.g + g, plain.b + b)
                    }
                }
                // The mean's chroma as one exact quotient of integers (sums of at most four
                // pixels: exact in a Double, so the one division rounds only once).
                let s = weighted.w > 0 ? weighted : (w: plain.n, r: plain.r, g: plain.g, b: plain.b)
                let cu = (-9714 * s.r - 19070 * s.g + 28784 * s.b) / (s.w * 65536)
                let cv = (28784 * s.r - 24103 * s.g - 4681 * s.b) / (s.w * 65536)
                u[cy * cw + cx] = UInt8(max(0, min(255, 128 + rounded(cu))))
                v[cy * cw + cx] = UInt8(max(0, min(255, 128 + rounded(cv))))
            }
        }
        return (y, u, v)
    }

    private func converted(_ image: Image) -> (y: [UInt8], u: [UInt8], v: [UInt8]) {
        let (w, h) = (image.width, image.height)
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        var y = [UInt8](repeating: 0, count: w * h), u = [UInt8](repeating: 0, count: cw * ch), v = u
        y.withUnsafeMutableBufferPointer { yp in
            u.withUnsafeMutableBufferPointer { up in
                v.withUnsafeMutableBufferPointer { vp in
                    let picture = PlanarPicture(y: yp.baseAddress!, u: up.baseAddress!, v: vp.baseAddress!,
                                                yStride: w, uStride: cw, vStride: cw, width: w, height: h)
                    image.pixels.withUnsafeBytes {
                        YUVConversion.writeColor(rgba: $0, width: w, height: h, opaque: image.isOpaque, into: picture)
                    }
                }
            }
        }
        return (y, u, v)
    }

    /// Opaque, fully transparent and partly transparent blocks, whole and cut by odd sides, with
    /// colours at the ends of the range: the chroma of every kind of block is the weighted mean's.
    func testColorPictureIsTheAlphaWeightedMeanOfEachBlock() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: seed >> 56)
        }
        for (w, h) in [(16, 16), (17, 9), (1, 5), (6, 1), (33, 31)] {
            for kind in 0..<4 {
                var pixels = [UInt8](repeating: 0, count: w * h * 4)
                for i in 0..<(w * h) {
                    for c in 0..<3 { pixels[i * 4 + c] = [0, 255, next()][Int(next()) % 3] }
                    switch kind {
                    case 0: pixels[i * 4 + 3] = 255                                        // opaque
                    case 1: pixels[i * 4 + 3] = [0, 255][Int(next()) % 2]                  // cut-out
                    case 2: pixels[i * 4 + 3] = [0, 255, next(), 1, 254][Int(next()) % 5]  // soft edges
                    default: pixels[i * 4 + 3] = i % 7 == 0 ? 128 : 0                       // mostly clear
                    }
                }
                let image = Image(width: w, height: h, pixels: pixels)
                let got = converted(image), want = reference(image)
                XCTAssertEqual(got.y, want.y, "luma \(w)×\(h), kind \(kind)")
                XCTAssertEqual(got.u, want.u, "Cb \(w)×\(h), kind \(kind)")
                XCTAssertEqual(got.v, want.v, "Cr \(w)×\(h), kind \(kind)")
            }
        }
    }
}
