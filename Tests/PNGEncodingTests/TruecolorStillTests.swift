import ImageCore
import XCTest
@testable import PNGEncoding

/// `TruecolorStill` (one preparation, several encodes), the sampled filter ranking of
/// `.default`, `mayFit`, and the colour-keyed forms of stills.
final class TruecolorStillTests: XCTestCase {
    /// Large enough that `.default` ranks its filters on a sample (≥ 128 rows, ≥ 64 KB).
    private func images() -> [(String, Image)] {
        [("rgba", TestImages.truecolor(.rgba, width: 180, height: 200, seed: 1)),
         ("rgb", TestImages.truecolor(.rgb, width: 150, height: 160, seed: 2)),
         ("gray", TestImages.truecolor(.gray, width: 300, height: 250, seed: 3)),
         ("flat", TestImages.flatArt(width: 220, height: 240, seed: 4)),
         ("keyed", TestImages.paddedPhoto(width: 200, height: 200, content: 150, seed: 5)),
         ("blocks", TestImages.blockArt(width: 240, height: 200, seed: 7)),
         ("small", TestImages.truecolor(.rgba, width: 9, height: 7, seed: 6))]
    }

    private func colorType(_ png: [UInt8]) throws -> Int {
        Int(try XCTUnwrap(PNGChunkParser.parse(png).first { $0.type == "IHDR" }).data[9])
    }

    func testEncodeEqualsTheEncoderAtEveryEffortInAnyOrder() throws {
        for (name, image) in images() {
            let fresh = Effort.allCases.map { PNGEncoder.encode(image, effort: $0) }
            // One still, efforts in increasing and decreasing order: the kept streams change nothing.
            let up = TruecolorStill(image), down = TruecolorStill(image)
            XCTAssertEqual(Effort.allCases.map { up.encode(effort: $0) }, fresh, name)
            XCTAssertEqual(Effort.allCases.reversed().map { down.encode(effort: $0) }.reversed(), fresh, name)
            for png in fresh {
                XCTAssertEqual(try LibPNGDecoder.decode(png), image, name)
            }
            XCTAssertLessThanOrEqual(fresh[2].count, fresh[1].count, "\(name): max is never larger than default")
        }
    }

    func testSampledRowsAreTheWholeStreamsRows() {
        let image = TestImages.truecolor(.rgba, width: 41, height: 150, seed: 9)
        let raster = TruecolorLayout(colorType: .rgba).raster(image.pixels, width: 41, height: 150)
        let stride = raster.rowBytes + 1
        let bands = [0..<16, 64..<80, 128..<150, 140..<200]
        for strategy in FilterStrategy.all where strategy != .bruteForce {
            let whole = ScanlineFilter.filter(raster, strategy: strategy)
            let expected = bands.flatMap { b in b.clamped(to: 0..<150).flatMap { y in whole[(y * stride)..<((y + 1) * stride)] } }
            XCTAssertEqual(ScanlineFilter.filter(raster, strategy: strategy, rows: bands), expected, "\(strategy)")
        }
    }

    func testSampleCoversAQuarterOfLargeRastersAndAllOfSmallOnes() {
        let large = RasterStreams(Raster(width: 300, height: 300, bitsPerPixel: 32, data: [UInt8](repeating: 7, count: 300 * 300 * 4)),
                                  compressor: ZlibCompressor())
        XCTAssertEqual(large.sampleRows.first, 0..<16)
        XCTAssertEqual(large.sampledRowCount, 5 * 16)   // bands at 0, 64, 128, 192, 256
        XCTAssertEqual(large.sampledByteCount, 5 * 16 * (300 * 4 + 1))
        let short = RasterStreams(Raster(width: 2000, height: 100, bitsPerPixel: 32, data: [UInt8](repeating: 7, count: 2000 * 100 * 4)),
                                  compressor: ZlibCompressor())
        XCTAssertEqual(short.sampleRows, [0..<100])
    }

    func testDefaultRanksByTheSampleAndWritesTheWinnerAtLevel10() {
        // Which strategy wins is the plan's business; the stream must be one of the two at level 10,
        // the one whose sample is smaller at level 1.
        for (name, image) in images() where image.width * image.height > 10_000 {
            let layout = TruecolorLayout(fittingStill: image)
            let streams = RasterStreams(layout.raster(image.pixels, width: image.width, height: image.height), compressor: ZlibCompressor())
            let plan = EncodingPlan.plan(.default, kind: .truecolor)
            XCTAssertEqual(plan.strategies, [.none, .minimumSum])
            let sizes = plan.strategies.map { streams.sampleSize($0, level: 1) }
            let winner = sizes[1] < sizes[0] ? FilterStrategy.minimumSum : .none
            XCTAssertEqual(plan.compress(streams), streams.stream(winner, level: 10), name)
        }
    }

    func testStillsCompressUnfilteredAndVeryCompressibleWinnersAtLevel7AndOtherFilteredOnesAtLevel10() throws {
        var cases: Set<String> = []
        for (name, image) in images() where image.width * image.height > 10_000 {
            let layout = TruecolorLayout(fittingStill: image)
            let streams = RasterStreams(layout.raster(image.pixels, width: image.width, height: image.height), compressor: ZlibCompressor())
            let sizes = [FilterStrategy.none, .minimumSum].map { streams.sampleSize($0, level: 1) }
            let winner: FilterStrategy = sizes[1] < sizes[0] ? .minimumSum : .none
            let compressible = Double(min(sizes[0], sizes[1])) < EncodingPlan.compressibleRatio * Double(streams.sampledByteCount)
            let level = winner == .none || compressible ? 7 : 10
            cases.insert("\(winner == .none ? "unfiltered" : "filtered") at \(level)")
            let expected = streams.stream(winner, level: level)
            XCTAssertEqual(EncodingPlan.still(.default).compress(streams), expected, name)
            // The file carries that stream.
            let png = TruecolorStill(image).encode(effort: .default)
            let idat = try PNGChunkParser.parse(png).filter { $0.type == "IDAT" }.flatMap(\.data)
            XCTAssertEqual(idat, expected, name)
        }
        XCTAssertEqual(cases, ["unfiltered at 7", "filtered at 7", "filtered at 10"], "every case occurs on some test image")
    }

    func testABudgetMissedAtLevel7IsMetAtLevel10() throws {
        // Unfiltered (blocks) and filtered but very compressible (flat): both at level 7.
        for name in ["blocks", "flat"] {
            let image = try XCTUnwrap(images().first { $0.0 == name }?.1)
            let still = TruecolorStill(image)
            let at7 = still.encode(effort: .default)
            var full = EncodingPlan.still(.default)
            full.unfilteredLevel = nil
            full.compressibleLevel = nil
            let at10 = still.encode(plan: full).bytes
            XCTAssertLessThan(at10.count, at7.count, "\(name): the test image must gain from level 10")
            XCTAssertEqual(still.encode(effort: .default, within: at7.count), at7, "\(name) fits: the level-7 file")
            XCTAssertEqual(still.encode(effort: .default, within: at7.count - 1), at10, "\(name) over: the level-10 file")
            XCTAssertEqual(try LibPNGDecoder.decode(at10), image, name)
        }
    }

    /// Truecolour animation frames are written at level 6 at `.default` when that fits; a file
    /// that misses its budget that way follows the still rules (level 7 for an unfiltered or
    /// very compressible stream), and one that misses it again is made at level 10.
    func testTruecolorAnimationFramesTryLevel6ThenTheStillRulesThenLevel10() throws {
        let a = TestImages.flatArt(width: 240, height: 200, seed: 7), b = TestImages.flatArt(width: 240, height: 200, seed: 8)
        let frames = ArrayFrames(width: 240, height: 200, bytesPerPixel: 4, frames: [a.pixels, b.pixels])
        let delays = [Delay(milliseconds: 100), Delay(milliseconds: 100)]
        func encode(_ plan: @escaping (EncodingPlan.Kind) -> EncodingPlan) throws -> [UInt8] {
            var e = try APNGEncoder(truecolor: frames, layout: try TruecolorLayout(fitting: frames), delays: delays, loopCount: 0)
            e.alwaysAnimated = true
            return try e.encode(plan).bytes
        }
        let at6 = try encode { $0 == .truecolor ? EncodingPlan.plan(.default, kind: .truecolor).at(level: 6) : EncodingPlan.plan(.default, kind: $0) }
        let at7 = try encode { $0 == .truecolor ? EncodingPlan.still(.default) : EncodingPlan.plan(.default, kind: $0) }
        let at10 = try encode { EncodingPlan.plan(.default, kind: $0) }
        XCTAssertLessThan(at7.count, at6.count, "the test frames must gain from level 7 (\(at6.count) \(at7.count) \(at10.count))")
        XCTAssertLessThan(at10.count, at7.count, "the test frames must gain from level 10")
        func written(within maxBytes: Int) throws -> [UInt8] {
            try PNGEncoder.encodeAnimation(truecolor: frames, delays: delays, effort: .default, alwaysAnimated: true, within: maxBytes)
        }
        XCTAssertTrue(try written(within: .max) == at6, "no budget: the level-6 file")
        XCTAssertTrue(try written(within: at6.count) == at6, "fits: the level-6 file")
        XCTAssertTrue(try written(within: at6.count - 1) == at7, "over at 6: the level-7 file")
        XCTAssertTrue(try written(within: at7.count - 1) == at10, "over at 7: the level-10 file")
        XCTAssertTrue(try written(within: at10.count - 1) == at10, "over everywhere: the smallest file")
        for file in [at6, at10] {
            let decoded = try APNGTestDecoder.decode(file)
            XCTAssertEqual(decoded.frames.map(\.pixels), [a.pixels, b.pixels])
        }
    }

    func testMayFitIsNeverFalseForAFileThatFits() {
        var r = SeededRandom(11)
        let noise = Image(width: 300, height: 300, pixels: (0..<(300 * 300 * 4)).map { _ in r.byte() })
        for (name, image) in images() + [("noise", noise)] {
            let still = TruecolorStill(image)
            for effort in Effort.allCases {
                XCTAssertTrue(still.mayFit(still.encode(effort: effort).count), "\(name) \(effort)")
            }
        }
        // Incompressible pixels: 360 KB of samples cannot fit in 100 KB, and the search is told so.
        XCTAssertFalse(TruecolorStill(noise).mayFit(100_000))
        XCTAssertTrue(TruecolorStill(noise).mayFit(1_000_000))
    }

    // MARK: Colour keys

    func testBinaryAlphaIsWrittenAsRGBWithTheTransparentColourAsKey() throws {
        let image = TestImages.paddedPhoto(width: 40, height: 30, content: 20, seed: 1)
        let png = PNGEncoder.encode(image)
        XCTAssertEqual(try colorType(png), 2)
        let trns = try XCTUnwrap(PNGChunkParser.parse(png).first { $0.type == "tRNS" })
        XCTAssertEqual(trns.data, [0, 0, 0, 0, 0, 0])
        XCTAssertEqual(try LibPNGDecoder.decode(png), image, "exact: the key is the transparent pixels' own colour")
        XCTAssertEqual(try PillowReader.read(png).frames, [image])
        XCTAssertLessThan(png.count, PNGFile(header: TruecolorLayout(colorType: .rgba).header(width: 40, height: 30))
            .bytes(stream: EncodingPlan.plan(.default, kind: .truecolor).compress(
                TruecolorLayout(colorType: .rgba).raster(image.pixels, width: 40, height: 30), with: ZlibCompressor())).count)
    }

    func testGrayWithBinaryAlphaIsKeyedGray() throws {
        var image = Image(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 where (x + y) % 3 != 0 { image[x, y] = RGBA(UInt8(x * 16 + 5), UInt8(x * 16 + 5), UInt8(x * 16 + 5), 255) } }
        let png = PNGEncoder.encode(image)
        XCTAssertEqual(try colorType(png), 0)
        XCTAssertEqual(try XCTUnwrap(PNGChunkParser.parse(png).first { $0.type == "tRNS" }).data, [0, 0])
        XCTAssertEqual(try LibPNGDecoder.decode(png), image)
    }

    func testAVisibleKeyColourMovesTheKeyToAnUnusedColour() throws {
        // Opaque black is visible, so transparent black cannot be the key: (0, 0, 1) is.
        var image = TestImages.paddedPhoto(width: 24, height: 24, content: 12, seed: 2)
        image[12, 12] = RGBA(0, 0, 0, 255)
        image[0, 0] = RGBA(9, 9, 9, 0)   // transparent pixels need not share a colour
        let png = PNGEncoder.encode(image)
        XCTAssertEqual(try colorType(png), 2)
        XCTAssertEqual(try XCTUnwrap(PNGChunkParser.parse(png).first { $0.type == "tRNS" }).data, [0, 0, 0, 0, 0, 1])
        let decoded = try LibPNGDecoder.decode(png)
        for y in 0..<24 {
            for x in 0..<24 {
                let (a, b) = (image[x, y], decoded[x, y])
                if a.a == 0 { XCTAssertEqual(b, RGBA(0, 0, 1, 0)) } else { XCTAssertEqual(a, b) }
            }
        }
    }

    func testNoKeyWhenAlphaIsPartialOrEveryGrayLevelIsVisible() throws {
        var partial = TestImages.paddedPhoto(width: 20, height: 20, content: 10, seed: 3)
        partial[5, 5] = RGBA(1, 2, 3, 200)
        XCTAssertEqual(try colorType(PNGEncoder.encode(partial)), 6)

        var ramp = Image(width: 257, height: 1)
        for x in 0..<256 { ramp[x, 0] = RGBA(UInt8(x), UInt8(x), UInt8(x), 255) }   // pixel 256 stays transparent
        let png = PNGEncoder.encode(ramp)
        XCTAssertEqual(try colorType(png), 4, "no gray level is free: gray + alpha")
        XCTAssertEqual(try LibPNGDecoder.decode(png), ramp)
    }
}

extension TestImages {
    /// A photo-like opaque rectangle of `content` columns centred on a transparent square-ish
    /// canvas (contain padding), every pixel opaque or transparent black.
    static func paddedPhoto(width: Int, height: Int, content: Int, seed: UInt64) -> Image {
        let photo = truecolor(.rgb, width: content, height: height, seed: seed)
        var img = Image(width: width, height: height)
        let x0 = (width - content) / 2
        for y in 0..<height {
            for x in 0..<content {
                var c = photo[x, y]
                if c.r == 0 && c.g == 0 && c.b == 0 { c = RGBA(1, 0, 0, 255) }   // keep transparent black unused
                img[x0 + x, y] = c
            }
        }
        return img
    }

    /// Unfiltered-friendly art that level 10 still compresses better than level 7: 3×3 blocks
    /// of 400 flat colours, repeated in runs, on an opaque canvas.
    static func blockArt(width: Int, height: Int, seed: UInt64) -> Image {
        var r = SeededRandom(seed)
        let colors = (0..<400).map { _ in RGBA(r.byte(), r.byte(), r.byte(), 255) }
        let runs = (0..<64).map { _ in (0..<(width / 3 + 1)).map { _ in Int(r.byte()) + Int(r.byte()) % 144 } }
        var img = Image(width: width, height: height)
        for y in 0..<height {
            let run = runs[(y / 3) % runs.count]
            for x in 0..<width { img[x, y] = colors[run[x / 3] % colors.count] }
        }
        return img
    }

    /// Clip art: a few flat colours in blocks, with translucent antialiased edges.
    static func flatArt(width: Int, height: Int, seed: UInt64) -> Image {
        var r = SeededRandom(seed)
        let colors = (0..<6).map { _ in RGBA(r.byte(), r.byte(), r.byte(), 255) }
        var img = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let c = colors[(x / 37 + y / 29) % colors.count]
                let edge = x % 37 == 0 || y % 29 == 0
                img[x, y] = (x - width / 2) * (x - width / 2) + (y - height / 2) * (y - height / 2) > width * height / 5
                    ? RGBA(0, 0, 0, 0) : RGBA(c.r, c.g, c.b, edge ? 128 : 255)
            }
        }
        return img
    }
}
