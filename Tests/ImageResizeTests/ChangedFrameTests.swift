import XCTest
import ImageCore
@testable import ImageResize

/// The frame-to-frame path (`resample(_:previous:previousOutput:)`, which recomputes only the
/// output pixels a change reaches) against resampling the whole frame: the bytes must be equal.
final class ChangedFrameTests: XCTestCase {
    /// A geometry: source size, output size, scale and offset per axis.
    struct Shape {
        var source: (Int, Int)
        var output: (Int, Int)
        var scale: (Double, Double)
        var offset: (Double, Double)
    }

    static let shapes: [Shape] = [
        Shape(source: (5, 7), output: (19, 23), scale: (3.7, 3.1), offset: (0.4, 0.6)),          // enlarge
        Shape(source: (1, 3), output: (9, 13), scale: (8.5, 4.2), offset: (0.25, 0)),            // 1-px wide
        Shape(source: (3, 1), output: (13, 9), scale: (4.2, 8.5), offset: (0, 0.25)),            // 1-px tall
        Shape(source: (1, 1), output: (7, 7), scale: (6.3, 6.3), offset: (0.35, 0.35)),          // one pixel
        Shape(source: (37, 29), output: (45, 45), scale: (1.207, 1.207), offset: (0.3, 4.9)),    // mild enlarge, padded
        Shape(source: (97, 61), output: (23, 17), scale: (0.237, 0.27), offset: (0.31, 0.55)),   // reduce
        Shape(source: (41, 33), output: (25, 21), scale: (0.6035, 0.6035), offset: (0, 0.54)),   // 2–3 taps
        Shape(source: (41, 6), output: (13, 17), scale: (0.31, 2.7), offset: (0.3, 0.4)),        // mixed
        Shape(source: (33, 17), output: (15, 15), scale: (0.9, 0.9), offset: (-7.35, 0)),        // crop
        Shape(source: (13, 9), output: (13, 9), scale: (1, 1), offset: (0, 0)),                  // identity
    ]

    /// Edits of a frame: each returns a copy of `img` with some pixels changed.
    static func edits(_ img: Image, _ rng: inout SeededGenerator) -> [Image] {
        let w = img.width, h = img.height
        func changed(_ rects: [(Int, Int, Int, Int)], _ rng: inout SeededGenerator) -> Image {
            var out = img
            for (x0, y0, rw, rh) in rects {
                for y in y0..<min(h, y0 + rh) {
                    for x in x0..<min(w, x0 + rw) {
                        var p = out[x, y]
                        // Translucent and transparent values, colour under alpha 0 too.
                        switch rng.next() % 4 {
                        case 0: p.a = 0; p.r &+= 1 + UInt8(rng.next() % 200)
                        case 1: p.a = UInt8(rng.next() % 256)
                        case 2: p.g &+= 1 + UInt8(rng.next() % 254)
                        default: p = RGBA(UInt8(rng.next() % 256), UInt8(rng.next() % 256), UInt8(rng.next() % 256), 255)
                        }
                        out[x, y] = p
                    }
                }
            }
            return out
        }
        var list: [Image] = []
        list.append(changed([(0, 0, 1, 1)], &rng))                             // top-left pixel
        list.append(changed([(w - 1, h - 1, 1, 1)], &rng))                     // bottom-right pixel
        list.append(changed([(w / 2, h / 2, 1, 1)], &rng))                     // one inner pixel
        list.append(changed([(0, h / 3, w, 1)], &rng))                         // one whole row
        list.append(changed([(w / 3, 0, 1, h)], &rng))                         // one whole column
        list.append(changed([(0, 0, w, h)], &rng))                             // everything
        for _ in 0..<4 {                                                       // random rectangles
            var rects: [(Int, Int, Int, Int)] = []
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let x0 = Int(rng.next() % UInt64(w)), y0 = Int(rng.next() % UInt64(h))
                rects.append((x0, y0, 1 + Int(rng.next() % UInt64(max(1, w / 2))), 1 + Int(rng.next() % UInt64(max(1, h / 2)))))
            }
            list.append(changed(rects, &rng))
        }
        return list
    }

    private func check(_ shape: Shape, linear: Bool, seed: UInt64, file: StaticString = #filePath, line: UInt = #line) {
        var rng = SeededGenerator(seed: seed)
        let (sw, sh) = shape.source
        let x = AxisWeights(sourceCount: sw, outputCount: shape.output.0, scale: shape.scale.0, offset: shape.offset.0)
        let y = AxisWeights(sourceCount: sh, outputCount: shape.output.1, scale: shape.scale.1, offset: shape.offset.1)
        let resampler = AreaResampler(x: x, y: y, sourceWidth: sw, linear: linear)
        var previous = randomImage(sw, sh, &rng)
        var previousOutput = resampler.resample(previous)
        for (k, next) in Self.edits(previous, &rng).enumerated() {
            let whole = resampler.resample(next)
            if let partial = resampler.resample(next, previous: previous, previousOutput: previousOutput) {
                XCTAssertTrue(partial == whole, "edit \(k): \(describeDifference(partial, whole))", file: file, line: line)
            } else {
                // Nil promises that the output did not change.
                XCTAssertTrue(previousOutput == whole, "edit \(k) reported unchanged: \(describeDifference(previousOutput, whole))",
                              file: file, line: line)
            }
            // Chain the frames so that later edits start from an already partial result.
            previous = next
            previousOutput = whole
        }
        XCTAssertNil(resampler.resample(previous, previous: previous, previousOutput: previousOutput),
                     "an identical frame is unchanged", file: file, line: line)
    }

    /// The first differing byte and how many differ, instead of two whole arrays.
    private func describeDifference(_ a: [UInt8], _ b: [UInt8]) -> String {
        guard a.count == b.count else { return "\(a.count) bytes against \(b.count)" }
        let differing = a.indices.filter { a[$0] != b[$0] }
        guard let i = differing.first else { return "equal" }
        return "\(differing.count) bytes differ, first at pixel \(i / 4) channel \(i % 4): \(a[i]) against \(b[i])"
    }

    func testChangedFramesEqualWholeFrames() {
        for (i, shape) in Self.shapes.enumerated() {
            check(shape, linear: false, seed: UInt64(100 + i))
        }
    }

    func testChangedFramesEqualWholeFramesInLinearLight() {
        for (i, shape) in Self.shapes.enumerated() {
            check(shape, linear: true, seed: UInt64(200 + i))
        }
    }

    /// One-row edits at the reductions and enlargements of the animated corpus (512 → 618,
    /// 1024 → 618, 960 → 300, 148 → 618). A row recomputed after an unchanged one converts the
    /// row it shares with that one itself; a one-ulp slip there changes an output byte only
    /// rarely, so this compares the float rows themselves, bit for bit.
    func testRecomputedRowsAreBitwiseThoseOfTheWholeFrame() {
        var rng = SeededGenerator(seed: 77)
        for scale in [1.207, 0.6035, 0.3125, 4.18] {
            for linear in [false, true] {
                let (sw, sh) = (40, 48)
                let ow = Int((Double(sw) * scale).rounded(.up)), oh = Int((Double(sh) * scale).rounded(.up))
                let x = AxisWeights(sourceCount: sw, outputCount: ow, scale: scale, offset: 0.3)
                let y = AxisWeights(sourceCount: sh, outputCount: oh, scale: scale, offset: 0.45)
                let resampler = AreaResampler(x: x, y: y, sourceWidth: sw, linear: linear)
                var rows: [Int: (Int, [SIMD4<Float>])] = [:]
                resampler.rowObserver = { oy, c0, row in rows[oy] = (c0, Array(row)) }
                var frame = randomImage(sw, sh, &rng)
                var output = resampler.resample(frame)
                var compared = 0
                for _ in 0..<8 {
                    var next = frame
                    let r = Int(rng.next() % UInt64(sh))
                    for x in 0..<sw {
                        next[x, r] = RGBA(.random(in: 0...255, using: &rng), .random(in: 0...255, using: &rng),
                                          .random(in: 0...255, using: &rng), .random(in: 1...255, using: &rng))
                    }
                    rows = [:]
                    let whole = resampler.resample(next)
                    let wholeRows = rows
                    rows = [:]
                    let partial = resampler.resample(next, previous: frame, previousOutput: output)
                    XCTAssertTrue(partial == whole, "scale \(scale) linear \(linear) row \(r)")
                    XCTAssertFalse(rows.isEmpty, "a changed row is recomputed")
                    for (oy, (c0, row)) in rows {
                        guard let (w0, wholeRow) = wholeRows[oy] else { XCTFail("row \(oy) missing"); continue }
                        for (i, v) in row.enumerated() where v != wholeRow[c0 - w0 + i] {
                            XCTFail("scale \(scale) linear \(linear) output row \(oy) column \(c0 + i): \(v) against \(wholeRow[c0 - w0 + i])")
                            break
                        }
                        compared += 1
                    }
                    frame = next
                    output = whole
                }
                XCTAssertGreaterThan(compared, 8, "scale \(scale)")
            }
        }
    }

    /// The changed span of a row against a plain search, for every pair of changed positions
    /// in rows of several widths (the 8-pixel steps and the pixel steps, both ends).
    func testChangedSpanFindsTheFirstAndLastDifference() {
        for n in [1, 7, 8, 9, 17, 40] {
            let base = (0..<n * 4).map { UInt8(truncatingIfNeeded: $0 &* 37) }
            for first in 0..<n {
                for last in first..<n where last == first || last == n - 1 || (last - first) % 5 == 0 {
                    var other = base
                    other[first * 4 + 3] &+= 1
                    other[last * 4] &+= 1
                    let span = base.withUnsafeBytes { a in other.withUnsafeBytes { b in
                        AreaResampler.changedSpan(a.baseAddress!, b.baseAddress!, n)
                    } }
                    XCTAssertTrue(span == (first, last + 1), "n \(n): \(span) for \(first)…\(last)")
                }
            }
            let same = base.withUnsafeBytes { a in base.withUnsafeBytes { AreaResampler.changedSpan(a.baseAddress!, $0.baseAddress!, n) } }
            XCTAssertTrue(same == (0, 0), "n \(n): equal rows")
        }
    }

    /// A change the output cannot see (outside a cover crop) is reported as no change.
    func testChangeOutsideTheVisibleWindowIsNoChange() {
        var rng = SeededGenerator(seed: 7)
        let img = randomImage(40, 20, &rng)
        let x = AxisWeights(sourceCount: 40, outputCount: 10, scale: 0.5, offset: -10)  // reads columns 20…39
        let y = AxisWeights(sourceCount: 20, outputCount: 10, scale: 0.5, offset: 0)
        let resampler = AreaResampler(x: x, y: y, sourceWidth: 40, linear: false)
        let out = resampler.resample(img)
        var edited = img
        edited[3, 5] = RGBA(edited[3, 5].r &+ 1, 1, 2, 200)
        XCTAssertEqual(resampler.resample(edited), out)
        XCTAssertNil(resampler.resample(edited, previous: img, previousOutput: out))
        edited[25, 5] = RGBA(edited[25, 5].r &+ 1, 1, 2, 200)
        XCTAssertEqual(resampler.resample(edited, previous: img, previousOutput: out), resampler.resample(edited))
    }

    /// `FrameFitter` on an animation whose frames change a little at a time: every frame equals
    /// the same frame fitted on its own, for contain, cover, inset, trim and linear fits.
    func testFrameFitterOnLocalChangesEqualsStills() {
        var rng = SeededGenerator(seed: 42)
        let (w, h) = (31, 22)
        var frame = randomImage(w, h, &rng)
        var frames: [Frame] = [Frame(image: frame, delay: Delay(centiseconds: 5))]
        for _ in 0..<12 {
            let edits = Self.edits(frame, &rng)
            frame = edits[Int(rng.next() % UInt64(edits.count))]
            frames.append(Frame(image: frame, delay: Delay(centiseconds: 5)))
            if rng.next() % 3 == 0 { frames.append(frames[frames.count - 1]) }  // a repeated frame
        }
        let anim = Animation(width: w, height: h, frames: frames, loopCount: 0)
        let optionSets = [
            FitOptions(size: 64), FitOptions(size: 17), FitOptions(size: 40, fit: .cover),
            FitOptions(size: 50, inset: 6, linear: true), FitOptions(size: 45, trim: true),
        ]
        for options in optionSets {
            let fitted = Resizer.fit(anim, options: options)
            for (i, f) in anim.frames.enumerated() {
                var still = options
                still.trim = false
                if options.trim {
                    // The trimmed crop is the union over all frames: fit a crop of it as a still.
                    var bounds = VisibleBounds()
                    for g in anim.frames { bounds.add(g.image) }
                    var one = FrameFitter(canvasWidth: w, canvasHeight: h, options: options, visibleBounds: bounds)
                    XCTAssertEqual(fitted.animation.frames[i].image, one.fit(f.image), "\(options) frame \(i)")
                } else {
                    XCTAssertEqual(fitted.animation.frames[i].image, fitStill(f.image, still), "\(options) frame \(i)")
                }
            }
        }
    }
}
