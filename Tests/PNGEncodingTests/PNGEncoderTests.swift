import ImageCore
import XCTest
@testable import PNGEncoding

final class PNGEncoderTests: XCTestCase {
    let sizes = [(1, 1), (3, 5), (17, 9), (64, 33)]

    private func colorType(_ png: [UInt8]) throws -> (depth: Int, type: Int) {
        let ihdr = try XCTUnwrap(PNGChunkParser.parse(png).first { $0.type == "IHDR" })
        return (Int(ihdr.data[8]), Int(ihdr.data[9]))
    }

    func testTruecolorRoundTripPicksSmallestExactForm() throws {
        let cases: [(TestImages.Kind, Int)] = [(.rgba, 6), (.rgb, 2), (.gray, 0), (.grayAlpha, 4)]
        for (kind, expectedType) in cases {
            for (w, h) in sizes {
                for effort in Effort.allCases {
                    let image = TestImages.truecolor(kind, width: w, height: h, seed: UInt64(w * 1000 + h))
                    let png = PNGEncoder.encode(image, effort: effort)
                    let info = try APNGValidator.validate(png)
                    XCTAssertFalse(info.isAnimated)
                    XCTAssertEqual(try colorType(png).type, expectedType, "\(kind) \(w)×\(h)")
                    XCTAssertEqual(try colorType(png).depth, 8)
                    XCTAssertEqual(try LibPNGDecoder.decode(png), image, "\(kind) \(w)×\(h) \(effort)")
                }
            }
        }
    }

    func testTransparentPixelColourIsKept() throws {
        var image = Image(width: 2, height: 1)
        image[0, 0] = RGBA(10, 20, 30, 0)
        image[1, 0] = RGBA(40, 50, 60, 255)
        XCTAssertEqual(try LibPNGDecoder.decode(PNGEncoder.encode(image)), image)
    }

    func testEveryFileCarriesSRGBBeforeImageData() throws {
        let files = [PNGEncoder.encode(TestImages.truecolor(.rgba, width: 5, height: 5, seed: 1)),
                     PNGEncoder.encode(TestImages.indexed(width: 5, height: 5, palette: TestImages.palette(3, translucent: false, seed: 2), seed: 3))]
        for png in files {
            let chunks = try PNGChunkParser.parse(png)
            let srgb = try XCTUnwrap(chunks.firstIndex { $0.type == "sRGB" })
            XCTAssertEqual(chunks[srgb].data, [0], "perceptual intent")
            XCTAssertLessThan(srgb, try XCTUnwrap(chunks.firstIndex { $0.type == "IDAT" }))
            XCTAssertTrue(try APNGValidator.validate(png).hasSRGB)
        }
    }

    func testIndexedRoundTripAtEveryBitDepth() throws {
        // Entries used → expected depth: 2→1, 3→2, 16→4, 17→8, 256→8.
        for (entries, depth) in [(2, 1), (3, 2), (4, 2), (16, 4), (17, 8), (256, 8)] {
            for (w, h) in [(1, 1), (7, 3), (17, 17), (33, 16)] {
                let palette = TestImages.palette(entries, translucent: entries % 2 == 1, seed: UInt64(entries))
                let image = TestImages.indexed(width: w, height: h, palette: palette, seed: UInt64(w * h))
                let used = Set(image.indices.map { palette[Int($0)].packed }).count
                for effort in Effort.allCases {
                    let png = PNGEncoder.encode(image, effort: effort)
                    let info = try APNGValidator.validate(png)
                    XCTAssertEqual(info.colorType, 3)
                    XCTAssertEqual(info.plte?.count, used * 3, "unused entries dropped")
                    if used == entries { XCTAssertEqual(info.bitDepth, depth, "\(entries) entries \(w)×\(h)") }
                    XCTAssertLessThanOrEqual(used, 1 << info.bitDepth)
                    XCTAssertEqual(try LibPNGDecoder.decode(png), image.expanded(), "\(entries) entries \(w)×\(h) \(effort)")
                }
            }
        }
    }

    func testTranslucentEntriesFirstAndTRNSCutAfterTheLast() throws {
        // Translucent entries scattered among opaque ones, one opaque entry unused, one duplicate.
        let palette = [RGBA(1, 2, 3), RGBA(9, 9, 9, 128), RGBA(4, 5, 6), RGBA(0, 0, 0, 0), RGBA(7, 7, 7),
                       RGBA(200, 100, 50, 254), RGBA(99, 99, 99), RGBA(1, 2, 3)]
        let indices: [UInt8] = [0, 1, 2, 3, 4, 5, 7, 0, 1, 3, 5, 5, 2, 7, 4, 0]
        let image = IndexedImage(width: 4, height: 4, palette: palette, indices: indices)
        let png = PNGEncoder.encode(image)
        let info = try APNGValidator.validate(png)
        let plte = try XCTUnwrap(info.plte), trns = try XCTUnwrap(info.trns)
        XCTAssertEqual(plte.count / 3, 6, "entry 6 unused and entry 7 a duplicate of entry 0")
        XCTAssertEqual(trns.count, 3, "tRNS ends after the last translucent entry")
        XCTAssertTrue(trns.allSatisfy { $0 < 255 })
        XCTAssertEqual(Set(trns), [0, 128, 254])
        XCTAssertEqual(trns.first, 0, "the fully transparent entry comes first")
        XCTAssertEqual(try LibPNGDecoder.decode(png), image.expanded())
        let chunks = try PNGChunkParser.parse(png).map(\.type)
        XCTAssertLessThan(try XCTUnwrap(chunks.firstIndex(of: "PLTE")), try XCTUnwrap(chunks.firstIndex(of: "tRNS")))
    }

    func testGrayRampPalettesAreWrittenAsGray() throws {
        // Ramp levels at depth d are multiples of 255 / (2^d − 1).
        let cases: [([UInt8], Int)] = [([0, 255], 1), ([0, 85, 170, 255], 2), ([0, 85, 255], 2),
                                       ((0..<16).map { UInt8($0 * 17) }, 4), ((0..<20).map { UInt8($0 * 3 + 1) }, 8),
                                       ((0..<256).map { UInt8($0) }, 8)]
        for (levels, depth) in cases {
            let palette = levels.map { RGBA($0, $0, $0) }
            let image = TestImages.indexed(width: 19, height: 7, palette: palette, seed: UInt64(depth))
            let png = PNGEncoder.encode(image)
            let info = try APNGValidator.validate(png)
            XCTAssertEqual(info.colorType, 0, "\(levels.count) grays")
            XCTAssertEqual(info.bitDepth, depth, "\(levels.count) grays")
            XCTAssertNil(info.plte)
            XCTAssertEqual(try LibPNGDecoder.decode(png), image.expanded())
        }
        // Off the ramp at the palette's depth (gray would need more bits), translucent, or
        // coloured: stays a palette.
        for palette in [[RGBA(10, 10, 10), RGBA(20, 20, 20), RGBA(30, 30, 30)],
                        [RGBA(17, 17, 17), RGBA(34, 34, 34), RGBA(255, 255, 255)],
                        [RGBA(0, 0, 0, 128), RGBA(255, 255, 255)],
                        [RGBA(0, 0, 0), RGBA(255, 255, 254)]] {
            let image = TestImages.indexed(width: 5, height: 5, palette: palette, seed: 3)
            let png = PNGEncoder.encode(image)
            XCTAssertEqual(try APNGValidator.validate(png).colorType, 3)
            XCTAssertEqual(try LibPNGDecoder.decode(png), image.expanded())
        }
    }

    /// For an app that asks for RGB colour (LINE), gray pixels are written in a colour form: the
    /// gray palette as a palette, gray+alpha as RGBA, opaque gray with a colour key as RGB, and
    /// every form decodes to the same pixels as the gray file.
    func testWithoutGrayTheSamePixelsAreWrittenInColour() throws {
        let palette: [RGBA] = (0..<16).map { (i: Int) -> RGBA in
            let v = UInt8(i * 17)
            return RGBA(v, v, v)
        }
        let indexed = TestImages.indexed(width: 19, height: 7, palette: palette, seed: 5)
        XCTAssertEqual(try APNGValidator.validate(PNGEncoder.encode(indexed)).colorType, 0)
        let colour = PNGEncoder.encode(indexed, allowsGray: false)
        XCTAssertEqual(try APNGValidator.validate(colour).colorType, 3)
        XCTAssertEqual(try LibPNGDecoder.decode(colour), indexed.expanded())

        var translucent = [UInt8](), keyed = [UInt8]()
        for i in 0..<(23 * 11) {
            let v = UInt8(truncatingIfNeeded: i &* 37), a = UInt8(truncatingIfNeeded: i &* 11), w: UInt8 = v | 1
            translucent += [v, v, v, a]
            let key: [UInt8] = i % 5 == 0 ? [0, 0, 0, 0] : [w, w, w, 255]
            keyed += key
        }
        for (pixels, gray, rgb) in [(translucent, 4, 6), (keyed, 0, 2)] as [([UInt8], Int, Int)] {
            let image = Image(width: 23, height: 11, pixels: pixels)
            XCTAssertEqual(try APNGValidator.validate(PNGEncoder.encode(image)).colorType, gray)
            let written = PNGEncoder.encode(image, allowsGray: false)
            XCTAssertEqual(try APNGValidator.validate(written).colorType, rgb)
            XCTAssertEqual(try LibPNGDecoder.decode(written), try LibPNGDecoder.decode(PNGEncoder.encode(image)))
        }
    }

    func testOpaquePaletteHasNoTRNS() throws {
        let image = TestImages.indexed(width: 9, height: 9, palette: TestImages.palette(5, translucent: false, seed: 9), seed: 4)
        let png = PNGEncoder.encode(image)
        XCTAssertFalse(try PNGChunkParser.parse(png).contains { $0.type == "tRNS" })
        XCTAssertEqual(try LibPNGDecoder.decode(png), image.expanded())
    }

    func testIndicesPastThePaletteBecomeTransparentBlack() throws {
        // IndexedImage's precondition forbids this, but the stored properties are mutable.
        var image = IndexedImage(width: 2, height: 1, palette: [RGBA(5, 6, 7), RGBA(8, 9, 10)], indices: [0, 1])
        image.indices = [1, 200]
        let decoded = try LibPNGDecoder.decode(PNGEncoder.encode(image))
        XCTAssertEqual(decoded[0, 0], RGBA(8, 9, 10))
        XCTAssertEqual(decoded[1, 0], RGBA(0, 0, 0, 0))
    }

    func testEmptyImagesGiveEmptyOutputRatherThanCrashing() {
        XCTAssertEqual(PNGEncoder.encode(Image(width: 0, height: 5)), [])
        XCTAssertEqual(PNGEncoder.encode(IndexedImage(width: 3, height: 0, palette: [], indices: [])), [])
    }

    func testEachFilterStrategyRoundTrips() throws {
        // Every strategy on every raster kind, through libpng.
        let images: [Raster] = [
            TruecolorLayout(colorType: .rgba).raster(TestImages.truecolor(.rgba, width: 13, height: 7, seed: 5).pixels, width: 13, height: 7),
            TruecolorLayout(colorType: .rgb).raster(TestImages.truecolor(.rgb, width: 13, height: 7, seed: 6).pixels, width: 13, height: 7),
        ]
        for raster in images {
            for strategy in FilterStrategy.all {
                let plan = EncodingPlan(level: 6, strategies: [strategy], trialLevel: 6, finalists: 1)
                let stream = plan.compress(raster, with: ZlibCompressor())
                let layout = TruecolorLayout(colorType: raster.bitsPerPixel == 32 ? .rgba : .rgb)
                let file = PNGFile(header: layout.header(width: raster.width, height: raster.height)).bytes(stream: stream)
                let decoded = try LibPNGDecoder.decode(file)
                let back = layout.raster(decoded.pixels, width: raster.width, height: raster.height)
                XCTAssertEqual(back.data, raster.data, "\(strategy)")
            }
        }
    }

    func testStoredFallbackStreamDecodes() throws {
        let image = TestImages.truecolor(.rgba, width: 200, height: 90, seed: 8) // > 65535 bytes: several stored blocks
        let layout = TruecolorLayout(colorType: .rgba)
        let raster = layout.raster(image.pixels, width: 200, height: 90)
        let stream = ScanlineFilter.filter(raster, strategy: .none).withUnsafeBufferPointer { ZlibCompressor.stored($0) }
        let file = PNGFile(header: layout.header(width: 200, height: 90)).bytes(stream: stream)
        XCTAssertEqual(try LibPNGDecoder.decode(file), image)
    }

    func testLargeImageDataIsSplitIntoSeveralIDATChunks() throws {
        var r = SeededRandom(77)
        let pixels = (0..<(600 * 600 * 4)).map { _ in r.byte() } // incompressible: > 1 MiB stream
        let image = Image(width: 600, height: 600, pixels: pixels)
        let png = PNGEncoder.encode(image, effort: .fast)
        let idats = try PNGChunkParser.parse(png).filter { $0.type == "IDAT" }
        XCTAssertGreaterThan(idats.count, 1)
        XCTAssertTrue(idats.allSatisfy { $0.data.count <= PNGChunkWriter.maxDataChunk })
        XCTAssertEqual(try LibPNGDecoder.decode(png), image)
    }

    func testEstimatedSizeIsCloseToTheEncodedSize() {
        let image = TestImages.indexed(width: 120, height: 80, palette: TestImages.palette(40, translucent: true, seed: 3), seed: 11)
        let actual = PNGEncoder.encode(image).count
        let estimate = PNGEncoder.estimatedSize(image)
        XCTAssertGreaterThan(estimate, actual * 8 / 10)
        XCTAssertLessThan(estimate, actual * 13 / 10)
    }

    func testPillowReadsIndexedAndTruecolourFiles() throws {
        let indexed = TestImages.indexed(width: 21, height: 11, palette: TestImages.palette(17, translucent: true, seed: 4), seed: 5)
        let readIndexed = try PillowReader.read(PNGEncoder.encode(indexed))
        XCTAssertEqual(readIndexed.frames, [indexed.expanded()])
        for kind in [TestImages.Kind.rgba, .rgb, .gray, .grayAlpha] {
            let image = TestImages.truecolor(kind, width: 21, height: 11, seed: 6)
            XCTAssertEqual(try PillowReader.read(PNGEncoder.encode(image)).frames, [image], "\(kind)")
        }
    }
}
