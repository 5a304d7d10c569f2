import Foundation
import ImageCore
import XCTest
@testable import PNGEncoding

/// Encoding with a layout found earlier (`encodeAnimationWithLayout`, then
/// `encodeAnimation(…, layout:)`), and the canvas bookkeeping behind the layout search.
final class APNGLayoutTests: XCTestCase {
    /// The palette animations of the encoder tests: walks (every dispose/blend path), sprites
    /// over transparency (BACKGROUND), identical frames (merging, the two-frame special case).
    static func animations() -> [(name: String, frames: [IndexedImage], delays: [Delay])] {
        var out: [(String, [IndexedImage], [Delay])] = []
        let palettes = [TestImages.palette(5, translucent: true, seed: 1), TestImages.palette(13, translucent: false, seed: 3),
                        [RGBA(0, 0, 0, 0)] + TestImages.palette(200, translucent: true, seed: 4),
                        TestImages.palette(16, translucent: false, seed: 2)]
        for (p, palette) in palettes.enumerated() {
            for seed in 0..<4 as Range<UInt64> {
                let (w, h) = [(1, 1), (23, 17), (9, 30), (40, 8)][Int(seed)]
                let walk = APNGEncoderTests.walk(width: w, height: h, frames: 2 + Int(seed) * 4, palette: palette, seed: seed * 7 + UInt64(p))
                let sprites = APNGEncoderTests.sprites(width: w + 20, height: h + 10, frames: 3 + Int(seed) * 2, palette: palette, seed: seed)
                for (kind, frames) in [("walk", walk), ("sprites", sprites)] {
                    out.append(("\(kind) p\(p) s\(seed)", frames, APNGEncoderTests.randomDelays(frames.count, seed: seed)))
                }
            }
            let still = APNGEncoderTests.walk(width: 6, height: 5, frames: 1, palette: palette, seed: UInt64(p))[0]
            out.append(("identical p\(p)", [still, still, still], [Delay(milliseconds: 30), .zero, Delay(milliseconds: 70)]))
            out.append(("identical, no rest p\(p)", [still, still], [Delay(milliseconds: 30), .zero]))
        }
        return out
    }

    func assertDecodesExactly(_ apng: [UInt8], _ frames: [IndexedImage], _ delays: [Delay], loopCount: Int, _ name: String,
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let info = try APNGValidator.validate(apng)
        let (expectFrames, expectDelays) = APNGEncoderTests.merged(frames.map { $0.expanded() }, delays)
        let decoded = try APNGTestDecoder.decode(apng)
        XCTAssertEqual(decoded.frames, expectFrames, name, file: file, line: line)
        if info.isAnimated {
            XCTAssertEqual(info.numPlays, loopCount, name, file: file, line: line)
            XCTAssertEqual(decoded.delays.map { Delay(numerator: $0.0, denominator: $0.1) }, expectDelays, name, file: file, line: line)
        }
    }

    /// `bytesByInputFrame` gives each written frame's bytes in the file (its fcTL and its
    /// IDAT or fdAT chunks, read back) at the input frame it starts at, and nothing at the
    /// frames merged into it.
    func testBytesByInputFrameAreEachWrittenFramesChunks() throws {
        for a in Self.animations() {
            let (bytes, layout) = try PNGEncoder.encodeAnimationWithLayout(frames: a.frames, delays: a.delays, loopCount: 0,
                                                                           effort: .fast, alwaysAnimated: true)
            var groups: [Int] = []
            for chunk in try PNGChunkParser.parse(bytes) {
                switch chunk.type {
                case "fcTL": groups.append(12 + chunk.data.count)
                case "IDAT", "fdAT": groups[groups.count - 1] += 12 + chunk.data.count
                default: break
                }
            }
            let perFrame = layout.bytesByInputFrame
            XCTAssertEqual(perFrame.count, a.frames.count, a.name)
            XCTAssertEqual(perFrame.filter { $0 > 0 }, groups, a.name)
            XCTAssertGreaterThan(perFrame[0], 0, a.name)
            // The frames merged into a written frame (identical to its first) add nothing.
            for f in layout.frames {
                for i in (f.start + 1)..<f.end { XCTAssertEqual(perFrame[i], 0, "\(a.name) frame \(i)") }
            }
            XCTAssertEqual(perFrame.filter { $0 > 0 }.count, layout.writtenFrameCount, a.name)
        }
    }

    func testReusedLayoutGivesTheFreshBytesAtEveryEffort() throws {
        var reused = 0
        for a in Self.animations() {
            for animated in [false, true] {
                let (fast, layout) = try PNGEncoder.encodeAnimationWithLayout(frames: a.frames, delays: a.delays, loopCount: 2,
                                                                              effort: .fast, alwaysAnimated: animated)
                XCTAssertEqual(fast, try PNGEncoder.encodeAnimation(frames: a.frames, delays: a.delays, loopCount: 2,
                                                                    effort: .fast, alwaysAnimated: animated), a.name)
                XCTAssertEqual(layout.frameCount, a.frames.count)
                XCTAssertEqual(layout.streamBytes.count, layout.writtenFrameCount)
                for effort in Effort.allCases {
                    let fresh = try PNGEncoder.encodeAnimationWithLayout(frames: a.frames, delays: a.delays, loopCount: 2,
                                                                         effort: effort, alwaysAnimated: animated)
                    // Candidates are ranked the same way at every effort, so every effort finds this layout.
                    XCTAssertEqual(fresh.layout.frames, layout.frames, "\(a.name) \(effort)")
                    let again = try PNGEncoder.encodeAnimation(frames: a.frames, delays: a.delays, loopCount: 2, effort: effort,
                                                               alwaysAnimated: animated, layout: layout)
                    XCTAssertEqual(again, fresh.bytes, "\(a.name) \(effort)")
                    try assertDecodesExactly(again, a.frames, a.delays, loopCount: 2, "\(a.name) \(effort)")
                    reused += 1
                }
            }
        }
        XCTAssertEqual(reused, Self.animations().count * 2 * Effort.allCases.count)
    }

    /// A layout made for other frames is refused with a typed error when it does not reproduce
    /// these, and gives an exact file when it does.
    func testLayoutOfOtherFramesIsCheckedAgainstThePixels() throws {
        let palette = [RGBA(0, 0, 0, 0), RGBA(200, 10, 10), RGBA(10, 200, 10), RGBA(10, 10, 200, 128)]
        // A checkerboard of opaque red and green, one transparent pixel (so OVER has a transparent entry).
        let base = IndexedImage(width: 30, height: 20, palette: palette, indices: (0..<600).map { $0 == 599 ? 0 : UInt8(1 + $0 % 2) })
        func changed(_ points: [(Int, Int)], to index: UInt8) -> IndexedImage {
            var f = base
            for (x, y) in points { f.indices[y * 30 + x] = index }
            return f
        }
        let d = [Delay(milliseconds: 40), Delay(milliseconds: 40), Delay(milliseconds: 40)]
        // Two opaque changes far apart: one OVER frame over the rectangle between them.
        let corners = changed([(2, 2), (26, 15)], to: 2)
        let (_, layout) = try PNGEncoder.encodeAnimationWithLayout(frames: [base, corners], delays: Array(d[0..<2]))
        XCTAssertEqual(layout.writtenFrameCount, 2)
        XCTAssertEqual(layout.frames[1].blend, .over, "the test needs an OVER frame")
        let (_, merging) = try PNGEncoder.encodeAnimationWithLayout(frames: [base, base, corners], delays: d)

        func assertRefused(_ frames: [IndexedImage], _ layout: APNGLayout, _ what: String, line: UInt = #line) {
            XCTAssertThrowsError(try PNGEncoder.encodeAnimation(frames: frames, delays: Array(d.prefix(frames.count)), layout: layout),
                                 what, line: line) { error in
                let e = error as? ImageError
                XCTAssertEqual(e?.kind, .parameter, what, line: line)
                XCTAssertEqual(e?.format, .apng, what, line: line)
            }
        }
        assertRefused([base, corners, corners], layout, "another frame count")
        let small = IndexedImage(width: 29, height: 20, palette: palette, indices: [UInt8](repeating: 1, count: 580))
        assertRefused([small, small], layout, "another size")
        assertRefused([base, changed([(0, 19)], to: 2)], layout, "a change outside the written rectangle")
        assertRefused([base, changed([(10, 10)], to: 3)], layout, "a translucent change in an OVER frame")
        assertRefused([base, corners, corners], merging, "a frame the layout merges differs")

        // Other frames that the layout does reproduce: written exactly.
        let inside = changed([(2, 2), (10, 10), (26, 15)], to: 2)
        let apng = try PNGEncoder.encodeAnimation(frames: [base, inside], delays: Array(d[0..<2]), effort: .default, layout: layout)
        try assertDecodesExactly(apng, [base, inside], Array(d[0..<2]), loopCount: 0, "changes inside the rectangle")
    }

    /// The canvas derives BACKGROUND's rectangle without building the disposed canvas; this builds
    /// it the plain way (copy, clear the rectangle, compare every pixel) and compares.
    func testCanvasBoundsMatchTheDisposedCanvasBuiltInFull() throws {
        var checked = 0
        for a in Self.animations() where a.frames.count > 1 && a.frames[0].indices.count > 1 {
            let e = try APNGEncoder(indexed: a.frames, delays: a.delays, loopCount: 0)
            var canvas = APNGCanvas(width: e.width, height: e.height, clearKey: e.clearKey)
            a.frames[0].indices.withUnsafeBytes { e.keys(ofSamples: $0, into: &canvas.previous) }
            var r = SeededRandom(UInt64(checked))
            for i in 1..<a.frames.count {
                var want = [UInt32](repeating: 0, count: e.width * e.height)
                a.frames[i].indices.withUnsafeBytes { e.keys(ofSamples: $0, into: &want) }
                let previous = canvas.previous
                _ = a.frames[i].indices.withUnsafeBytes { cur in
                    a.frames[i - 1].indices.withUnsafeBytes { prev in e.load(cur, prev, damage: nil, into: &canvas) }
                }
                XCTAssertEqual(canvas.crop(CanvasRect(x: 0, y: 0, width: e.width, height: e.height)), want, a.name)
                XCTAssertEqual(canvas.noneBounds(), Self.bounds(want, previous, width: e.width), a.name)
                for _ in 0..<4 {
                    let x = r.below(e.width), y = r.below(e.height)
                    let d = CanvasRect(x: x, y: y, width: 1 + r.below(e.width - x), height: 1 + r.below(e.height - y))
                    var disposed = previous
                    for yy in d.y..<(d.y + d.height) { for xx in d.x..<(d.x + d.width) { disposed[yy * e.width + xx] = e.clearKey } }
                    XCTAssertEqual(canvas.backgroundBounds(disposed: d), Self.bounds(want, disposed, width: e.width), "\(a.name) frame \(i)")
                    checked += 1
                }
                canvas.commit()
                XCTAssertEqual(canvas.previous, want)
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    static func bounds(_ a: [UInt32], _ b: [UInt32], width: Int) -> CanvasRect? {
        var l = Int.max, t = Int.max, r = -1, btm = -1
        for i in a.indices where a[i] != b[i] {
            let x = i % width, y = i / width
            l = min(l, x); r = max(r, x); t = min(t, y); btm = max(btm, y)
        }
        return r < 0 ? nil : CanvasRect(x: l, y: t, width: r - l + 1, height: btm - t + 1)
    }

    /// `shrinkAnimation`: exactly the frames, within the bytes asked for when a fresh slower
    /// encode gets there, recompressing no more than needed.
    func testShrinkRecompressesOnlyWhatTheBudgetNeeds() throws {
        var partial = 0
        for a in Self.animations() where a.frames.count >= 5 {
            let (fast, layout) = try PNGEncoder.encodeAnimationWithLayout(frames: a.frames, delays: a.delays, loopCount: 0,
                                                                          effort: .fast, alwaysAnimated: true)
            let slow = try PNGEncoder.encodeAnimation(frames: a.frames, delays: a.delays, loopCount: 0, effort: .default,
                                                      alwaysAnimated: true)
            func shrink(_ budget: Int) throws -> [UInt8] {
                try PNGEncoder.shrinkAnimation(frames: a.frames, delays: a.delays, alwaysAnimated: true, layout: layout,
                                               effort: .default, maxBytes: budget)
            }
            XCTAssertEqual(try shrink(fast.count), fast, "\(a.name): fits already, nothing recompressed")
            XCTAssertEqual(try shrink(1), slow, "\(a.name): nothing fits, every frame recompressed")
            guard slow.count < fast.count - 2 else { continue }
            let between = (fast.count + slow.count) / 2
            let s = try shrink(between)
            try assertDecodesExactly(s, a.frames, a.delays, loopCount: 0, a.name)
            XCTAssertLessThanOrEqual(s.count, between, a.name)
            if s != slow { partial += 1 }
        }
        XCTAssertGreaterThan(partial, 0, "some budget between the two was met without recompressing every frame")
    }

    /// `shrinkAnimation` a little over the budget: the measured level-7 saving covers the
    /// excess, so the file fits with level-6 and level-7 streams only, the pixels unchanged.
    func testShrinkTriesTheLighterLevelWhenItsMeasuredSavingCovers() throws {
        let palette = TestImages.palette(24, translucent: false, seed: 5)
        let w = 160, h = 160
        let frames = (0..<8).map { f in
            IndexedImage(width: w, height: h, palette: palette, indices: (0..<(w * h)).map { i in
                let x = i % w, y = i / w
                let dx = x - 30 - 12 * f, dy = y - 80 + 5 * f
                if dx * dx + dy * dy < 400 { return UInt8(12 + (x ^ y) % 5) }
                return UInt8((x / 6 + y / 10 + (x * y) % 3) % 9)
            })
        }
        let delays = [Delay](repeating: Delay(milliseconds: 50), count: frames.count)
        let (fast, layout) = try PNGEncoder.encodeAnimationWithLayout(frames: frames, delays: delays, loopCount: 0,
                                                                      effort: .fast, alwaysAnimated: true)
        XCTAssertEqual(PNGEncoder.sampledSaving(layout, level: 6), 0, "the probe's own level saves nothing")
        let light = try XCTUnwrap(PNGEncoder.sampledSaving(layout, level: 7))
        let full = try XCTUnwrap(PNGEncoder.sampledSaving(layout, level: 10))
        XCTAssertGreaterThan(light, 0)
        XCTAssertGreaterThan(full, light)
        let streams = Double(layout.streamBytes.reduce(0, +))
        let budget = fast.count - Int(light * streams / (PNGEncoder.lightMargin * 2))
        let shrunk = try PNGEncoder.shrinkAnimation(frames: frames, delays: delays, alwaysAnimated: true, layout: layout,
                                                    effort: .default, maxBytes: budget)
        XCTAssertLessThanOrEqual(shrunk.count, budget)
        try assertDecodesExactly(shrunk, frames, delays, loopCount: 0, "shrunk")
        // Every frame's stream is its level-6 or its level-7 one; some are level 7.
        var streamsRead: [[UInt8]] = []
        for chunk in try PNGChunkParser.parse(shrunk) {
            switch chunk.type {
            case "fcTL": streamsRead.append([])
            case "IDAT": streamsRead[streamsRead.count - 1] += chunk.data
            case "fdAT": streamsRead[streamsRead.count - 1] += chunk.data.dropFirst(4)
            default: break
            }
        }
        let compressor = ZlibCompressor()
        var atSeven = 0
        for stream in streamsRead {
            let raw = try XCTUnwrap(ZlibCompressor.inflate(stream, capacity: (w + 1) * h))
            let six = compressor.compress(raw, level: 6), seven = compressor.compress(raw, level: 7)
            XCTAssertTrue(stream == six || stream == seven)
            if stream == seven && seven != six { atSeven += 1 }
        }
        XCTAssertGreaterThan(atSeven, 0)
    }
}
