import XCTest
import ImageCore
@testable import ImageQuantize

/// `Histogram.hasAtMostColors` (the early-stopping count behind
/// `HistogramPalettes.hasExactPalette`) against a whole histogram and the palette it gives.
final class ColorCountTests: XCTestCase {
    /// An image of `colors` distinct visible colours (each used several times, in runs and
    /// scattered), plus fully transparent pixels of different colour values when `transparent`.
    private func image(colors: Int, transparent: Bool, seed: UInt64) -> Image {
        var rng = SeededRandom(seed: seed)
        var img = Image(width: 64, height: 48)
        for y in 0..<48 {
            for x in 0..<64 {
                let i = (y * 64 + x) % max(1, colors)
                img[x, y] = RGBA(UInt8(i & 0xFF), UInt8(i >> 8), UInt8(17), 255)
            }
        }
        if transparent {
            for _ in 0..<200 { img[rng.below(64), rng.below(48)] = RGBA(rng.byte(), rng.byte(), rng.byte(), 0) }
        }
        return img
    }

    func testCountStopsExactlyAtTheLimit() {
        for colors in [1, 2, 3, 255, 256, 257, 300, 3000] {
            for transparent in [false, true] {
                let img = image(colors: colors, transparent: transparent, seed: UInt64(colors))
                var h = Histogram()
                h.add(img)
                for limit in [1, 2, 255, 256, 257, 299, 300, 4096] {
                    XCTAssertEqual(Histogram.hasAtMostColors(limit, in: img), h.distinctColors <= limit,
                                   "\(colors) colours, transparent \(transparent), limit \(limit)")
                }
            }
        }
    }

    func testExactPaletteAnswerMatchesThePaletteBuilt() {
        for colors in [2, 200, 255, 256, 257, 1000] {
            for transparent in [false, true] {
                let img = image(colors: colors, transparent: transparent, seed: 7)
                var h = Histogram()
                h.add(img)
                let palettes = HistogramPalettes(h)
                for maxColors in [1, 2, 64, 256, 1000] {
                    XCTAssertEqual(HistogramPalettes.hasExactPalette(img, maxColors: maxColors),
                                   palettes.palette(maxColors: maxColors).exact,
                                   "\(colors) colours, transparent \(transparent), max \(maxColors)")
                }
            }
        }
    }

    func testPhotoLikeImageIsNotExact() {
        let img = TestImages.noisyGradient(width: 200, height: 150, seed: 3)
        XCTAssertFalse(HistogramPalettes.hasExactPalette(img, maxColors: 256))
        XCTAssertTrue(Histogram.hasAtMostColors(200 * 150, in: img))
    }
}
