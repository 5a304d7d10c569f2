import XCTest
import ImageCore
@testable import ImageResize

/// `Resizer.resize` to rectangles (app icons, previews): the fit's geometry and kernel, cover and
/// contain, straight or composited over a background.
final class RectangleResizeTests: XCTestCase {
    /// The fast kernel (through `Resizer.resize`) against the Double reference with the same
    /// tables: every channel within ±1 (colour only where both pixels are visible).
    private func assertResizeMatchesReference(source: (Int, Int), output: (Int, Int), fit: FitMode, background: RGBA?,
                                              seed: UInt64, file: StaticString = #filePath, line: UInt = #line) {
        var rng = SeededGenerator(seed: seed)
        let img = randomImage(source.0, source.1, &rng)
        let g = FitGeometry(width: source.0, height: source.1, outputWidth: output.0, outputHeight: output.1, inset: 0, mode: fit)
        let axes = g.axes(crop: TrimBounds(x: 0, y: 0, width: source.0, height: source.1), outputWidth: output.0,
                          outputHeight: output.1, enlargement: .centreSample)
        let ref = ReferenceResampler.resample(img, x: axes.x, y: axes.y, linear: false, over: background)
        let fast = background.map { Resizer.resize(img, width: output.0, height: output.1, fit: fit, over: $0) }
            ?? Resizer.resize(img, width: output.0, height: output.1, fit: fit)
        XCTAssertEqual(fast.width, output.0, file: file, line: line)
        XCTAssertEqual(fast.height, output.1, file: file, line: line)
        var worst = 0
        for y in 0..<output.1 {
            for x in 0..<output.0 {
                let r = ref[x, y], f = fast[x, y]
                worst = max(worst, abs(Int(r.a) - Int(f.a)))
                if background != nil { XCTAssertEqual(f.a, 255, file: file, line: line) }
                if r.a == 0 || f.a == 0 { continue }
                worst = max(worst, abs(Int(r.r) - Int(f.r)), abs(Int(r.g) - Int(f.g)), abs(Int(r.b) - Int(f.b)))
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, "max channel difference", file: file, line: line)
    }

    func testRectanglesMatchTheReference() {
        // Reduction, enlargement and both at once, in each fit, straight and over a background.
        let cases: [((Int, Int), (Int, Int))] = [((97, 61), (23, 17)), ((61, 97), (40, 30)), ((5, 7), (19, 23)),
                                                 ((41, 6), (13, 17)), ((3, 55), (11, 9)), ((64, 64), (20, 15))]
        var seed: UInt64 = 1
        for (source, output) in cases {
            for fit in FitMode.allCases {
                for background in [nil, RGBA(255, 200, 0)] {
                    assertResizeMatchesReference(source: source, output: output, fit: fit, background: background, seed: seed)
                    seed += 1
                }
            }
        }
    }

    func testReductionIsTheStickerFitsAverage() {
        // One geometry, one kernel: a square target gives the fit's bytes.
        var rng = SeededGenerator(seed: 40)
        let img = randomImage(90, 57, &rng)
        for fit in FitMode.allCases {
            XCTAssertEqual(Resizer.resize(img, width: 31, height: 31, fit: fit), fitStill(img, FitOptions(size: 31, fit: fit)), "\(fit)")
        }
    }

    func testEnlargementSamplesBilinearAtPixelCentres() {
        // 2×1 gray 0 | 200 stretched to 4×2: centres at source x = -0.25, 0.25, 0.75, 1.25.
        var img = Image(width: 2, height: 1)
        img[0, 0] = RGBA(0, 0, 0)
        img[1, 0] = RGBA(200, 200, 200)
        let out = Resizer.resize(img, width: 4, height: 2)
        for y in 0..<2 {
            XCTAssertEqual((0..<4).map { out[$0, y].r }, [0, 50, 150, 200], "row \(y)")
            XCTAssertEqual((0..<4).map { out[$0, y].a }, [255, 255, 255, 255], "row \(y)")
        }
    }

    func testCoverCropsTheCentreToTheTargetAspect() {
        // 100×100: a green band in rows 0..<12, white below. A 120×90 cover keeps rows 12.5…87.5.
        var img = Image(width: 100, height: 100)
        for y in 0..<100 { for x in 0..<100 { img[x, y] = y < 12 ? RGBA(0, 255, 0) : RGBA(255, 255, 255) } }
        let out = Resizer.resize(img, width: 120, height: 90, fit: .cover, over: RGBA(0, 0, 0))
        XCTAssertEqual(out.width, 120)
        XCTAssertEqual(out.height, 90)
        XCTAssertEqual(out[60, 0], RGBA(255, 255, 255))

        // 200×100, red left half, blue right half → 100×100 keeps columns 50..<150: half red, half blue.
        var wide = Image(width: 200, height: 100)
        for y in 0..<100 { for x in 0..<200 { wide[x, y] = x < 100 ? RGBA(255, 0, 0) : RGBA(0, 0, 255) } }
        let square = Resizer.resize(wide, width: 100, height: 100, fit: .cover, over: RGBA(0, 0, 0))
        XCTAssertEqual(square[10, 50], RGBA(255, 0, 0))
        XCTAssertEqual(square[48, 50], RGBA(255, 0, 0))
        XCTAssertEqual(square[51, 50], RGBA(0, 0, 255))
        XCTAssertEqual(square[90, 50], RGBA(0, 0, 255))
    }

    func testContainLetterboxesWithPartialAlphaEdges() {
        // 3×2 opaque into 9×9: scale 3, 9×6 centred at y = 1.5, so row 1 is half covered.
        let out = Resizer.resize(solidImage(3, 2, RGBA(10, 100, 200)), width: 9, height: 9, fit: .contain)
        for x in 0..<9 {
            XCTAssertEqual(out[x, 0], RGBA(0, 0, 0, 0))
            XCTAssertEqual(Int(out[x, 1].a), 128, accuracy: 1)
            XCTAssertEqual(out[x, 1].b, 200)
            XCTAssertEqual(out[x, 4], RGBA(10, 100, 200))
            XCTAssertEqual(Int(out[x, 7].a), 128, accuracy: 1)
            XCTAssertEqual(out[x, 8], RGBA(0, 0, 0, 0))
        }
    }

    func testTransparencyBecomesTheBackgroundAndTranslucencyIsKept() {
        let onYellow = Resizer.resize(Image(width: 64, height: 64), width: 54, height: 40, over: RGBA(255, 200, 0))
        XCTAssertTrue(onYellow.isOpaque)
        XCTAssertEqual(onYellow[27, 20], RGBA(255, 200, 0))
        XCTAssertEqual(Resizer.resize(Image(width: 0, height: 0), width: 3, height: 2, over: RGBA(1, 2, 3)),
                       solidImage(3, 2, RGBA(1, 2, 3)))

        let half = solidImage(7, 5, RGBA(10, 100, 200, 128))
        for (w, h) in [(3, 2), (13, 11), (7, 5)] {
            let s = Resizer.resize(half, width: w, height: h)
            for y in 0..<h { for x in 0..<w {
                let p = s[x, y]
                XCTAssertEqual(Int(p.a), 128, accuracy: 1)
                XCTAssertEqual(Int(p.r), 10, accuracy: 1); XCTAssertEqual(Int(p.g), 100, accuracy: 1); XCTAssertEqual(Int(p.b), 200, accuracy: 1)
            } }
            // Over white: 128/255 of the colour, the rest white.
            let o = Resizer.resize(half, width: w, height: h, over: RGBA(255, 255, 255))
            XCTAssertEqual(Int(o[w / 2, h / 2].b), (200 * 128 + 255 * 127 + 127) / 255, accuracy: 1)
        }
    }

    func testAreaAverageOfAnEvenCheckerIsTheMean() {
        var img = Image(width: 8, height: 8)
        for y in 0..<8 { for x in 0..<8 { img[x, y] = (x + y) % 2 == 0 ? RGBA(0, 0, 0) : RGBA(200, 200, 200) } }
        let s = Resizer.resize(img, width: 2, height: 2)
        XCTAssertEqual(s[0, 0], RGBA(100, 100, 100))
        XCTAssertEqual(s[1, 1], RGBA(100, 100, 100))
    }

    func testEmptyAndOversizedRequests() {
        XCTAssertEqual(Resizer.resize(solidImage(4, 4, RGBA(1, 2, 3)), width: 0, height: 5).pixels.count, 0)
        XCTAssertEqual(Resizer.resize(Image(width: 0, height: 3), width: 2, height: 2), Image(width: 2, height: 2))
        let clamped = Resizer.resize(solidImage(1, 1, RGBA(1, 2, 3)), width: 9000, height: 1)
        XCTAssertEqual(clamped.width, Resizer.maxSize)
    }
}
