import ImageCore
import XCTest
@testable import PNGEncoding

final class APNGEncoderTests: XCTestCase {
    /// A random walk of frames over one palette: rectangles filled, cleared to transparent,
    /// scattered pixels, translucent patches, and repeated frames.
    static func walk(width: Int, height: Int, frames: Int, palette: [RGBA], seed: UInt64) -> [IndexedImage] {
        var r = SeededRandom(seed)
        let transparent = palette.firstIndex { $0.a == 0 }
        let translucent = palette.indices.filter { palette[$0].a > 0 && palette[$0].a < 255 }
        var idx = (0..<(width * height)).map { _ in UInt8(r.below(palette.count)) }
        var out: [IndexedImage] = []
        for _ in 0..<frames {
            let x = r.below(width), y = r.below(height)
            let w = 1 + r.below(width - x), h = 1 + r.below(height - y)
            let fill: UInt8
            switch r.below(6) {
            case 0: fill = UInt8(transparent ?? r.below(palette.count))
            case 1: fill = UInt8(translucent.isEmpty ? r.below(palette.count) : translucent[r.below(translucent.count)])
            case 2: fill = 255 // scattered pixels below
            case 3: fill = 254 // repeat the frame
            default: fill = UInt8(r.below(palette.count))
            }
            if fill == 255 {
                for _ in 0..<(1 + r.below(5)) { idx[r.below(idx.count)] = UInt8(r.below(palette.count)) }
            } else if fill != 254 {
                for yy in y..<(y + h) { for xx in x..<(x + w) { idx[yy * width + xx] = fill } }
            }
            out.append(IndexedImage(width: width, height: height, palette: palette, indices: idx))
        }
        return out
    }

    /// Sprites moving over a transparent background: the case where disposing to BACKGROUND pays.
    static func sprites(width: Int, height: Int, frames: Int, palette: [RGBA], seed: UInt64) -> [IndexedImage] {
        var r = SeededRandom(seed)
        let clear = UInt8(palette.firstIndex { $0.a == 0 } ?? 0)
        var out: [IndexedImage] = []
        for _ in 0..<frames {
            var idx = [UInt8](repeating: clear, count: width * height)
            for _ in 0..<(1 + r.below(2)) {
                let w = 1 + r.below(max(1, width / 3)), h = 1 + r.below(max(1, height / 3))
                let x = r.below(width - w + 1), y = r.below(height - h + 1)
                let a = UInt8(r.below(palette.count)), b = UInt8(r.below(palette.count))
                for yy in y..<(y + h) { for xx in x..<(x + w) { idx[yy * width + xx] = (xx + yy) % 3 == 0 ? a : b } }
            }
            out.append(IndexedImage(width: width, height: height, palette: palette, indices: idx))
        }
        return out
    }

    static func randomDelays(_ n: Int, seed: UInt64) -> [Delay] {
        var r = SeededRandom(seed)
        return (0..<n).map { _ in
            [Delay(milliseconds: 40 + r.below(200)), Delay(numerator: 1, denominator: 3 + r.below(60)),
             Delay(centiseconds: r.below(20)), Delay.zero][r.below(4)]
        }
    }

    /// Expected shown frames and delays: consecutive equal frames merged, delays summed.
    /// When every frame of a multi-frame input is the same, the encoder keeps two frames (the
    /// first frame's time, then the rest) so that viewers still see an animation.
    static func merged(_ frames: [Image], _ delays: [Delay]) -> ([Image], [Delay]) {
        var f: [Image] = [], d: [Delay] = []
        for (img, delay) in zip(frames, delays) {
            if let last = f.last, last == img { d[d.count - 1] = d[d.count - 1] + delay } else { f.append(img); d.append(delay) }
        }
        if f.count == 1, frames.count > 1 {
            let rest = delays.dropFirst().reduce(Delay.zero, +)
            if rest > .zero { return ([f[0], f[0]], [delays[0], rest]) }
        }
        return (f, d)
    }

    /// Validator, own decoder and exact frames + delays; returns the validator's result.
    @discardableResult
    func assertDecodesExactly(_ apng: [UInt8], frames: [Image], delays: [Delay], loopCount: Int,
                              file: StaticString = #filePath, line: UInt = #line) throws -> APNGValidator.Result {
        let info = try APNGValidator.validate(apng)
        let (expectFrames, expectDelays) = Self.merged(frames, delays)
        let decoded = try APNGTestDecoder.decode(apng)
        XCTAssertEqual(decoded.frames.count, expectFrames.count, file: file, line: line)
        for (n, (got, want)) in zip(decoded.frames, expectFrames).enumerated() where got != want {
            XCTFail("frame \(n) differs", file: file, line: line)
        }
        if info.isAnimated {
            XCTAssertTrue(info.frames[0].isDefaultImage, "the default image is the first frame", file: file, line: line)
            XCTAssertEqual(info.numPlays, loopCount, file: file, line: line)
            XCTAssertEqual(decoded.delays.map { Delay(numerator: $0.0, denominator: $0.1) }, expectDelays, file: file, line: line)
        }
        return info
    }

    func testAnimationOfIdenticalFramesStaysAnAPNGWithItsDuration() throws {
        let palette = TestImages.palette(5, translucent: true, seed: 9)
        let frame = IndexedImage(width: 7, height: 5, palette: palette, indices: (0..<35).map { UInt8($0 % 5) })
        let delays = [Delay(milliseconds: 1000), Delay(milliseconds: 1000), Delay(numerator: 1, denominator: 3)]
        let apng = try PNGEncoder.encodeAnimation(frames: [frame, frame, frame], delays: delays, loopCount: 1, effort: .default)
        let info = try APNGValidator.validate(apng)
        XCTAssertTrue(info.isAnimated, "an animated input must not collapse into a plain PNG")
        XCTAssertEqual(info.numPlays, 1)
        // Two frames (viewers take a one-frame APNG for a still): the first frame's time, then the
        // same picture for the rest, so the total is exact.
        let decoded = try APNGTestDecoder.decode(apng)
        XCTAssertEqual(decoded.frames, [frame.expanded(), frame.expanded()])
        XCTAssertEqual(decoded.delays.map { Delay(numerator: $0.0, denominator: $0.1) }, [delays[0], delays[1] + delays[2]])
        // A single-frame input is still a plain PNG.
        let still = try PNGEncoder.encodeAnimation(frames: [frame], delays: [delays[0]], loopCount: 0, effort: .default)
        XCTAssertFalse(try APNGValidator.validate(still).isAnimated)
    }

    func testIndexedAnimationsDecodeToTheInputFramesExactly() throws {
        var ops = [Int](repeating: 0, count: 6) // dispose × blend, to prove every path is exercised
        let palettes = [
            TestImages.palette(5, translucent: true, seed: 1),                      // has alpha 0 entries
            TestImages.palette(16, translucent: false, seed: 2),                    // opaque, depth 4: room for one more? no
            TestImages.palette(13, translucent: false, seed: 3),                    // opaque, room for a transparent entry
            [RGBA(0, 0, 0, 0)] + TestImages.palette(200, translucent: true, seed: 4),
            TestImages.palette(256, translucent: true, seed: 5),
        ]
        for (p, palette) in palettes.enumerated() {
            for seed in 0..<6 as Range<UInt64> {
                let (w, h) = [(1, 1), (23, 17), (9, 30), (40, 8)][Int(seed) % 4]
                let walk = Self.walk(width: w, height: h, frames: 2 + Int(seed) * 3, palette: palette, seed: seed * 31 + UInt64(p))
                let sprites = Self.sprites(width: w + 20, height: h + 10, frames: 3 + Int(seed) * 2, palette: palette, seed: seed)
                for frames in [walk, sprites] {
                    let delays = Self.randomDelays(frames.count, seed: seed)
                    for effort in Effort.allCases {
                        let apng = try PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: Int(seed), effort: effort)
                        let info = try assertDecodesExactly(apng, frames: frames.map { $0.expanded() }, delays: delays, loopCount: Int(seed))
                        for f in info.frames { ops[Int(f.control.dispose) * 2 + Int(f.control.blend)] += 1 }
                    }
                }
            }
        }
        XCTAssertGreaterThan(ops[0], 0, "dispose NONE, blend SOURCE")
        XCTAssertGreaterThan(ops[1], 0, "dispose NONE, blend OVER")
        XCTAssertGreaterThan(ops[2], 0, "dispose BACKGROUND, blend SOURCE")
        XCTAssertGreaterThan(ops[3], 0, "dispose BACKGROUND, blend OVER")
    }

    func testSpriteOverTransparencyDisposesToBackground() throws {
        let palette = [RGBA(0, 0, 0, 0), RGBA(200, 10, 10), RGBA(10, 200, 10)]
        var a = [UInt8](repeating: 0, count: 40 * 10), b = a
        for y in 2..<6 { for x in 1..<5 { a[y * 40 + x] = 1 }; for x in 34..<38 { b[y * 40 + x] = 2 } }
        let frames = [a, b].map { IndexedImage(width: 40, height: 10, palette: palette, indices: $0) }
        let delays = [Delay(milliseconds: 100), Delay(milliseconds: 100)]
        let apng = try PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: 0)
        let info = try assertDecodesExactly(apng, frames: frames.map { $0.expanded() }, delays: delays, loopCount: 0)
        XCTAssertEqual(info.frames[0].control.dispose, 1, "clearing the canvas beats re-sending the old sprite's area")
        let second = info.frames[1].control
        XCTAssertEqual([second.x, second.y, second.width, second.height], [34, 2, 4, 4])
    }

    func testTruecolourAnimationsDecodeToTheInputFramesExactly() throws {
        for kind in [TestImages.Kind.rgba, .rgb, .gray, .grayAlpha] {
            for seed in 0..<4 as Range<UInt64> {
                // Truecolour frames from the palette walk, re-coloured per kind.
                let palette = TestImages.palette(12, translucent: kind == .rgba || kind == .grayAlpha, seed: seed)
                    .map { c -> RGBA in
                        let a = kind == .rgb || kind == .gray ? 255 : c.a
                        return kind == .gray || kind == .grayAlpha ? RGBA(c.r, c.r, c.r, a) : RGBA(c.r, c.g, c.b, a)
                    }
                let frames = Self.walk(width: 19, height: 11, frames: 8, palette: palette, seed: seed).map { $0.expanded() }
                let delays = Self.randomDelays(frames.count, seed: seed + 100)
                for effort in Effort.allCases {
                    let apng = try PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: 0, effort: effort)
                    let info = try assertDecodesExactly(apng, frames: frames, delays: delays, loopCount: 0)
                    if info.isAnimated {
                        XCTAssertEqual(info.colorType, Int(TruecolorLayout(fitting: frames).colorType.rawValue))
                    }
                }
            }
        }
    }

    func testIdenticalFramesAreMergedWithExactDelaySums() throws {
        let palette = [RGBA(0, 0, 0, 0), RGBA(255, 0, 0), RGBA(0, 0, 255)]
        let a = IndexedImage(width: 4, height: 4, palette: palette, indices: [UInt8](repeating: 1, count: 16))
        var b = a
        b.indices[5] = 2
        let delays = [Delay(numerator: 1, denominator: 3), Delay(numerator: 1, denominator: 7),
                      Delay(milliseconds: 100), Delay(milliseconds: 20), Delay(milliseconds: 30)]
        let apng = try PNGEncoder.encodeAnimation(frames: [a, a, b, b, a], delays: delays, loopCount: 3)
        let info = try assertDecodesExactly(apng, frames: [a, a, b, b, a].map { $0.expanded() }, delays: delays, loopCount: 3)
        XCTAssertEqual(info.numFrames, 3)
        let fc = info.frames.map(\.control)
        XCTAssertEqual(fc[0].delayNumerator, 10); XCTAssertEqual(fc[0].delayDenominator, 21) // 1/3 + 1/7
        XCTAssertEqual(fc[1].delayNumerator, 3); XCTAssertEqual(fc[1].delayDenominator, 25)  // 120 ms
        XCTAssertEqual(fc[2].delayNumerator, 3); XCTAssertEqual(fc[2].delayDenominator, 100) // 30 ms
    }

    func testOnePixelChangeGivesAOnePixelFrame() throws {
        let palette = TestImages.palette(40, translucent: false, seed: 8)
        let a = TestImages.indexed(width: 64, height: 48, palette: palette, seed: 9)
        var b = a
        b.indices[17 * 64 + 33] = b.indices[17 * 64 + 33] == 7 ? 8 : 7
        let apng = try PNGEncoder.encodeAnimation(frames: [a, b], delays: [Delay(milliseconds: 50), Delay(milliseconds: 50)], loopCount: 0)
        let info = try assertDecodesExactly(apng, frames: [a.expanded(), b.expanded()], delays: [Delay(milliseconds: 50), Delay(milliseconds: 50)], loopCount: 0)
        let second = info.frames[1].control
        XCTAssertEqual([second.x, second.y, second.width, second.height], [33, 17, 1, 1])
        XCTAssertLessThan(info.frames[1].stream.count, 20)
    }

    func testUnchangedPixelsInsideTheRectangleBlendOverAsTransparent() throws {
        // Two changed pixels in opposite corners of a busy image: OVER with transparent fill is far
        // smaller than re-sending the rectangle.
        let palette = [RGBA(0, 0, 0, 0)] + TestImages.palette(60, translucent: false, seed: 10)
        let a = TestImages.indexed(width: 50, height: 50, palette: palette, seed: 11)
        var b = a
        b.indices[5 * 50 + 5] = b.indices[5 * 50 + 5] == 3 ? 4 : 3
        b.indices[44 * 50 + 44] = b.indices[44 * 50 + 44] == 3 ? 4 : 3
        let delays = [Delay(milliseconds: 10), Delay(milliseconds: 10)]
        let apng = try PNGEncoder.encodeAnimation(frames: [a, b], delays: delays, loopCount: 0)
        let info = try assertDecodesExactly(apng, frames: [a.expanded(), b.expanded()], delays: delays, loopCount: 0)
        XCTAssertEqual(info.frames[1].control.blend, 1)
        XCTAssertEqual([info.frames[1].control.width, info.frames[1].control.height], [40, 40])
    }

    func testSingleFrameIsAPlainPNG() throws {
        let image = TestImages.indexed(width: 10, height: 10, palette: TestImages.palette(6, translucent: true, seed: 1), seed: 2)
        for frames in [[image]] {
            let png = try PNGEncoder.encodeAnimation(frames: frames, delays: Array(repeating: Delay(milliseconds: 70), count: frames.count), loopCount: 0)
            let info = try APNGValidator.validate(png)
            XCTAssertFalse(info.isAnimated)
            XCTAssertFalse(info.chunkTypes.contains("fcTL"))
            XCTAssertEqual(try LibPNGDecoder.decode(png), image.expanded())
        }
        let rgba = TestImages.truecolor(.rgba, width: 6, height: 6, seed: 3)
        let png = try PNGEncoder.encodeAnimation(frames: [rgba], delays: [.zero], loopCount: 0)
        XCTAssertFalse(try APNGValidator.validate(png).isAnimated)
        XCTAssertEqual(try LibPNGDecoder.decode(png), rgba)
    }

    func testDefaultImageIsTheFirstFrameForPlainPNGReaders() throws {
        let frames = Self.walk(width: 12, height: 12, frames: 5, palette: TestImages.palette(9, translucent: true, seed: 3), seed: 4)
        let apng = try PNGEncoder.encodeAnimation(frames: frames, delays: Self.randomDelays(5, seed: 1), loopCount: 0)
        let info = try APNGValidator.validate(apng)
        XCTAssertTrue(info.frames[0].isDefaultImage)
        XCTAssertEqual(try LibPNGDecoder.decode(apng), frames[0].expanded(), "libpng reads only the default image")
    }

    func testBadParametersThrowTypedErrors() {
        let a = IndexedImage(width: 2, height: 2, palette: [RGBA(1, 1, 1)], indices: [0, 0, 0, 0])
        let b = IndexedImage(width: 2, height: 2, palette: [RGBA(2, 2, 2)], indices: [0, 0, 0, 0])
        let c = IndexedImage(width: 3, height: 2, palette: [RGBA(1, 1, 1)], indices: [0, 0, 0, 0, 0, 0])
        let d = Delay(milliseconds: 10)
        let cases: [() throws -> [UInt8]] = [
            { try PNGEncoder.encodeAnimation(frames: [IndexedImage](), delays: [], loopCount: 0) },
            { try PNGEncoder.encodeAnimation(frames: [a, a], delays: [d], loopCount: 0) },
            { try PNGEncoder.encodeAnimation(frames: [a, b], delays: [d, d], loopCount: 0) },
            { try PNGEncoder.encodeAnimation(frames: [a, c], delays: [d, d], loopCount: 0) },
            { try PNGEncoder.encodeAnimation(frames: [a], delays: [d], loopCount: -1) },
            { try PNGEncoder.encodeAnimation(frames: [Image(width: 0, height: 0)], delays: [d], loopCount: 0) },
        ]
        for (n, call) in cases.enumerated() {
            XCTAssertThrowsError(try call(), "case \(n)") { error in
                let e = error as? ImageError
                XCTAssertEqual(e?.kind, .parameter, "case \(n)")
                XCTAssertEqual(e?.format, .apng, "case \(n)")
            }
        }
    }

    func testEstimatedAnimationSizeIsCloseToTheEncodedSize() throws {
        let frames = Self.walk(width: 60, height: 40, frames: 12, palette: TestImages.palette(30, translucent: true, seed: 7), seed: 8)
        let delays = Self.randomDelays(12, seed: 2)
        let actual = try PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: 0).count
        let estimate = try PNGEncoder.estimatedAnimationSize(frames: frames, delays: delays, loopCount: 0)
        XCTAssertGreaterThan(estimate, actual * 8 / 10)
        XCTAssertLessThan(estimate, actual * 13 / 10)
    }

    func testTheFirstFrameEstimateIsThatOfTheFrameAlone() throws {
        let palette = TestImages.palette(30, translucent: true, seed: 7)
        var frames = Self.walk(width: 60, height: 40, frames: 6, palette: palette, seed: 8)
        // Frame 0 uses every entry, so a file of it alone has the same palette and stream.
        var indices = frames[0].indices
        for i in 0..<palette.count { indices[i * 7] = UInt8(i) }
        frames[0] = IndexedImage(width: 60, height: 40, palette: palette, indices: indices)
        let delays = Self.randomDelays(6, seed: 2)
        let both = try PNGEncoder.estimatedAnimationSizes(frames: frames, delays: delays, loopCount: 0)
        XCTAssertEqual(both.first, try PNGEncoder.estimatedAnimationSize(frames: [frames[0]], delays: [delays[0]], loopCount: 0))
        XCTAssertEqual(both.all, try PNGEncoder.estimatedAnimationSize(frames: frames, delays: delays, loopCount: 0))
        XCTAssertLessThan(both.first, both.all)
        let one = try PNGEncoder.estimatedAnimationSizes(frames: [frames[0]], delays: [delays[0]], loopCount: 0)
        XCTAssertEqual(one.first, one.all)
    }

    func testTheLaterFramesEstimateIsTheWholeLessTheFirstFrame() throws {
        // Within one byte: the streams' 0.9 scaling rounds once for the later frames instead of
        // once for all and once for the first.
        for (k, palette) in [TestImages.palette(30, translucent: true, seed: 7), TestImages.palette(200, translucent: false, seed: 3)].enumerated() {
            for seed in 0..<3 as Range<UInt64> {
                let frames = seed == 2
                    ? Self.sprites(width: 64, height: 48, frames: 5, palette: palette, seed: UInt64(k))
                    : Self.walk(width: 70, height: 50, frames: 4, palette: palette, seed: seed + 10 * UInt64(k))
                let delays = Self.randomDelays(frames.count, seed: seed)
                let both = try PNGEncoder.estimatedAnimationSizes(frames: frames, delays: delays, loopCount: 0)
                let later = try PNGEncoder.estimatedLaterFramesSize(frames: frames, delays: delays, loopCount: 0)
                XCTAssertEqual(Double(later), Double(both.all - both.first), accuracy: 1, "palette \(k), seed \(seed)")
                XCTAssertGreaterThan(later, 0)
            }
        }
        let one = TestImages.palette(5, translucent: false, seed: 1)
        let still = Self.walk(width: 20, height: 20, frames: 1, palette: one, seed: 4)
        XCTAssertEqual(try PNGEncoder.estimatedLaterFramesSize(frames: still, delays: Self.randomDelays(1, seed: 0)), 0)
    }

    func testPillowReadsEveryFrameAndDuration() throws {
        var checked = 0
        let palettes = [TestImages.palette(7, translucent: true, seed: 1), TestImages.palette(100, translucent: false, seed: 2),
                        TestImages.palette(16, translucent: false, seed: 3)] // opaque and full at depth 4: no transparent entry
        for (p, palette) in palettes.enumerated() {
            for seed in 0..<3 as Range<UInt64> {
                let frames = seed == 2
                    ? Self.sprites(width: 30, height: 20, frames: 10, palette: palette, seed: UInt64(p))
                    : Self.walk(width: 21, height: 13, frames: 10, palette: palette, seed: seed + UInt64(p) * 10)
                let delays = Self.randomDelays(10, seed: seed)
                let apng = try PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: 2)
                _ = try APNGValidator.validate(apng)
                let (expectFrames, expectDelays) = Self.merged(frames.map { $0.expanded() }, delays)
                let read = try PillowReader.read(apng)
                XCTAssertEqual(read.frames.count, expectFrames.count)
                for (n, (got, want)) in zip(read.frames, expectFrames).enumerated() where got != want {
                    XCTFail("Pillow frame \(n) differs (palette \(p), seed \(seed))")
                }
                if expectFrames.count > 1 {
                    XCTAssertEqual(read.loop, 2)
                    for (got, want) in zip(read.durations, expectDelays) {
                        XCTAssertEqual(got, want.milliseconds, accuracy: 1e-9 * max(1, want.milliseconds))
                    }
                }
                checked += 1
            }
        }
        // Truecolour RGBA too.
        let rgbaFrames = Self.walk(width: 17, height: 9, frames: 6, palette: TestImages.palette(9, translucent: true, seed: 3), seed: 5).map { $0.expanded() }
        let delays = Self.randomDelays(6, seed: 6)
        let rgbaAPNG = try PNGEncoder.encodeAnimation(frames: rgbaFrames, delays: delays, loopCount: 0)
        _ = try APNGValidator.validate(rgbaAPNG)
        let read = try PillowReader.read(rgbaAPNG)
        XCTAssertEqual(read.frames, Self.merged(rgbaFrames, delays).0)
        XCTAssertEqual(checked, 9)
    }

    func testParallelStreamsEqualSerialOnes() {
        // Rasters of different sizes and content, more of them than cores, so threads interleave.
        var seed: UInt64 = 7
        func next() -> UInt8 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt8(seed >> 58) }
        let rasters = (0..<11).map { k -> Raster in
            let w = 17 + 13 * k, h = 5 + 3 * k
            return Raster(width: w, height: h, bitsPerPixel: 8, data: (0..<(w * h)).map { i in i % (k + 2) == 0 ? next() : UInt8(k) })
        }
        let plan = EncodingPlan.plan(.default, kind: .palette)
        let serial = rasters.map { plan.compress($0, with: ZlibCompressor()) }
        let parallel = APNGEncoder.compressInParallel(rasters, plan: plan, compressor: ZlibCompressor())
        XCTAssertEqual(parallel, serial)
        XCTAssertEqual(APNGEncoder.compressInParallel([], plan: plan, compressor: ZlibCompressor()), [])
    }


    func testLargeCandidatesAreRankedOnASampleOfTheirRows() {
        var seed: UInt64 = 11
        func next() -> UInt8 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt8(seed >> 60) }
        func candidate(width w: Int, height h: Int, noisyEvery k: Int) -> APNGEncoder.Candidate {
            let r = Raster(width: w, height: h, bitsPerPixel: 8, data: (0..<(w * h)).map { i in i % k == 0 ? next() : UInt8(i / w % 7) })
            return APNGEncoder.Candidate(dispose: .none, blend: .source, rect: CanvasRect(x: 0, y: 0, width: w, height: h), raster: r,
                                         filtered: ScanlineFilter.filter(r, strategy: .none))
        }
        func whole(_ c: APNGEncoder.Candidate) -> Double {
            Double(c.filtered.withUnsafeBufferPointer {
                ZlibCompressor().compressedSize($0.baseAddress!, count: $0.count, level: APNGEncoder.rankingLevel)
            })
        }
        // Under the sampling thresholds a candidate is ranked whole.
        let small = candidate(width: 300, height: 100, noisyEvery: 3)
        XCTAssertEqual(APNGEncoder.rankingSize(small, compressor: ZlibCompressor()), whole(small))
        // A large one by a quarter of its rows, scaled: close to the whole size, and in the same
        // order as the whole sizes.
        let noisy = candidate(width: 408, height: 408, noisyEvery: 2), calm = candidate(width: 408, height: 408, noisyEvery: 9)
        for c in [noisy, calm] {
            let sampled = APNGEncoder.rankingSize(c, compressor: ZlibCompressor())
            XCTAssertNotEqual(sampled, whole(c))
            XCTAssertEqual(sampled / whole(c), 1, accuracy: 0.05)
        }
        XCTAssertLessThan(APNGEncoder.rankingSize(calm, compressor: ZlibCompressor()),
                          APNGEncoder.rankingSize(noisy, compressor: ZlibCompressor()))
    }

    func testNarrowingKeysGivesIndicesAndTheTwoSpecialEntriesAnywhere() {
        var seed: UInt64 = 5
        func next() -> UInt32 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt32(seed >> 33) }
        func expected(_ k: UInt32) -> UInt8 { k < 256 ? UInt8(k) : k == 256 ? 7 : 3 }
        for count in [0, 1, 63, 64, 65, 200, 1000] {
            // Plain indices, with special keys in some blocks only (and at both ends of one).
            var keys = (0..<count).map { _ in next() % 256 }
            for i in keys.indices where i % 150 == 149 || i == 64 || i == 127 { keys[i] = 256 + next() % 2 }
            var narrowed = [UInt8](repeating: 0, count: count)
            keys.withUnsafeBufferPointer { k in
                narrowed.withUnsafeMutableBufferPointer { o in
                    if count > 0 { APNGEncoder.narrow(k.baseAddress!, count: count, clear: 7, keep: 3, into: o.baseAddress!) }
                }
            }
            XCTAssertEqual(narrowed, keys.map(expected), "\(count) keys")
        }
    }

    func testALayoutKeepsIndicesOnlyWhenEveryUsedIndexIsWrittenAsItself() {
        let ordered = [RGBA(0, 0, 0, 0), RGBA(9, 9, 9, 128), RGBA(255, 0, 0, 255), RGBA(0, 255, 0, 255)]
        let all = (0..<256).map { $0 < ordered.count }
        XCTAssertTrue(PaletteLayout(palette: ordered, used: all).keepsIndices)
        // An unused entry before a used one moves it down.
        var gap = all
        gap[2] = false
        XCTAssertFalse(PaletteLayout(palette: ordered, used: gap).keepsIndices)
        // Only the last entries unused: the others keep their places.
        var tail = all
        tail[3] = false
        XCTAssertTrue(PaletteLayout(palette: ordered, used: tail).keepsIndices)
        // An opaque entry before a translucent one is moved behind it.
        XCTAssertFalse(PaletteLayout(palette: [RGBA(255, 0, 0, 255), RGBA(9, 9, 9, 128)], used: (0..<256).map { $0 < 2 }).keepsIndices)
    }
}
