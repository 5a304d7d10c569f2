import XCTest
import ImageCore
@testable import ImageQuantize

final class QuantizerTests: XCTestCase {
    private func assertWellFormed(_ r: QuantizeResult, _ frames: [Image], maxColors: Int,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThanOrEqual(r.palette.count, maxColors, file: file, line: line)
        XCTAssertEqual(r.frames.count, frames.count, file: file, line: line)
        for (f, out) in zip(frames, r.frames) {
            XCTAssertEqual(out.width, f.width, file: file, line: line)
            XCTAssertEqual(out.height, f.height, file: file, line: line)
            XCTAssertEqual(out.palette, r.palette, file: file, line: line)
            XCTAssertTrue(out.indices.allSatisfy { Int($0) < r.palette.count }, file: file, line: line)
        }
    }

    func testPaletteNeverExceedsMaxColors() {
        let img = TestImages.randomTranslucent(width: 64, height: 48, seed: 1)
        for n in [2, 3, 16, 255, 256] {
            for d: Float in [0, 1] {
                let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: n, dithering: d))
                assertWellFormed(r, [img], maxColors: n)
                XCTAssertFalse(r.exact)
                XCTAssertGreaterThanOrEqual(r.palette.count, 2, "n=\(n)")
            }
        }
    }

    func testOutOfRangeMaxColorsIsClamped() {
        let img = TestImages.noisyGradient(width: 40, height: 40, seed: 2)
        for n in [-5, 0, 1] {
            let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: n, dithering: 1))
            assertWellFormed(r, [img], maxColors: 2)
        }
        let big = Quantizer.quantize([img], options: QuantizeOptions(maxColors: 100_000, dithering: .nan))
        assertWellFormed(big, [img], maxColors: 256)
    }

    func testOpaqueInputGivesOpaquePalette() {
        for seed: UInt64 in [3, 4] {
            let img = TestImages.noisyGradient(width: 80, height: 60, seed: seed, noise: 20)
            for n in [2, 16, 256] {
                let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: n, dithering: 1))
                XCTAssertTrue(r.palette.allSatisfy { $0.a == 255 }, "n=\(n): \(r.palette.filter { $0.a != 255 })")
                XCTAssertTrue(r.frames[0].expanded().isOpaque)
            }
        }
    }

    func testFewColoursAreKeptExactly() {
        var rng = SeededRandom(seed: 5)
        let colors = (0..<37).map { _ in RGBA(rng.byte(), rng.byte(), rng.byte(), rng.byte() | 1) } + [RGBA(0, 0, 0, 0)]
        let img = TestImages.fromColors(colors, width: 50, height: 30, seed: 6)
        for d: Float in [0, 1] {
            let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: colors.count, dithering: d))
            XCTAssertTrue(r.exact)
            XCTAssertEqual(r.meanSquaredError, 0)
            XCTAssertEqual(r.quality, 100)
            XCTAssertEqual(Set(r.palette), Set(colors))
            XCTAssertEqual(r.frames[0].expanded(), img)
        }
    }

    func testTransparentPixelsMapToTheTransparentEntry() {
        // Transparent pixels carry junk colour; the input has far more colours than the palette.
        let img = TestImages.randomTranslucent(width: 60, height: 40, seed: 7)
        for n in [2, 16, 256] {
            for d: Float in [0, 0.5, 1] {
                let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: n, dithering: d))
                XCTAssertTrue(r.palette.contains(RGBA(0, 0, 0, 0)))
                let out = r.frames[0].expanded()
                for y in 0..<img.height {
                    for x in 0..<img.width where img[x, y].a == 0 {
                        XCTAssertEqual(out[x, y], RGBA(0, 0, 0, 0), "n=\(n) d=\(d) at \(x),\(y)")
                    }
                }
            }
        }
        // Exact path: junk colour under alpha 0 becomes (0,0,0,0) too.
        var few = TestImages.fromColors([RGBA(10, 20, 30), RGBA(200, 100, 0, 128)], width: 8, height: 8, seed: 8)
        few[3, 3] = RGBA(99, 98, 97, 0)
        few[4, 4] = RGBA(1, 2, 3, 0)
        let r = Quantizer.quantize([few], options: QuantizeOptions(maxColors: 3, dithering: 1))
        XCTAssertTrue(r.exact)
        XCTAssertEqual(r.palette.count, 3)
        XCTAssertEqual(r.frames[0].expanded()[3, 3], RGBA(0, 0, 0, 0))
        XCTAssertEqual(r.frames[0].expanded()[4, 4], RGBA(0, 0, 0, 0))
    }

    func testDeterministic() {
        let frames = [TestImages.randomTranslucent(width: 70, height: 50, seed: 9),
                      TestImages.noisyGradient(width: 70, height: 50, seed: 10, noise: 8)]
        for d: Float in [0, 1] {
            let a = Quantizer.quantize(frames, options: QuantizeOptions(maxColors: 64, dithering: d))
            let b = Quantizer.quantize(frames, options: QuantizeOptions(maxColors: 64, dithering: d))
            XCTAssertEqual(a.palette, b.palette)
            XCTAssertEqual(a.frames, b.frames)
            XCTAssertEqual(a.meanSquaredError, b.meanSquaredError)
        }
    }

    func testMoreColoursNeverMuchWorse() {
        let img = TestImages.noisyGradient(width: 96, height: 96, seed: 11, noise: 6)
        var errors = [Double]()
        for n in [2, 4, 8, 16, 32, 64, 128, 256] {
            let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: n, dithering: 0))
            if let previous = errors.last {
                XCTAssertLessThanOrEqual(r.meanSquaredError, previous * 1.02 + 0.05, "n=\(n)")
            }
            errors.append(r.meanSquaredError)
        }
        XCTAssertLessThan(errors.last!, errors.first! * 0.05, "\(errors)")
    }

    func testReportedErrorMatchesTheOutput() {
        let img = TestImages.randomTranslucent(width: 40, height: 40, seed: 12)
        for d: Float in [0, 1] {
            let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: 32, dithering: d))
            let direct = DirectMetric.meanSquaredError(img, r.frames[0].expanded())
            XCTAssertEqual(r.meanSquaredError, direct, accuracy: direct * 1e-4 + 1e-6)
            XCTAssertEqual(r.quality, Quality.quality(meanSquaredError: direct))
        }
    }

    func testDitheringLowersVisibleErrorOfAGradient() {
        let img = TestImages.greyRamp(width: 256, height: 32, from: 40, to: 200)
        for n in [4, 8] {
            let plain = Quantizer.quantize([img], options: QuantizeOptions(maxColors: n, dithering: 0))
            let dithered = Quantizer.quantize([img], options: QuantizeOptions(maxColors: n, dithering: 1))
            XCTAssertEqual(plain.palette, dithered.palette)
            let e0 = DirectMetric.blurredError(img, plain.frames[0].expanded(), radius: 3)
            let e1 = DirectMetric.blurredError(img, dithered.frames[0].expanded(), radius: 3)
            XCTAssertLessThan(e1, e0 * 0.5, "n=\(n): blurred error \(e1) dithered vs \(e0) plain")
        }
    }

    func testFlatAreasStayClean() {
        // Left: a ramp that needs dithering at 6 colours. Right: two flat colours, each heavy
        // enough to own an entry. The flat areas must come out as one index each.
        let w = 200, h = 40
        var img = TestImages.greyRamp(width: w, height: h, from: 0, to: 255)
        for y in 0..<h {
            for x in 100..<w { img[x, y] = y < 20 ? RGBA(200, 40, 40) : RGBA(30, 90, 200) }
        }
        let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: 6, dithering: 1))
        let out = r.frames[0]
        for (ys, xs) in [(2..<18, 103..<w), (22..<h, 103..<w)] {
            let first = out.indices[ys.lowerBound * w + xs.lowerBound]
            for y in ys { for x in xs { XCTAssertEqual(out.indices[y * w + x], first, "noise at \(x),\(y)") } }
        }
        // And the ramp really was dithered: more than 6 index changes along one of its rows.
        let row = out.indices[(10 * w)..<(10 * w + 100)]
        XCTAssertGreaterThan(zip(row, row.dropFirst()).filter { $0 != $1 }.count, 6)
    }

    func testFlatAreaAfterASoftRampStaysClean() {
        // A ramp that runs smoothly into a flat area (no edge to stop the diffused error): the
        // flat colour owns an entry (within a level or two), so past the join it must come out as
        // one index.
        let w = 200, h = 40
        var img = Image(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                let v = UInt8(x < 100 ? 20 + x * 108 / 100 : 128)
                img[x, y] = RGBA(v, v, v)
            }
        }
        for n in [3, 4, 5] {
            let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: n, dithering: 1))
            let out = r.frames[0]
            let flat = out.indices[5 * w + 190]
            XCTAssertLessThanOrEqual(abs(Int(r.palette[Int(flat)].r) - 128), 2, "premise: the flat colour has its entry")
            for y in 0..<h { for x in 102..<w { XCTAssertEqual(out.indices[y * w + x], flat, "n=\(n) noise at \(x),\(y)") } }
        }
    }

    func testFlatImageUntouchedByDithering() {
        let flat = Image(width: 32, height: 32, pixels: [UInt8]((0..<(32 * 32)).flatMap { _ in [17, 130, 240, 200] as [UInt8] }))
        let r = Quantizer.quantize([flat], options: QuantizeOptions(maxColors: 2, dithering: 1))
        XCTAssertEqual(r.frames[0].expanded(), flat)
    }

    func testSoftAlphaRampKeepsItsLevels() {
        // Red with alpha falling from 255 to 0 over 64 px, beside a noisy gradient that competes
        // for entries.
        let w = 128, h = 64
        var img = TestImages.noisyGradient(width: w, height: h, seed: 13, noise: 10)
        for y in 0..<h { for x in 0..<64 { img[x, y] = RGBA(255, 0, 0, TestImages.clamp(255 - x * 4)) } }
        let r = Quantizer.quantize([img], options: QuantizeOptions(maxColors: 32, dithering: 0))
        let alphas = Set(r.palette.map(\.a))
        XCTAssertGreaterThan(alphas.count, 4, "alpha levels \(alphas.sorted())")
        let out = r.frames[0].expanded()
        var alphaError = 0.0
        for y in 0..<h { for x in 0..<64 { alphaError += abs(Double(out[x, y].a) - Double(img[x, y].a)) } }
        XCTAssertLessThan(alphaError / Double(64 * h), 12, "mean alpha error on the ramp")
        // The opaque half must not turn faintly see-through because of the translucent half.
        var seeThrough = 0
        for y in 0..<h { for x in 64..<w where out[x, y].a != 255 { seeThrough += 1 } }
        XCTAssertLessThan(seeThrough, 64 * h / 100, "opaque pixels rendered translucent")
    }

    func testColourOnlyInSecondFrameGetsAnEntry() {
        let green = RGBA(0, 255, 0)
        let f1 = TestImages.noisyGradient(width: 64, height: 64, seed: 14, noise: 2)
        var f2 = f1
        for y in 0..<24 { for x in 0..<24 { f2[x, y] = green } }
        let greenPoint = ErrorSpace.point(green)
        func nearestToGreen(_ palette: [RGBA]) -> Float {
            palette.map { ErrorSpace.distance2(ErrorSpace.point($0), greenPoint) }.min()!
        }
        let alone = Quantizer.quantize([f1], options: QuantizeOptions(maxColors: 16, dithering: 0))
        XCTAssertGreaterThan(nearestToGreen(alone.palette), 1000, "premise: frame 1 has no green")
        let both = Quantizer.quantize([f1, f2], options: QuantizeOptions(maxColors: 16, dithering: 0))
        XCTAssertLessThan(nearestToGreen(both.palette), 12)
        XCTAssertEqual(both.frames[1].expanded()[5, 5], both.palette.min { a, b in
            ErrorSpace.distance2(ErrorSpace.point(a), greenPoint) < ErrorSpace.distance2(ErrorSpace.point(b), greenPoint)
        })
    }

    func testReusedHistogramGivesTheSameResult() {
        let frames = [TestImages.randomTranslucent(width: 40, height: 30, seed: 32),
                      TestImages.noisyGradient(width: 40, height: 30, seed: 33)]
        var h = Histogram()
        for f in frames { h.add(f) }
        for n in [8, 64] {
            let a = Quantizer.quantize(frames, options: QuantizeOptions(maxColors: n, dithering: 1))
            let b = Quantizer.quantize(frames, histogram: h, options: QuantizeOptions(maxColors: n, dithering: 1))
            XCTAssertEqual(a.palette, b.palette)
            XCTAssertEqual(a.frames, b.frames)
        }
    }

    func testPalettesOfOneHistogramEqualSeparateBuilds() {
        // 200×200 random translucent pixels: ~40 k colours, more than the point limit, so the
        // shared working points are the merged ones.
        var many = Histogram()
        many.add(TestImages.randomTranslucent(width: 200, height: 200, seed: 41))
        var few = Histogram()
        few.add(TestImages.greyRamp(width: 16, height: 4, from: 0, to: 150))
        for h in [many, few] {
            let palettes = HistogramPalettes(h)
            for n in [256, 7, 64, 256, 2, 130, 16] {
                let shared = palettes.palette(maxColors: n)
                let alone = Quantizer.palette(from: h, maxColors: n)
                XCTAssertEqual(shared.colors, alone.colors, "maxColors \(n)")
                XCTAssertEqual(shared.exact, alone.exact, "maxColors \(n)")
            }
        }
    }

    func testTinyAndThinImages() {
        for (w, h) in [(1, 1), (1, 9), (9, 1), (2, 2), (3, 50)] {
            for seed: UInt64 in [30, 31] {
                let img = TestImages.randomTranslucent(width: w, height: h, seed: seed)
                for n in [2, 3, 256] {
                    let r = Quantizer.quantize([img, img], options: QuantizeOptions(maxColors: n, dithering: 1))
                    assertWellFormed(r, [img, img], maxColors: n)
                    XCTAssertEqual(r.frames[0], r.frames[1], "same frame twice, no error carried over")
                }
            }
        }
    }

    func testEmptyInputs() {
        let none = Quantizer.quantize([], options: QuantizeOptions())
        XCTAssertTrue(none.frames.isEmpty)
        let empty = Quantizer.quantize([Image(width: 0, height: 0)], options: QuantizeOptions())
        XCTAssertEqual(empty.frames.count, 1)
        XCTAssertEqual(empty.frames[0].indices.count, 0)
        let clear = Quantizer.quantize([Image(width: 5, height: 5)], options: QuantizeOptions(maxColors: 2))
        XCTAssertEqual(clear.palette, [RGBA(0, 0, 0, 0)])
        XCTAssertTrue(clear.exact)
    }

    func testQualityScale() {
        XCTAssertEqual(Quality.quality(meanSquaredError: 0), 100)
        var last = 100
        for mse in [0.01, 0.1, 1, 5, 10, 20, 50, 100, 300, 1000, 5000, 65025] {
            let q = Quality.quality(meanSquaredError: mse)
            XCTAssertLessThanOrEqual(q, last, "mse \(mse)")
            XCTAssertLessThan(q, 100)
            last = q
        }
        XCTAssertEqual(Quality.quality(meanSquaredError: 65025 / pow(10, 3.6)), 90) // 36 dB
        XCTAssertEqual(Quality.quality(meanSquaredError: 65025), 0)
    }
}
