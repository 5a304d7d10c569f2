import XCTest
import ImageCore
@testable import ImageQuantize

/// `PaletteMapper.remapUndithered(_:after:)` copies the rows and pixels a frame shares with an
/// earlier one: the result must be exactly what a remap from scratch gives.
final class DeltaRemapTests: XCTestCase {
    /// Runs of colours with random alpha (opaque, translucent, fully transparent with junk colour),
    /// so rows hold runs, single pixels and transparent stretches.
    private func frame(width: Int, height: Int, seed: UInt64) -> Image {
        var rng = SeededRandom(seed: seed)
        var img = Image(width: width, height: height)
        var c = RGBA(0, 0, 0, 0)
        for y in 0..<height {
            for x in 0..<width {
                if rng.below(4) == 0 { c = randomColor(&rng) }
                img[x, y] = c
            }
        }
        return img
    }

    private func randomColor(_ rng: inout SeededRandom) -> RGBA {
        switch rng.below(5) {
        case 0: return RGBA(rng.byte(), rng.byte(), rng.byte(), 0)
        case 1: return RGBA(rng.byte(), rng.byte(), rng.byte(), rng.byte())
        default: return RGBA(rng.byte(), rng.byte(), rng.byte(), 255)
        }
    }

    /// `base` with some whole rows redrawn, some pixels and short spans changed (to other colours,
    /// to transparent with other junk colour, to translucent), and the rest left alone.
    private func changed(_ base: Image, seed: UInt64) -> Image {
        var rng = SeededRandom(seed: seed)
        var img = base
        for y in 0..<base.height {
            switch rng.below(4) {
            case 0: // whole row redrawn
                for x in 0..<base.width { img[x, y] = randomColor(&rng) }
            case 1: // a few spans
                for _ in 0..<(1 + rng.below(3)) {
                    let x0 = rng.below(base.width), len = 1 + rng.below(8)
                    let c = randomColor(&rng)
                    for x in x0..<min(base.width, x0 + len) { img[x, y] = c }
                }
            case 2: // single pixels, among them alpha-0 pixels whose junk colour changed
                for _ in 0..<(1 + rng.below(4)) {
                    let x = rng.below(base.width)
                    let p = img[x, y]
                    img[x, y] = p.a == 0 ? RGBA(p.r &+ 1, p.g, p.b, 0) : randomColor(&rng)
                }
            default: break // unchanged row
            }
        }
        if img == base { img[0, 0] = RGBA(1, 2, 3, 200) }
        return img
    }

    private func palette(_ frames: [Image], colors: Int) -> Palette {
        var h = Histogram()
        for f in frames { h.add(f) }
        return Quantizer.palette(from: h, maxColors: colors)
    }

    /// Each row's error as defined: over its runs of equal pixels, run length × the distance to
    /// the run's entry; alpha-0 pixels count nothing when the palette has (0,0,0,0).
    private func expectedRowErrors(_ img: Image, _ out: IndexedImage) -> [Double] {
        let hasClear = out.palette.contains(RGBA(0, 0, 0, 0))
        return (0..<img.height).map { y in
            var sum = 0.0
            var x = 0
            while x < img.width {
                var e = x + 1
                while e < img.width && img[e, y] == img[x, y] { e += 1 }
                let p = img[x, y]
                if !(p.a == 0 && hasClear) {
                    let q = out.palette[Int(out.indices[y * img.width + x])]
                    sum += Double(ErrorSpace.distance2(ErrorSpace.point(p), ErrorSpace.point(q))) * Double(e - x)
                }
                x = e
            }
            return sum
        }
    }

    /// Nearest entry by a plain scan (ties to the lowest index), alpha-0 pixels to (0,0,0,0).
    private func scanned(_ img: Image, _ palette: [RGBA]) -> [UInt8] {
        let clear = palette.firstIndex(of: RGBA(0, 0, 0, 0))
        var out = [UInt8]()
        for y in 0..<img.height {
            for x in 0..<img.width {
                let p = img[x, y]
                if p.a == 0, let c = clear { out.append(UInt8(c)); continue }
                let xp = ErrorSpace.point(p)
                var best = 0
                var bestD = Float.infinity
                for (j, q) in palette.enumerated() {
                    let d = ErrorSpace.distance2(xp, ErrorSpace.point(q))
                    if d < bestD { best = j; bestD = d }
                }
                out.append(UInt8(best))
            }
        }
        return out
    }

    private func assertDeltaEqualsFull(_ f0: Image, _ f1: Image, colors: Int, file: StaticString = #filePath, line: UInt = #line) {
        let pal = palette([f0, f1], colors: colors)
        let mapper = PaletteMapper(pal)
        let first = mapper.remapUndithered(f0)
        let delta = mapper.remapUndithered(f1, after: (frame: f0, remap: first))
        let full = PaletteMapper(pal).remapUndithered(f1)
        XCTAssertEqual(delta.image, full.image, "indices", file: file, line: line)
        XCTAssertEqual(delta.rowErrors, full.rowErrors, "row errors, bit for bit", file: file, line: line)
        XCTAssertEqual(delta.meanSquaredError, full.meanSquaredError, "error, bit for bit", file: file, line: line)
        // And both are what the plain remap and the definitions give.
        let plain = PaletteMapper(pal).remap(f1, dithering: 0)
        XCTAssertEqual(plain.image, full.image, file: file, line: line)
        XCTAssertEqual(plain.meanSquaredError, full.meanSquaredError, file: file, line: line)
        XCTAssertEqual(full.image.indices, scanned(f1, pal.colors), "nearest entries", file: file, line: line)
        XCTAssertEqual(full.rowErrors, expectedRowErrors(f1, full.image), file: file, line: line)
        var total = 0.0
        for r in full.rowErrors { total += r }
        XCTAssertEqual(full.meanSquaredError, total / 3 / Double(f1.width * f1.height), file: file, line: line)
        XCTAssertEqual(full.meanSquaredError, DirectMetric.meanSquaredError(f1, full.image.expanded()),
                       accuracy: 1e-9 + 1e-6 * full.meanSquaredError, "against the metric written out directly", file: file, line: line)
    }

    func testDeltaRemapEqualsFullRemapOnRandomChanges() {
        var seed: UInt64 = 1
        // 1-row and 1-column frames, small ones, and one large enough to be cut into bands.
        for (w, h) in [(57, 1), (1, 23), (40, 30), (300, 250)] {
            for colors in [8, 64] {
                let f0 = frame(width: w, height: h, seed: seed)
                let f1 = changed(f0, seed: seed + 100)
                XCTAssertNotEqual(f0, f1)
                assertDeltaEqualsFull(f0, f1, colors: colors)
                seed += 1
            }
        }
        XCTAssertEqual(Remapper.bands(width: 300, height: 250), Remapper.bandCount)
    }

    func testIdenticalAndUnrelatedFramesGiveTheFullRemap() {
        let f0 = frame(width: 64, height: 48, seed: 7)
        assertDeltaEqualsFull(f0, f0, colors: 32)
        assertDeltaEqualsFull(f0, frame(width: 64, height: 48, seed: 8), colors: 32)
    }

    /// A chain where each frame reuses the one before, as the animation search does.
    func testChainOfDeltaRemaps() {
        var frames = [frame(width: 90, height: 70, seed: 21)]
        for k in 1..<6 { frames.append(changed(frames[k - 1], seed: 200 + UInt64(k))) }
        let pal = palette(frames, colors: 48)
        let mapper = PaletteMapper(pal)
        var previous: (frame: Image, remap: RowRemap)? = nil
        for f in frames {
            let r = mapper.remapUndithered(f, after: previous)
            let full = PaletteMapper(pal).remapUndithered(f)
            XCTAssertEqual(r.image, full.image)
            XCTAssertEqual(r.rowErrors, full.rowErrors)
            XCTAssertEqual(r.meanSquaredError, full.meanSquaredError)
            previous = (f, r)
        }
    }

    /// The rows found equal in one remap are handed to a remap of the same two frames at another
    /// palette (as the animation search does across colour counts): same result as comparing.
    func testEqualRowsAreReportedAndReusable() {
        let f0 = frame(width: 70, height: 40, seed: 51)
        let f1 = changed(f0, seed: 52)
        let a = PaletteMapper(palette([f0, f1], colors: 24))
        let first = a.remapUndithered(f1, after: (frame: f0, remap: a.remapUndithered(f0)))
        let rowBytes = 70 * 4
        let expected = (0..<40).map { y in f0.pixels[(y * rowBytes)..<((y + 1) * rowBytes)] == f1.pixels[(y * rowBytes)..<((y + 1) * rowBytes)] }
        XCTAssertEqual(first.equalRows, expected)
        XCTAssertTrue(expected.contains(true) && expected.contains(false))
        XCTAssertEqual(a.remapUndithered(f0).equalRows, [], "nothing to compare with")

        let pal = palette([f0, f1], colors: 9)
        let b = PaletteMapper(pal)
        let reused = b.remapUndithered(f1, after: (frame: f0, remap: b.remapUndithered(f0)), equalRows: first.equalRows)
        let full = PaletteMapper(pal).remapUndithered(f1)
        XCTAssertEqual(reused.image, full.image)
        XCTAssertEqual(reused.rowErrors, full.rowErrors)
        XCTAssertEqual(reused.meanSquaredError, full.meanSquaredError)
        XCTAssertEqual(reused.equalRows, expected)
    }

    /// An earlier remap to another palette or of another size must not be copied from.
    func testMismatchedPreviousIsIgnored() {
        let f0 = frame(width: 50, height: 40, seed: 31)
        let f1 = changed(f0, seed: 32)
        let pal = palette([f0, f1], colors: 16)
        let other = PaletteMapper(palette([f0], colors: 6)).remapUndithered(f0)
        let full = PaletteMapper(pal).remapUndithered(f1)
        let mapper = PaletteMapper(pal)
        let r = mapper.remapUndithered(f1, after: (frame: f0, remap: other))
        XCTAssertEqual(r.image, full.image)
        XCTAssertEqual(r.rowErrors, full.rowErrors)
        let small = frame(width: 50, height: 39, seed: 33)
        let r2 = mapper.remapUndithered(f1, after: (frame: small, remap: mapper.remapUndithered(small)))
        XCTAssertEqual(r2.image, full.image)
        XCTAssertEqual(r2.meanSquaredError, full.meanSquaredError)
    }

    func testEmptyFrames() {
        let f = frame(width: 8, height: 8, seed: 61)
        let mapper = PaletteMapper(palette([f], colors: 4))
        for (w, h) in [(0, 0), (0, 5), (5, 0)] {
            let empty = Image(width: w, height: h)
            let r = mapper.remapUndithered(empty, after: (frame: empty, remap: mapper.remapUndithered(empty)))
            XCTAssertEqual(r.image.indices, [])
            XCTAssertEqual(r.meanSquaredError, 0)
        }
    }

    /// A palette without (0,0,0,0): alpha-0 pixels are searched like any other colour.
    func testPaletteWithoutTransparentEntry() {
        let f0 = frame(width: 45, height: 20, seed: 41)
        let f1 = changed(f0, seed: 42)
        let pal = Palette(colors: [RGBA(10, 20, 30), RGBA(200, 100, 50), RGBA(90, 90, 90, 128), RGBA(255, 255, 255, 40)], exact: false)
        let mapper = PaletteMapper(pal)
        let first = mapper.remapUndithered(f0)
        let delta = mapper.remapUndithered(f1, after: (frame: f0, remap: first))
        let full = PaletteMapper(pal).remapUndithered(f1)
        XCTAssertEqual(delta.image, full.image)
        XCTAssertEqual(delta.rowErrors, full.rowErrors)
        XCTAssertEqual(full.image.indices, scanned(f1, pal.colors))
        XCTAssertEqual(full.rowErrors, expectedRowErrors(f1, full.image))
    }
}
