import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Hostile and damaged input: every broken fixture, synthetic damage of each kind, truncation at
/// many offsets. Each must give a typed error naming the problem, never a crash.
final class PNGErrorTests: XCTestCase {
    typealias T = PNGTestSupport

    /// Decoding `bytes` must fail with exactly `reason` (and the format), in one line.
    func assertError(_ bytes: [UInt8], format: ImageFormat = .png, _ reason: any ImageErrorReason,
                     lenient: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        guard let e = T.decodeError(bytes, lenient: lenient) else {
            XCTFail("decoded without error; expected \(reason)", file: file, line: line); return
        }
        XCTAssertEqual(e, ImageError(format, reason), "\(e)", file: file, line: line)
        XCTAssertFalse(e.description.contains("\n"), file: file, line: line)
    }

    /// The PNG reason of the error decoding `bytes` gives, failing the test when there is none.
    func reason(_ bytes: [UInt8], lenient: Bool = false, file: StaticString = #filePath, line: UInt = #line) -> PNGError? {
        guard let e = T.decodeError(bytes, lenient: lenient) else {
            XCTFail("decoded without error", file: file, line: line); return nil
        }
        guard let r = e.reason as? PNGError else { XCTFail("not a PNGError: \(e)", file: file, line: line); return nil }
        return r
    }

    // MARK: - The broken corpus

    func testEveryBrokenPNGFixtureIsCovered() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: T.fixtures.appendingPathComponent("broken").path)
            .filter { $0.hasSuffix(".png") }.sorted()
        let covered: Set<String> = ["bomb_ihdr_100000x100000.png", "jpeg_with_png_extension.png", "pngsuite_xc1n0g08.png",
                                    "pngsuite_xcrn0g04.png", "pngsuite_xcsn0g01.png", "pngsuite_xd0n2c08.png", "pngsuite_xdtn0g01.png",
                                    "pngsuite_xhdn0g08.png", "pngsuite_xlfn0g04.png", "pngsuite_xs1n0g01.png", "text_renamed.png",
                                    "truncated_apng_60pct.png", "truncated_png_after_ihdr.png", "truncated_png_half.png", "zero_bytes.png"]
        XCTAssertEqual(Set(names).subtracting(covered), [], "new broken PNG fixtures need an expectation here")
    }

    func testBombIsRefusedFromIHDRAlone() throws {
        let bytes = try T.fixture("broken/bomb_ihdr_100000x100000.png")
        let e = try XCTUnwrap(T.decodeError(bytes))
        XCTAssertEqual(e.kind, .limits)
        XCTAssertEqual(e.reason as? LimitsError,
                       .overDimensions(source: "IHDR says", width: 100_000, height: 100_000, maxWidth: 65535, maxHeight: 65535))
        XCTAssertEqual(e.description, "PNG: IHDR says 100000×100000, over the 65535×65535 limit")
        // The same through the dispatcher, and in lenient mode.
        XCTAssertThrowsError(try ImageDecoder.decode(bytes)) { XCTAssertEqual(($0 as? ImageError)?.kind, .limits) }
        XCTAssertEqual(T.decodeError(bytes, lenient: true)?.kind, .limits)
    }

    func testDamagedSignatures() throws {
        assertError(try T.fixture("broken/pngsuite_xs1n0g01.png"), PNGError.highBitStripped)
        assertError(try T.fixture("broken/pngsuite_xcrn0g04.png"), PNGError.lineEndingsRewritten(found: [0x0D, 0x0D, 0x1A, 0x0D]))
        assertError(try T.fixture("broken/pngsuite_xlfn0g04.png"), PNGError.lineEndingsRewritten(found: [0x0A, 0x0A, 0x1A, 0x0A]))
        assertError(try T.fixture("broken/text_renamed.png"), PNGError.notASignature(firstBytes: Array("This is ".utf8)))
        assertError(try T.fixture("broken/zero_bytes.png"), PNGError.emptyFile)
        assertError(Array(T.signature.prefix(5)), PNGError.shorterThanSignature(bytes: 5))
        // The words are built from the values.
        XCTAssertEqual(PNGError.lineEndingsRewritten(found: [0x0D, 0x0D, 0x1A, 0x0D]).message,
                       "damaged signature: CR/LF bytes changed by a text-mode transfer (0d 0d 1a 0d instead of 0d 0a 1a 0a)")
        XCTAssertEqual(PNGError.notASignature(firstBytes: Array("This".utf8)).message, "not a PNG signature (first bytes 54 68 69 73)")
    }

    func testInvalidHeaderFields() throws {
        assertError(try T.fixture("broken/pngsuite_xc1n0g08.png"), PNGError.invalidColorType(1))
        assertError(try T.fixture("broken/pngsuite_xd0n2c08.png"), PNGError.invalidBitDepth(0, colorType: .truecolor))
        let base = T.signature
        func withIHDR(_ fields: [UInt8]) -> [UInt8] { base + T.chunk("IHDR", fields) + T.chunk("IEND", []) }
        let size = T.be32(4) + T.be32(4)
        assertError(withIHDR(size + [16, 3, 0, 0, 0]), PNGError.invalidBitDepth(16, colorType: .indexed))
        XCTAssertEqual(PNGError.invalidBitDepth(16, colorType: .indexed).message, "invalid bit depth 16 for colour type 3 (allowed: 1, 2, 4, 8)")
        assertError(withIHDR(size + [8, 2, 1, 0, 0]), PNGError.unknownCompressionMethod(1))
        assertError(withIHDR(size + [8, 2, 0, 1, 0]), PNGError.unknownFilterMethod(1))
        assertError(withIHDR(size + [8, 2, 0, 0, 2]), PNGError.unknownInterlaceMethod(2))
        assertError(withIHDR(size + [8, 2, 0, 0]), PNGError.headerLength(12))
        assertError(withIHDR(T.be32(0) + T.be32(4) + [8, 2, 0, 0, 0]), LimitsError.zeroSize(source: "IHDR says", width: 0, height: 4))
        assertError(withIHDR(T.be32(0x8000_0000) + T.be32(4) + [8, 2, 0, 0, 0]), PNGError.sizeOverPNGMaximum(width: 0x8000_0000, height: 4))
        assertError(base + T.chunk("gAMA", T.be32(45455)) + T.chunk("IEND", []), PNGError.firstChunkNotHeader(chunk: "gAMA"))
    }

    func testCRCMismatchesNameStoredAndComputedValues() throws {
        let ihdr = try T.fixture("broken/pngsuite_xhdn0g08.png")
        let computed = T.crc(Array(ihdr[12..<29]))
        assertError(ihdr, PNGError.crcMismatch(chunk: "IHDR", stored: 0x4353_554D, computed: computed))
        XCTAssertEqual(PNGError.crcMismatch(chunk: "IHDR", stored: 0x4353_554D, computed: 0xAB).message,
                       "IHDR CRC mismatch (stored 0x4353554d, computed 0x000000ab)")
        let idat = try T.fixture("broken/pngsuite_xcsn0g01.png")
        assertError(idat, PNGError.crcMismatch(chunk: "IDAT", stored: 0x4353_554D, computed: T.crc(Array(idat[53..<(53 + 4 + 91)]))))
        // Lenient mode ignores CRCs, says so, and decodes the 32×32 image.
        let d = try PNGDecoder.decode(idat, options: DecodeOptions(lenient: true))
        XCTAssertEqual(d.animation.width, 32)
        XCTAssertTrue(d.warnings.contains { $0.contains("IDAT CRC mismatch") }, "\(d.warnings)")
        let h = try PNGDecoder.decode(ihdr, options: DecodeOptions(lenient: true))
        XCTAssertEqual(h.animation.height, 32)

        // A synthetic file with a wrong IDAT CRC: strict refuses, lenient equals the intact file.
        let good = T.png(width: 5, height: 3, depth: 8, colorType: 2, samples: (0..<45).map { $0 * 5 })
        var bad = good
        let crcAt = bad.count - 12 - 4
        bad[crcAt] ^= 0xFF
        let idatChunk = T.chunkOffsets(good).first { $0.type == "IDAT" }!
        let goodCRC = T.crc(Array(good[(idatChunk.offset + 4)..<(idatChunk.offset + 8 + idatChunk.length)]))
        assertError(bad, PNGError.crcMismatch(chunk: "IDAT", stored: goodCRC ^ 0xFF00_0000, computed: goodCRC))
        XCTAssertEqual(try PNGDecoder.decode(bad, options: DecodeOptions(lenient: true)).animation,
                       try PNGDecoder.decode(good, options: DecodeOptions()).animation)
    }

    func testMissingAndMisplacedChunks() throws {
        assertError(try T.fixture("broken/pngsuite_xdtn0g01.png"), PNGError.noImageData)
        let samples = [0, 1, 1, 0]
        // Palette image without PLTE.
        let noPLTE = T.png(width: 2, height: 2, depth: 8, colorType: 3, samples: samples)
        assertError(noPLTE, PNGError.noPalette)
        // PLTE in a greyscale image; PLTE with too many entries for the bit depth.
        assertError(T.png(width: 2, height: 2, depth: 8, colorType: 0, samples: samples, palette: [1, 2, 3]),
                    PNGError.paletteInGrayscale(colorType: .grayscale))
        assertError(T.png(width: 2, height: 2, depth: 1, colorType: 3, samples: samples, palette: [UInt8](repeating: 9, count: 9)),
                    PNGError.paletteSize(bytes: 9, maxEntries: 2, bitDepth: 1))
        // Unknown critical chunk: unsupported; unknown ancillary chunk: skipped.
        assertError(T.png(width: 2, height: 2, depth: 8, colorType: 0, samples: samples, before: [T.chunk("ZZZZ", [1])]),
                    PNGError.unknownCriticalChunk("ZZZZ"))
        XCTAssertEqual(PNGError.unknownCriticalChunk("ZZZZ").kind, .unsupported)
        XCTAssertNoThrow(try PNGDecoder.decode(T.png(width: 2, height: 2, depth: 8, colorType: 0, samples: samples, before: [T.chunk("zzZz", [1])]), options: DecodeOptions()))
        // Invalid chunk type bytes.
        assertError(T.png(width: 2, height: 2, depth: 8, colorType: 0, samples: samples, before: [T.chunk("a1b2", [1])]),
                    PNGError.invalidChunkType(0x6131_6232, offset: 33))
        // Non-consecutive IDAT.
        let file = T.png(width: 2, height: 2, depth: 8, colorType: 0, samples: samples, idatSplit: 2)
        let idatChunks = T.chunkOffsets(file).filter { $0.type == "IDAT" }
        var split = Array(file[..<idatChunks[1].offset]) + T.chunk("tEXt", Array("a\u{0}b".utf8))
        split += Array(file[idatChunks[1].offset...])
        assertError(split, PNGError.imageDataNotConsecutive)
        // Missing IEND: strict error, lenient decodes.
        let noIEND = Array(file.dropLast(12))
        assertError(noIEND, PNGError.endsWithoutIEND(fileSize: noIEND.count))
        XCTAssertEqual(try PNGDecoder.decode(noIEND, options: DecodeOptions(lenient: true)).animation.frames[0].image.pixels,
                       [0, 0, 0, 255, 1, 1, 1, 255, 1, 1, 1, 255, 0, 0, 0, 255])
    }

    func testInvalidFilterTypeNamesTheRow() throws {
        var raw = T.scanlines(width: 3, height: 4, depth: 8, colorType: 0, interlace: false, samples: (0..<12).map { $0 * 20 })
        raw[2 * 4] = 7  // filter byte of row 2
        let file = T.signature + T.ihdr(width: 3, height: 4, depth: 8, colorType: 0) + T.chunk("IDAT", T.zlib(raw)) + T.chunk("IEND", [])
        assertError(file, PNGError.invalidFilterType(7, row: 2, pass: nil, in: .idat))
        // Lenient: rows 0 and 1 kept, the rest transparent.
        let d = try PNGDecoder.decode(file, options: DecodeOptions(lenient: true))
        let px = d.animation.frames[0].image.pixels
        XCTAssertEqual(Array(px[0..<24]), (0..<6).flatMap { v -> [UInt8] in let g = UInt8(v * 20); return [g, g, g, 255] })
        XCTAssertEqual(Array(px[24...]), [UInt8](repeating: 0, count: 24))
        XCTAssertTrue(d.warnings.contains { $0.contains("invalid filter type 7") })

        var interlaced = T.scanlines(width: 8, height: 8, depth: 8, colorType: 0, interlace: true, samples: [Int](repeating: 3, count: 64))
        interlaced[interlaced.count - 9] = 9  // filter byte of the last row of pass 7 (8 bytes + filter)
        let f2 = T.signature + T.ihdr(width: 8, height: 8, depth: 8, colorType: 0, interlace: 1) + T.chunk("IDAT", T.zlib(interlaced)) + T.chunk("IEND", [])
        assertError(f2, PNGError.invalidFilterType(9, row: 3, pass: 7, in: .idat))
        XCTAssertEqual(PNGError.invalidFilterType(9, row: 3, pass: 7, in: .idat).message, "invalid filter type 9 in row 3 of Adam7 pass 7 of IDAT")
    }

    func testPaletteIndexOutOfRange() throws {
        let file = T.png(width: 3, height: 1, depth: 8, colorType: 3, samples: [0, 5, 1], palette: [10, 20, 30, 40, 50, 60])
        assertError(file, PNGError.paletteIndexOutOfRange(index: 5, row: 0, in: .idat, paletteEntries: 2))
        let d = try PNGDecoder.decode(file, options: DecodeOptions(lenient: true))
        XCTAssertEqual(d.animation.frames[0].image.pixels, [10, 20, 30, 255, 0, 0, 0, 255, 40, 50, 60, 255])
    }

    func testShortLongAndCorruptImageData() throws {
        let samples = (0..<(6 * 5)).map { $0 * 7 }
        let full = T.scanlines(width: 6, height: 5, depth: 8, colorType: 0, interlace: false, samples: samples)
        func file(_ raw: [UInt8]) -> [UInt8] {
            T.signature + T.ihdr(width: 6, height: 5, depth: 8, colorType: 0) + T.chunk("IDAT", T.zlib(raw)) + T.chunk("IEND", [])
        }
        // Three rows of five (7 bytes each).
        assertError(file(Array(full.prefix(21))), PNGError.imageDataShort(decoded: 21, expected: 35, in: .idat))
        let short = try PNGDecoder.decode(file(Array(full.prefix(21))), options: DecodeOptions(lenient: true))
        let px = short.animation.frames[0].image.pixels
        XCTAssertEqual(Array(px[0..<72]), PNGConformanceTests.expectedRGBA(Array(samples.prefix(18)), count: 18, depth: 8, colorType: 0, palette: nil, trns: nil))
        XCTAssertEqual(Array(px[72...]), [UInt8](repeating: 0, count: 48))
        // Extra data after the image: decoded, with a warning.
        let long = try PNGDecoder.decode(file(full + [0, 1, 2, 3, 4, 5, 6]), options: DecodeOptions())
        XCTAssertEqual(long.animation.frames[0].image.pixels, PNGConformanceTests.expectedRGBA(samples, count: 30, depth: 8, colorType: 0, palette: nil, trns: nil))
        XCTAssertTrue(long.warnings.contains { $0.contains("more data") })
        // Bad Adler-32.
        var z = T.zlib(full)
        z[z.count - 1] ^= 1
        let adler = T.signature + T.ihdr(width: 6, height: 5, depth: 8, colorType: 0) + T.chunk("IDAT", z) + T.chunk("IEND", [])
        assertError(adler, PNGError.badAdler32(bytes: 35, in: .idat))
        XCTAssertEqual(try PNGDecoder.decode(adler, options: DecodeOptions(lenient: true)).animation.frames[0].image.pixels,
                       long.animation.frames[0].image.pixels)
        // A zlib stream cut in the middle: the salvage inflater counts what decoded.
        let big = (0..<(64 * 64)).map { ($0 * 31 + $0 / 64) % 256 }
        let raw = T.scanlines(width: 64, height: 64, depth: 8, colorType: 0, interlace: false, samples: big)
        let zz = T.zlib(raw)
        let cut = T.signature + T.ihdr(width: 64, height: 64, depth: 8, colorType: 0) + T.chunk("IDAT", Array(zz.prefix(zz.count / 2))) + T.chunk("IEND", [])
        guard case .imageDataDamaged(let decoded, raw.count, .idat)? = reason(cut) else { return XCTFail("\(String(describing: reason(cut)))") }
        XCTAssertLessThan(decoded, raw.count)
        let salvaged = try PNGDecoder.decode(cut, options: DecodeOptions(lenient: true)).animation.frames[0].image
        let expected = PNGConformanceTests.expectedRGBA(big, count: 64 * 64, depth: 8, colorType: 0, palette: nil, trns: nil)
        let rowsKept = (0..<64).filter { salvaged.pixels[$0 * 256 + 3] == 255 }.count
        XCTAssertGreaterThan(rowsKept, 0)
        XCTAssertLessThan(rowsKept, 64)
        XCTAssertEqual(Array(salvaged.pixels[0..<(rowsKept * 256)]), Array(expected[0..<(rowsKept * 256)]))
        XCTAssertEqual(Array(salvaged.pixels[(rowsKept * 256)...]), [UInt8](repeating: 0, count: (64 - rowsKept) * 256))
    }

    func testSalvageInflaterMatchesLibdeflateOnWholeStreams() throws {
        var rng = T.Random(state: 99)
        for level: Int32 in [0, 1, 6, 12] {
            let data = (0..<20_000).map { i in UInt8(i % 97 < 50 ? rng.below(4) : rng.below(256)) }
            let z = T.zlib(data, level: level)
            var out = [UInt8](repeating: 0, count: data.count)
            let r = z.withUnsafeBytes { src in out.withUnsafeMutableBufferPointer { SalvageInflater.inflate(zlib: src, into: $0.baseAddress!, capacity: data.count) } }
            XCTAssertEqual(r.produced, data.count, "level \(level)")
            XCTAssertTrue(r.finished)
            XCTAssertEqual(out, data, "level \(level)")
        }
    }

    func testTruncatedFixtures() throws {
        let afterIHDR = try T.fixture("broken/truncated_png_after_ihdr.png")
        assertError(afterIHDR, PNGError.endsBeforeImageData(fileSize: 33))
        assertError(afterIHDR, PNGError.endsBeforeImageData(fileSize: 33), lenient: true)

        let half = try T.fixture("broken/truncated_png_half.png")
        assertError(half, PNGError.endsInChunk(fileSize: 134_768, chunk: "IDAT", length: 269_341, offset: 171))
        let d = try PNGDecoder.decode(half, options: DecodeOptions(lenient: true))
        let image = d.animation.frames[0].image
        let rowBytes = image.width * 4
        let lastRow = image.pixels[(image.height - 1) * rowBytes..<(image.height * rowBytes)]
        XCTAssertTrue(lastRow.allSatisfy { $0 == 0 }, "rows past the truncation are transparent")
        XCTAssertTrue(stride(from: 3, to: image.pixels.count, by: 4).contains { image.pixels[$0] != 0 }, "rows before it are kept")
        XCTAssertTrue(d.warnings.contains { $0.contains("truncated") }, "\(d.warnings)")
        XCTAssertTrue(d.warnings.contains { $0.contains("decoded") }, "\(d.warnings)")
    }

    func testLimitsAreCheckedBeforeDecoding() throws {
        let file = T.png(width: 20, height: 10, depth: 8, colorType: 6, samples: [Int](repeating: 1, count: 800))
        let small = DecodeOptions(limits: Limits(maxWidth: 16))
        XCTAssertThrowsError(try PNGDecoder.decode(file, options: small)) { e in
            XCTAssertEqual((e as? ImageError)?.description, "PNG: IHDR says 20×10, over the 16×65535 limit")
        }
        XCTAssertThrowsError(try PNGDecoder.decode(file, options: DecodeOptions(limits: Limits(maxPixels: 199)))) { e in
            XCTAssertEqual((e as? ImageError)?.kind, .limits)
        }
        // A tiny IDAT cannot hold a large image: refused before the buffer is allocated.
        let claim = T.signature + T.ihdr(width: 10_000, height: 10_000, depth: 8, colorType: 6) + T.chunk("IDAT", T.zlib([0, 0, 0, 0])) + T.chunk("IEND", [])
        assertError(claim, PNGError.imageDataCannotFill(compressed: T.zlib([0, 0, 0, 0]).count, in: .idat, needed: 400_010_000,
                                                        width: 10_000, height: 10_000))
    }

    func testTruncationAtManyOffsetsNeverCrashes() throws {
        var rng = T.Random(state: 5)
        let interlaced = T.png(width: 23, height: 17, depth: 8, colorType: 6, interlace: true,
                               samples: (0..<(23 * 17 * 4)).map { _ in rng.below(256) }, idatSplit: 3)
        let palette = T.png(width: 19, height: 9, depth: 4, colorType: 3, samples: (0..<171).map { _ in rng.below(16) },
                            palette: (0..<48).map { _ in UInt8(rng.below(256)) }, trns: [0, 128, 255])
        let apng = try T.fixture("png/maneki_neko_palette_3f.apng")
        for (name, file) in [("interlaced", interlaced), ("palette", palette), ("apng", apng)] {
            let step = max(1, file.count / 400)
            var cut = 0
            while cut < file.count {
                let part = Array(file[..<cut])
                XCTAssertNotNil(T.decodeError(part), "\(name) cut at \(cut) decoded in strict mode")
                if let e = T.decodeError(part, lenient: true) {
                    // Lenient decoding keeps what a cut file holds: only a cut before any image data fails.
                    switch e.reason as? PNGError {
                    case .emptyFile?, .shorterThanSignature?, .endsBeforeHeader?, .endsBeforeImageData?: break
                    default: XCTFail("\(name) cut at \(cut): \(e)")
                    }
                }
                cut += cut < 80 ? 1 : step
            }
        }
    }

    func testRandomDamageNeverCrashes() throws {
        var rng = T.Random(state: 11)
        let apng = PNGAnimationTests.apng(width: 9, height: 7, frames: [
            .init(width: 9, height: 7, pixels: (0..<252).map { UInt8($0) }),
            .init(x: 2, y: 1, width: 5, height: 4, dispose: 2, blend: 1, pixels: (0..<80).map { UInt8(truncatingIfNeeded: $0 * 3) }),
            .init(x: 0, y: 3, width: 9, height: 4, dispose: 1, blend: 0, pixels: (0..<144).map { UInt8(truncatingIfNeeded: $0 * 7) }),
        ], interlace: true)
        let bases = [try T.fixture("png/maneki_neko_palette_3f.apng"), try T.fixture("png/pillow/pal4.png"),
                     try T.fixture("png/pillow/rgba8.png"), try T.fixture("png/pillow/gray16.png"), apng]
        let iterations = ProcessInfo.processInfo.environment["PNG_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 400
        for i in 0..<iterations {
            var file = bases[i % bases.count]
            for _ in 0..<(1 + rng.below(4)) { file[8 + rng.below(file.count - 8)] = UInt8(rng.below(256)) }
            // Half the time, make the CRCs right again so strict mode gets past them too.
            if i % 2 == 0 { file = T.withFixedCRCs(file) }
            for lenient in [false, true] {
                do {
                    let d = try PNGDecoder.decode(file, options: DecodeOptions(lenient: lenient))
                    XCTAssertFalse(d.animation.frames.isEmpty)
                } catch is ImageError {
                } catch {
                    XCTFail("non-ImageError \(error)")
                }
            }
        }
    }
}

extension PNGTestSupport {
    /// The file with every complete chunk's CRC recomputed.
    static func withFixedCRCs(_ file: [UInt8]) -> [UInt8] {
        var out = file
        for c in chunkOffsets(file) where c.length >= 0 && c.offset + 12 + c.length <= file.count {
            let crc = be32(Int(self.crc(Array(file[(c.offset + 4)..<(c.offset + 8 + c.length)]))))
            out.replaceSubrange((c.offset + 8 + c.length)..<(c.offset + 12 + c.length), with: crc)
        }
        return out
    }

    /// Offsets and types of the chunks of a well-formed file.
    static func chunkOffsets(_ file: [UInt8]) -> [(offset: Int, type: String, length: Int)] {
        var out: [(Int, String, Int)] = []
        var i = 8
        while i + 8 <= file.count {
            let n = Int(file[i]) << 24 | Int(file[i + 1]) << 16 | Int(file[i + 2]) << 8 | Int(file[i + 3])
            out.append((i, String(decoding: file[(i + 4)..<(i + 8)], as: UTF8.self), n))
            i += 12 + n
        }
        return out
    }
}
