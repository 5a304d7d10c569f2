import XCTest
import ImageCore
@testable import ImageResize

/// The fast kernel against the Double reference on seeded random images.
final class KernelTests: XCTestCase {
    /// Runs both resamplers; alpha within ±1, colour within ±1 wherever both pixels are visible.
    private func assertKernelMatchesReference(source: (Int, Int), output: (Int, Int),
                                              scale: (Double, Double), offset: (Double, Double),
                                              linear: Bool, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) {
        var rng = SeededGenerator(seed: seed)
        let img = randomImage(source.0, source.1, &rng)
        let x = AxisWeights(sourceCount: source.0, outputCount: output.0, scale: scale.0, offset: offset.0)
        let y = AxisWeights(sourceCount: source.1, outputCount: output.1, scale: scale.1, offset: offset.1)
        let ref = ReferenceResampler.resample(img, x: x, y: y, linear: linear)
        let fast = AreaResampler(x: x, y: y, sourceWidth: source.0, linear: linear).resample(img)
        XCTAssertEqual(fast.count, output.0 * output.1 * 4, file: file, line: line)
        var worst = 0
        var visible = 0
        for i in stride(from: 0, to: fast.count, by: 4) {
            let ra = Int(ref.pixels[i + 3]), fa = Int(fast[i + 3])
            worst = max(worst, abs(ra - fa))
            if ra == 0 || fa == 0 {
                // Colour of an invisible pixel is zero in both.
                if ra == 0 { XCTAssertEqual(ref.pixels[i..<i + 3], [0, 0, 0], file: file, line: line) }
                if fa == 0 { XCTAssertEqual(fast[i..<i + 3], [0, 0, 0], file: file, line: line) }
                continue
            }
            visible += 1
            for c in 0..<3 { worst = max(worst, abs(Int(ref.pixels[i + c]) - Int(fast[i + c]))) }
        }
        XCTAssertLessThanOrEqual(worst, 1, "max channel difference", file: file, line: line)
        XCTAssertGreaterThan(visible, fast.count / 16, "test image should be mostly visible", file: file, line: line)
    }

    func testDownscaleMatchesReference() {
        for linear in [false, true] {
            assertKernelMatchesReference(source: (97, 61), output: (23, 17), scale: (0.237, 0.27),
                                         offset: (0.31, 0.55), linear: linear, seed: 1)
            assertKernelMatchesReference(source: (64, 64), output: (32, 32), scale: (0.5, 0.5),
                                         offset: (0, 0), linear: linear, seed: 2)
            assertKernelMatchesReference(source: (301, 7), output: (29, 3), scale: (0.0963, 0.4),
                                         offset: (0.2, 0.1), linear: linear, seed: 3)
        }
    }

    func testUpscaleMatchesReference() {
        for linear in [false, true] {
            assertKernelMatchesReference(source: (5, 7), output: (19, 23), scale: (3.7, 3.1),
                                         offset: (0.4, 0.6), linear: linear, seed: 4)
            assertKernelMatchesReference(source: (1, 3), output: (9, 13), scale: (8.5, 4.2),
                                         offset: (0.25, 0), linear: linear, seed: 5)
        }
    }

    func testMixedScaleMatchesReference() {
        for linear in [false, true] {
            assertKernelMatchesReference(source: (41, 6), output: (13, 17), scale: (0.31, 2.7),
                                         offset: (0.3, 0.4), linear: linear, seed: 6)
            assertKernelMatchesReference(source: (3, 55), output: (11, 9), scale: (3.3, 0.161),
                                         offset: (0.6, 0.07), linear: linear, seed: 7)
        }
    }

    func testPaddingAndCropMatchReference() {
        // Offsets that leave empty output rows/columns, and negative offsets that crop.
        assertKernelMatchesReference(source: (33, 17), output: (21, 21), scale: (0.6, 0.6),
                                     offset: (0.7, 5.4), linear: false, seed: 8)
        assertKernelMatchesReference(source: (33, 17), output: (15, 15), scale: (0.9, 0.9),
                                     offset: (-7.35, 0), linear: false, seed: 9)
    }

    func testReferenceIdentityAtScaleOne() {
        var rng = SeededGenerator(seed: 10)
        var img = randomImage(13, 9, &rng)
        let x = AxisWeights(sourceCount: 13, outputCount: 13, scale: 1, offset: 0)
        let y = AxisWeights(sourceCount: 9, outputCount: 9, scale: 1, offset: 0)
        let ref = ReferenceResampler.resample(img, x: x, y: y, linear: false)
        let fast = AreaResampler(x: x, y: y, sourceWidth: 13, linear: false).resample(img)
        img.zeroTransparentColor()
        XCTAssertEqual(ref, img)
        XCTAssertEqual(fast, img.pixels)
    }
}

/// The horizontal pass with a fixed tap count (the table stride, zero weights past a pixel's
/// count) against the loop over each pixel's own count: the bytes must be equal.
final class HorizontalPassTests: XCTestCase {
    func testFixedTapCountsEqualTheCountLoop() {
        var rng = SeededGenerator(seed: 31)
        // Shapes of the corpus: enlargements (2–3 taps), mild and strong reductions (2–5),
        // more than five (the general loop on both sides), padding and 1-px sources.
        let axes: [(Int, Int, Double, Double)] = [
            (148, 618, 618.0 / 148, 0), (512, 618, 618.0 / 512, 0), (1024, 618, 618.0 / 1024, 0),
            (960, 300, 300.0 / 960, 0), (960, 300, 300.0 / 960 * 0.9, 12.5), (200, 41, 41.0 / 200, 0.3),
            (1, 9, 8.5, 0.25), (7, 7, 1, 0), (33, 21, 0.6, 0.7),
        ]
        for (source, output, scale, offset) in axes {
            let x = AxisWeights(sourceCount: source, outputCount: output, scale: scale, offset: offset)
            let span = x.maxSource - x.minSource
            let starts = x.starts.map { Int32(max(0, $0 - x.minSource)) }
            let counts = x.counts.map { Int32($0) }
            let weights = x.weights.map { Float($0) }
            let splats = weights.map { SIMD4<Float>(repeating: $0) }
            // A premultiplied float row as the vertical pass leaves it: alpha in 0…255, colour
            // at most alpha, many fully transparent runs; `stride` zero columns of padding.
            var row = [SIMD4<Float>](repeating: SIMD4<Float>(), count: span + x.stride)
            for i in 0..<span where rng.next() % 3 != 0 {
                let a = Float(rng.next() % 2560) / 10
                row[i] = SIMD4<Float>(Float(rng.next() % 1000) / 1000 * a, Float(rng.next() % 1000) / 1000 * a,
                                      Float(rng.next() % 1000) / 1000 * a, a)
            }
            var fixed = [UInt8](repeating: 7, count: output * 4)
            var byCount = [UInt8](repeating: 9, count: output * 4)
            row.withUnsafeBufferPointer { r in starts.withUnsafeBufferPointer { s in counts.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in splats.withUnsafeBufferPointer { sp in
                    fixed.withUnsafeMutableBufferPointer { f in
                        AreaResampler.reduceRow(r.baseAddress!, s.baseAddress!, c.baseAddress!, w.baseAddress!,
                                                sp.baseAddress!, x.stride, output, f.baseAddress!)
                    }
                    byCount.withUnsafeMutableBufferPointer { b in
                        AreaResampler.reduceRowByCount(r.baseAddress!, s.baseAddress!, c.baseAddress!, w.baseAddress!,
                                                       x.stride, output, b.baseAddress!)
                    }
                }}
            }}}
            let differing = fixed.indices.filter { fixed[$0] != byCount[$0] }
            XCTAssertTrue(differing.isEmpty, "\(source) → \(output), stride \(x.stride): \(differing.count) bytes differ, "
                          + "first at pixel \((differing.first ?? 0) / 4)")
            XCTAssertTrue(fixed.contains { $0 != 0 }, "the row should have visible pixels")
        }
    }
}
