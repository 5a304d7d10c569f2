import XCTest
import ImageCore
@testable import ImageQuantize

/// Large frames are remapped in horizontal bands on several threads: the output must be what a
/// one-thread remap of each band gives, whatever the scheduling.
final class RemapBandTests: XCTestCase {
    /// A frame big enough to be banded: a noisy gradient with a translucent, partly transparent
    /// lower third (so every dithering rule is exercised), and a palette for it.
    private func bandedFrame(width: Int = 300, height: Int = 250) -> (image: Image, palette: [RGBA]) {
        var img = TestImages.noisyGradient(width: width, height: height, seed: 41, noise: 6)
        var rng = SeededRandom(seed: 42)
        for y in (2 * height / 3)..<height {
            for x in 0..<width {
                let c = img[x, y]
                img[x, y] = rng.below(9) == 0 ? RGBA(rng.byte(), rng.byte(), rng.byte(), 0)
                                              : RGBA(c.r, c.g, c.b, UInt8(40 + (x * 215) / max(width - 1, 1)))
            }
        }
        let palette = Quantizer.quantize([img], options: QuantizeOptions(maxColors: 48, dithering: 0)).palette
        return (img, palette)
    }

    private func rows(_ image: Image, _ y0: Int, _ y1: Int) -> Image {
        let rowBytes = image.width * 4
        return Image(width: image.width, height: y1 - y0, pixels: Array(image.pixels[(y0 * rowBytes)..<(y1 * rowBytes)]))
    }

    func testBandsAreRemappedIndependently() {
        let (img, palette) = bandedFrame()
        let w = img.width, h = img.height
        let bands = Remapper.bands(width: w, height: h)
        XCTAssertEqual(bands, Remapper.bandCount)
        XCTAssertGreaterThan(bands, 1)
        let map = DitherMap.make(img)
        for strength: Float in [0, 1] {
            var whole = [UInt8]()
            let total = Remapper(palette: palette).remap(img, dithering: strength, into: &whole)
            var joined = [UInt8]()
            var summed = 0.0
            for b in 0..<bands {
                let y0 = Remapper.bandStart(b, of: bands, height: h), y1 = Remapper.bandStart(b + 1, of: bands, height: h)
                let band = rows(img, y0, y1)
                XCTAssertEqual(Remapper.bands(width: w, height: y1 - y0), 1) // so this is a one-thread remap
                var part = [UInt8]()
                let remapper = Remapper(palette: palette)
                if strength == 0 {
                    summed += remapper.remap(band, dithering: 0, into: &part)
                } else {
                    // The band's rows of the whole frame's map (the band alone would clamp its edges).
                    summed += remapper.remap(band, dithering: strength, map: Array(map[(y0 * w)..<(y1 * w)]), into: &part)
                }
                joined += part
            }
            XCTAssertEqual(whole, joined, "strength \(strength)")
            XCTAssertEqual(total, summed, accuracy: summed * 1e-9)
        }
    }

    func testBandedRemapIsTheSameEveryRun() {
        let (img, palette) = bandedFrame(width: 300, height: 240)
        let reused = Remapper(palette: palette)
        var first = [UInt8]()
        let firstError = Remapper(palette: palette).remap(img, dithering: 1, into: &first)
        for run in 0..<6 {
            var again = [UInt8]()
            // Fresh remappers (cold caches) and a reused one (warm caches, lanes kept).
            let e = (run % 2 == 0 ? Remapper(palette: palette) : reused).remap(img, dithering: 1, into: &again)
            XCTAssertEqual(again, first, "run \(run)")
            XCTAssertEqual(e, firstError, "run \(run)")
        }
    }

    func testDitherMapRowsMatchTheWholeMap() {
        let (img, _) = bandedFrame(width: 97, height: 61)
        let whole = DitherMap.make(img)
        for cuts in [[0, 61], [0, 1, 61], [0, 30, 31, 60, 61], [0, 20, 40, 61]] {
            var out = [UInt8](repeating: 7, count: whole.count)
            img.pixels.withUnsafeBufferPointer { px in
                out.withUnsafeMutableBufferPointer { o in
                    for k in 0..<(cuts.count - 1) {
                        DitherMap.rows(px.baseAddress!, o.baseAddress!, img.width, img.height, from: cuts[k], to: cuts[k + 1])
                    }
                }
            }
            XCTAssertEqual(out, whole, "cuts \(cuts)")
        }
    }

    func testBandedDitheringStillLowersTheVisibleErrorOfARamp() {
        // 4 bands of a large ramp: each band starts without error, the blurred error must still
        // drop as much as in the one-band case.
        let img = TestImages.greyRamp(width: 330, height: 200, from: 40, to: 200)
        XCTAssertGreaterThan(Remapper.bands(width: img.width, height: img.height), 1)
        let plain = Quantizer.quantize([img], options: QuantizeOptions(maxColors: 6, dithering: 0))
        let dithered = Quantizer.quantize([img], options: QuantizeOptions(maxColors: 6, dithering: 1))
        let e0 = DirectMetric.blurredError(img, plain.frames[0].expanded(), radius: 3)
        let e1 = DirectMetric.blurredError(img, dithered.frames[0].expanded(), radius: 3)
        XCTAssertLessThan(e1, e0 * 0.5, "blurred error \(e1) dithered vs \(e0) plain")
        let direct = DirectMetric.meanSquaredError(img, dithered.frames[0].expanded())
        XCTAssertEqual(dithered.meanSquaredError, direct, accuracy: direct * 1e-4 + 1e-6)
    }
}
