import XCTest
import ImageCore
@testable import ImageResize

/// `Resizer.fit` on hand-computable cases.
final class FitTests: XCTestCase {
    func testTwoTimesDownscaleIsTheBoxAverage() {
        var rng = SeededGenerator(seed: 20)
        let src = randomImage(8, 8, &rng)
        let out = fitStill(src, FitOptions(size: 4))
        for y in 0..<4 {
            for x in 0..<4 {
                var sum = SIMD4<Double>()
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let p = src[2 * x + dx, 2 * y + dy]
                    let a = Double(p.a)
                    sum += SIMD4(Double(p.r) * a, Double(p.g) * a, Double(p.b) * a, a)
                }
                let a = sum[3] / 4
                let got = out[x, y]
                // A tie (x.5) may round either way.
                let allowed = a == a.rounded(.down) + 0.5 ? [a.rounded(.down), a.rounded(.up)] : [a.rounded()]
                XCTAssertTrue(allowed.contains(Double(got.a)), "alpha \(got.a) for \(a) at \(x),\(y)")
                if a.rounded() == 0 {
                    XCTAssertEqual(got, RGBA(0, 0, 0, 0))
                    continue
                }
                let expect = [sum[0], sum[1], sum[2]].map { Int(($0 / sum[3]).rounded()) }
                let have = [Int(got.r), Int(got.g), Int(got.b)]
                for c in 0..<3 { XCTAssertLessThanOrEqual(abs(expect[c] - have[c]), 1, "channel \(c) at \(x),\(y)") }
            }
        }
    }

    func testSolidColourStaysThatColour() {
        for colour in [RGBA(200, 30, 90, 255), RGBA(12, 250, 7, 128)] {
            for options in [FitOptions(size: 16), FitOptions(size: 16, fit: .cover), FitOptions(size: 50),
                            FitOptions(size: 16, linear: true)] {
                let out = fitStill(solidImage(37, 23, colour), options)
                var full = 0
                for y in 0..<out.height {
                    for x in 0..<out.width {
                        let p = out[x, y]
                        if p.a == 0 { XCTAssertEqual(p, RGBA(0, 0, 0, 0)); continue }
                        XCTAssertEqual([p.r, p.g, p.b], [colour.r, colour.g, colour.b], "\(options) at \(x),\(y)")
                        XCTAssertLessThanOrEqual(p.a, colour.a)
                        if p.a == colour.a { full += 1 }
                    }
                }
                XCTAssertGreaterThan(full, out.width * out.height / 3)
            }
        }
    }

    func testFullyTransparentInputGivesZeroBytes() {
        var rng = SeededGenerator(seed: 21)
        var src = randomImage(40, 30, &rng)
        for i in stride(from: 3, to: src.pixels.count, by: 4) { src.pixels[i] = 0 }
        for options in [FitOptions(size: 12), FitOptions(size: 12, fit: .cover), FitOptions(size: 12, trim: true),
                        FitOptions(size: 100, linear: true)] {
            let out = fitStill(src, options)
            XCTAssertEqual(out.width, options.size)
            XCTAssertTrue(out.pixels.allSatisfy { $0 == 0 }, "\(options)")
        }
    }

    func testContainLeavesSymmetricFractionalBands() {
        // 30×14 into 10: scale 1/3, content 14/3 rows tall from y = 8/3 to 22/3.
        let out = fitStill(solidImage(30, 14, RGBA(10, 20, 30)), FitOptions(size: 10))
        let expected: [UInt8] = [0, 0, 85, 255, 255, 255, 255, 85, 0, 0]
        for y in 0..<10 {
            for x in 0..<10 {
                XCTAssertEqual(out[x, y].a, expected[y], "row \(y) column \(x)")
                if expected[y] > 0 { XCTAssertEqual(out[x, y], RGBA(10, 20, 30, expected[y])) }
            }
        }
        // Tall: the same bands on columns.
        let tall = fitStill(solidImage(14, 30, RGBA(10, 20, 30)), FitOptions(size: 10))
        for x in 0..<10 { XCTAssertEqual(tall[x, 4].a, expected[x], "column \(x)") }
    }

    func testTrimUsesTheUnionOverFrames() {
        let a = RGBA(255, 0, 0), b = RGBA(0, 0, 255, 200)
        var f1 = Image(width: 40, height: 40), f2 = Image(width: 40, height: 40)
        for y in 5..<15 { for x in 10..<20 { f1[x, y] = a } }
        for y in 20..<30 { for x in 25..<31 { f2[x, y] = b } }
        // Union: x 10..<31, y 5..<30 = 21×25; at size 25 the scale is 1 and x is offset by 2.
        let anim = Animation(width: 40, height: 40, frames: [Frame(image: f1, delay: Delay(centiseconds: 5)),
                                                             Frame(image: f2, delay: Delay(centiseconds: 7))], loopCount: 3)
        let result = Resizer.fit(anim, options: FitOptions(size: 25, trim: true))
        var e1 = Image(width: 25, height: 25), e2 = Image(width: 25, height: 25)
        for y in 0..<10 { for x in 2..<12 { e1[x, y] = a } }
        for y in 15..<25 { for x in 17..<23 { e2[x, y] = b } }
        XCTAssertEqual(result.animation.frames.map(\.image), [e1, e2])
        XCTAssertEqual(result.animation.frames.map(\.delay), [Delay(centiseconds: 5), Delay(centiseconds: 7)])
        XCTAssertEqual(result.animation.loopCount, 3)
        XCTAssertFalse(result.upscaled)
        // Without trim the content is merely scaled (40 → 25).
        let untrimmed = Resizer.fit(anim, options: FitOptions(size: 25)).animation.frames[0].image
        XCTAssertNotEqual(untrimmed, e1)
    }

    func testInsetMarginIsTransparent() {
        for options in [FitOptions(size: 20, inset: 3), FitOptions(size: 20, fit: .cover, inset: 3)] {
            let out = fitStill(solidImage(45, 30, RGBA(1, 2, 3)), options)
            for y in 0..<20 {
                for x in 0..<20 {
                    let inMargin = x < 3 || y < 3 || x >= 17 || y >= 17
                    if inMargin { XCTAssertEqual(out[x, y], RGBA(0, 0, 0, 0), "\(options.fit) at \(x),\(y)") }
                }
            }
            // Cover fills the inset square; contain fills its width.
            XCTAssertEqual(out[3, 10], RGBA(1, 2, 3))
            XCTAssertEqual(out[16, 10], RGBA(1, 2, 3))
            if options.fit == .cover { XCTAssertEqual(out[10, 3], RGBA(1, 2, 3)); XCTAssertEqual(out[10, 16], RGBA(1, 2, 3)) }
        }
    }

    func testCoverCropsTheCentre() {
        // 30×10, column x has red = 8·x: cover at 10 keeps columns 10..<20 untouched.
        var src = Image(width: 30, height: 10)
        for y in 0..<10 { for x in 0..<30 { src[x, y] = RGBA(UInt8(8 * x), UInt8(y), 7) } }
        let out = fitStill(src, FitOptions(size: 10, fit: .cover))
        for y in 0..<10 { for x in 0..<10 { XCTAssertEqual(out[x, y], src[x + 10, y]) } }
        // Tall source with scaling: 20×60 → 5, central rows 20..<40 box-averaged 4×4.
        var tall = Image(width: 20, height: 60)
        for y in 0..<60 { for x in 0..<20 { tall[x, y] = RGBA(UInt8(y * 4), 0, UInt8(x * 10)) } }
        let t = fitStill(tall, FitOptions(size: 5, fit: .cover))
        for y in 0..<5 {
            for x in 0..<5 {
                // Mean of rows 20+4y…23+4y (×4) and columns 4x…4x+3 (×10).
                XCTAssertEqual(t[x, y], RGBA(UInt8(4 * (20 + 4 * y) + 6), 0, UInt8(40 * x + 15)), "\(x),\(y)")
            }
        }
    }

    func testHalfTransparentRedKeepsItsColour() {
        // Red at alpha 128 next to transparent black: straight-alpha averaging would darken it.
        var src = Image(width: 4, height: 4)
        for y in 0..<4 { src[0, y] = RGBA(255, 0, 0, 128); src[2, y] = RGBA(255, 0, 0, 128) }
        let out = fitStill(src, FitOptions(size: 2))
        for y in 0..<2 { for x in 0..<2 { XCTAssertEqual(out[x, y], RGBA(255, 0, 0, 64)) } }
        let linear = fitStill(src, FitOptions(size: 2, linear: true))
        XCTAssertEqual(linear[0, 0], RGBA(255, 0, 0, 64))
    }

    func testLinearLightAveragesInLinearLight() {
        // A black/white checkerboard halves to 50 % grey: code 128 encoded, code 188 in linear light.
        var src = Image(width: 8, height: 8)
        for y in 0..<8 { for x in 0..<8 { src[x, y] = (x + y) % 2 == 0 ? RGBA(255, 255, 255) : RGBA(0, 0, 0) } }
        XCTAssertEqual(fitStill(src, FitOptions(size: 4))[1, 1], RGBA(128, 128, 128))
        let half = Int((SRGB.encode(0.5) * 255).rounded())
        XCTAssertEqual(half, 188)
        XCTAssertEqual(fitStill(src, FitOptions(size: 4, linear: true))[1, 1], RGBA(188, 188, 188))
    }

    func testMeanIsPreservedWhenFullyCovered() {
        var rng = SeededGenerator(seed: 22)
        // Exactly fitted square (fractional scale 23/61) and a cover fit of a central crop.
        let square = randomImage(61, 61, &rng)
        let a = premultipliedMean(square), b = premultipliedMean(fitStill(square, FitOptions(size: 23)))
        for c in 0..<4 { XCTAssertEqual(a[c], b[c], accuracy: 0.3, "channel \(c)") }

        let wide = randomImage(90, 40, &rng)
        // Cover at 20: scale 0.5, columns 25..<65 visible.
        var crop = Image(width: 40, height: 40)
        for y in 0..<40 { for x in 0..<40 { crop[x, y] = wide[x + 25, y] } }
        let c1 = premultipliedMean(crop), c2 = premultipliedMean(fitStill(wide, FitOptions(size: 20, fit: .cover)))
        for c in 0..<4 { XCTAssertEqual(c1[c], c2[c], accuracy: 0.3, "channel \(c)") }
    }

    func testAlphaTotalIsPreservedInContain() {
        var rng = SeededGenerator(seed: 23)
        let src = randomImage(150, 63, &rng)  // scale 0.4 into 60: 25.2 rows at offset 17.4
        let out = fitStill(src, FitOptions(size: 60))
        let total = { (img: Image) in stride(from: 3, to: img.pixels.count, by: 4).reduce(0.0) { $0 + Double(img.pixels[$1]) } / 255 }
        // Each output pixel may round by 1/510; 3600 pixels bound the error by 7, real error is far smaller.
        XCTAssertEqual(total(out), total(src) * 0.4 * 0.4, accuracy: 1)
        XCTAssertTrue(out.pixels[0..<(17 * 60 * 4)].allSatisfy { $0 == 0 })
        XCTAssertGreaterThan(out[30, 17].a, 0)
    }

    func testUpscaleIsSmoothAndReported() {
        var src = Image(width: 2, height: 2)
        for y in 0..<2 { src[0, y] = RGBA(0, 0, 0); src[1, y] = RGBA(255, 255, 255) }
        let result = Resizer.fit(Animation(still: src), options: FitOptions(size: 20))
        XCTAssertTrue(result.upscaled)
        XCTAssertEqual(result.warnings, ["source is 2×2, smaller than the 20×20 sticker: enlarged"])
        let row = (0..<20).map { result.animation.frames[0].image[$0, 10] }
        XCTAssertTrue(row.allSatisfy { $0.a == 255 && $0.r == $0.g && $0.g == $0.b })
        // Monotone ramp, flat at both ends, with more than two levels (not nearest neighbour).
        XCTAssertEqual(row.first?.r, 0)
        XCTAssertEqual(row.last?.r, 255)
        XCTAssertTrue(zip(row, row.dropFirst()).allSatisfy { $0.r <= $1.r })
        XCTAssertGreaterThan(Set(row.map(\.r)).count, 6)
        // Symmetric about the middle.
        for x in 0..<10 { XCTAssertLessThanOrEqual(abs(Int(row[x].r) + Int(row[19 - x].r) - 255), 1) }

        let solid = fitStill(solidImage(3, 5, RGBA(9, 99, 199, 77)), FitOptions(size: 31))
        // Content spans columns 6.2…24.8.
        XCTAssertTrue((7..<24).allSatisfy { solid[$0, 15] == RGBA(9, 99, 199, 77) })
        XCTAssertEqual(solid[6, 15], RGBA(9, 99, 199, UInt8((77 * 0.8).rounded())))
        XCTAssertEqual(solid[5, 15], RGBA(0, 0, 0, 0))
    }

    func testDownscaleIsNotReported() {
        let result = Resizer.fit(Animation(still: solidImage(700, 650, RGBA(1, 1, 1))), options: FitOptions(size: 618))
        XCTAssertFalse(result.upscaled)
        XCTAssertEqual(result.warnings, [])
        XCTAssertEqual(result.animation.width, 618)
    }

    func testBadOptionsAndEmptySourcesDoNotCrash() {
        let img = solidImage(10, 10, RGBA(5, 5, 5))
        let zero = Resizer.fit(Animation(still: img), options: FitOptions(size: 0))
        XCTAssertEqual(zero.animation.width, 1)
        XCTAssertEqual(zero.warnings.count, 1)
        let huge = Resizer.fit(Animation(still: img), options: FitOptions(size: 10, inset: 50))
        XCTAssertEqual(huge.animation.frames[0].image.width, 10)
        XCTAssertEqual(huge.warnings, ["inset 50 does not fit a 10×10 sticker: using 4"])
        let empty = Resizer.fit(Animation(still: Image(width: 0, height: 0)), options: FitOptions(size: 8))
        XCTAssertEqual(empty.animation.frames[0].image, Image(width: 8, height: 8))
        XCTAssertEqual(empty.warnings.count, 1)
    }

    func testIdenticalFramesShareTheResult() {
        var rng = SeededGenerator(seed: 24)
        let img = randomImage(33, 21, &rng), other = randomImage(33, 21, &rng)
        let anim = Animation(width: 33, height: 21, frames: [img, img, other].map { Frame(image: $0, delay: Delay(milliseconds: 40)) })
        let out = Resizer.fit(anim, options: FitOptions(size: 9)).animation.frames.map(\.image)
        XCTAssertEqual(out[0], out[1])
        XCTAssertEqual(out[2], fitStill(other, FitOptions(size: 9)))
        XCTAssertNotEqual(out[0], out[2])
    }
}
