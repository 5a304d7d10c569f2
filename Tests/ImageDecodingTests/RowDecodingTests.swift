import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// `ImageDecoder.decodeRows` (a still row by row, never whole) gives the rows, warnings and
/// errors of `decode`, and `ImageOutline.rowDecodingMemory` says which files it takes.
final class RowDecodingTests: XCTestCase {
    /// The rows of a row decode put together, with its facts; nil when it declined the file.
    /// `bandBytes` given: a PNG's row decode with interlaced bands of that many RGBA bytes.
    static func rows(_ bytes: [UInt8], options: DecodeOptions, bandBytes: Int? = nil) throws -> (image: Image, info: FrameStreamInfo)? {
        var pixels: [UInt8] = []
        var width = 0, next = 0
        let start: (Int, Int) throws -> Void = { w, h in
            width = w
            pixels.reserveCapacity(w * h * 4)
        }
        let row: (UnsafeRawPointer, Int) throws -> Void = { row, y in
            XCTAssertEqual(y, next)
            next += 1
            pixels += UnsafeRawBufferPointer(start: row, count: width * 4)
        }
        let info = try ImageDecoder.sniff(bytes) == .png
            ? bandBytes.map { try PNGRowDecoder.decodeRows(bytes, options: options, bandBytes: $0, start: start, row: row) }
                ?? ImageDecoder.decodeRows(bytes, options: options, start: start, row: row)
            : ImageDecoder.decodeRows(bytes, options: options, start: start, row: row)
        guard let info else {
            XCTAssertEqual(next, 0, "rows delivered before declining")
            return nil
        }
        return (Image(width: info.width, height: info.height, pixels: pixels), info)
    }

    func testEveryJPEGFixtureDecodesByRowsAsWhole() throws {
        let dir = OtherFormatFixture.root.appendingPathComponent("jpeg")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jpg") }.sorted()
        XCTAssertGreaterThan(names.count, 10)
        var streamed = 0
        for name in names {
            let bytes = try OtherFormatFixture.bytes("jpeg/\(name)")
            let whole = try ImageDecoder.decode(bytes)
            let memory = bytes.withUnsafeBytes { ImageOutline.rowDecodingMemory($0) }
            guard let (image, info) = try Self.rows(bytes, options: .init()) else {
                XCTAssertTrue(whole.warnings.contains { $0.hasPrefix("applied EXIF orientation") }, "\(name) declined")
                XCTAssertNil(memory, "\(name): the outline says it decodes by rows")
                continue
            }
            streamed += 1
            XCTAssertNotNil(memory, name)
            XCTAssertEqual(image, whole.animation.frames[0].image, name)
            XCTAssertEqual(info.warnings, whole.warnings, name)
            XCTAssertEqual(info.format, .jpeg)
        }
        // orient_1 (the tag says "as stored"), gray, CMYK, progressive and the ICC-tagged photo.
        XCTAssertGreaterThanOrEqual(streamed, 5)
    }

    func testCutJPEGsFailOrKeepTheSameRowsAsWhole() throws {
        for name in ["rocket_640x427.jpg", "cmyk.jpg", "progressive.jpg", "gray.jpg"] {
            let bytes = try OtherFormatFixture.bytes("jpeg/\(name)")
            for cut in OtherFormatFixture.cutPoints(bytes.count, steps: 12) where cut > 0 {
                let part = Array(bytes.prefix(cut))
                for lenient in [false, true] {
                    let options = DecodeOptions(lenient: lenient)
                    Self.assertSameOutcome(part, options: options, "\(name) cut at \(cut), lenient \(lenient)")
                }
            }
        }
    }

    func testAnRGBProfileConvertsEachRowAsTheWholeImage() throws {
        // The photo carries Adobe RGB (1998): converted, with the same note.
        let bytes = try OtherFormatFixture.bytes("jpeg/rocket_640x427.jpg")
        let whole = try ImageDecoder.decode(bytes)
        XCTAssertTrue(whole.warnings.contains { $0.contains("ICC profile") }, "\(whole.warnings)")
        let rows = try XCTUnwrap(try Self.rows(bytes, options: .init()))
        XCTAssertEqual(rows.image, whole.animation.frames[0].image)
    }

    /// Generated PNGs of every colour type and bit depth, with tRNS, gAMA, an iCCP profile,
    /// IDAT split in several chunks and every filter type, plain and interlaced.
    static func generatedPNGs() throws -> [(name: String, bytes: [UInt8])] {
        var out: [(String, [UInt8])] = []
        var rng = PNGTestSupport.Random(state: 7)
        let adobe = try OtherFormatFixture.bytes("color/adobe_rgb_1998.icc")
        let iccp = PNGTestSupport.chunk("iCCP", Array("Adobe RGB".utf8) + [0, 0] + PNGTestSupport.zlib(adobe))
        let gama = PNGTestSupport.chunk("gAMA", PNGTestSupport.be32(45_455 * 2))
        for colorType in [0, 2, 3, 4, 6] {
            for depth in [1, 2, 4, 8, 16] where PNGColorType(rawValue: UInt8(colorType))!.allowedBitDepths.contains(depth) {
                let (w, h) = (37, 23)
                let n = w * h * PNGTestSupport.channels(colorType)
                let samples = (0..<n).map { _ in rng.below(colorType == 3 ? min(1 << depth, 6) : 1 << depth) }
                let palette: [UInt8]? = colorType == 3 ? (0..<3 * min(1 << depth, 6)).map { _ in UInt8(rng.below(256)) } : nil
                var trns: [UInt8]?
                switch colorType {
                case 0: trns = PNGTestSupport.be16(samples[3])
                case 2: trns = PNGTestSupport.be16(samples[0]) + PNGTestSupport.be16(samples[1]) + PNGTestSupport.be16(samples[2])
                case 3: trns = [0, 128]
                default: trns = nil
                }
                for (variant, before) in [("plain", [[UInt8]]()), ("gAMA", [gama]), ("iCCP", [iccp])] {
                    for interlace in [false, true] {
                        let png = PNGTestSupport.png(width: w, height: h, depth: depth, colorType: colorType, interlace: interlace,
                                                     samples: samples, palette: palette, trns: trns, before: before,
                                                     idatSplit: 3, filterSeed: depth + colorType)
                        out.append(("type \(colorType) depth \(depth) \(variant)\(interlace ? " interlaced" : "")", png))
                    }
                }
            }
        }
        return out
    }

    /// `message` with "decoded N of" made "decoded … of".
    static func withoutCounts(_ message: String) -> String {
        message.replacingOccurrences(of: #"decoded \d+ of"#, with: "decoded … of", options: .regularExpression)
    }

    /// Band sizes for interlaced images 37 pixels wide: one row, five rows (a band that holds
    /// no row of some passes), and the whole image in one band.
    static let bands = [37 * 4, 5 * 37 * 4, PNGRowDecoder.bandBytes]

    func testEveryKindOfPNGDecodesByRowsAsWhole() throws {
        var streamed = 0
        for (name, png) in try Self.generatedPNGs() {
            let whole = try ImageDecoder.decode(png)
            let memory = png.withUnsafeBytes { ImageOutline.rowDecodingMemory($0) }
            let (image, info) = try XCTUnwrap(try Self.rows(png, options: .init()), "\(name) declined")
            streamed += 1
            XCTAssertNotNil(memory, name)
            // Interlaced: a copy of the stream for each of the 7 passes too.
            XCTAssertLessThan(memory ?? .max, 100_000 + (name.hasSuffix("interlaced") ? 7 * PNGRowDecoder.passStreamBytes : 0), name)
            XCTAssertEqual(image, whole.animation.frames[0].image, name)
            XCTAssertEqual(info.warnings, whole.warnings, name)
            if name.hasSuffix("interlaced") {
                for band in Self.bands {
                    let banded = try XCTUnwrap(try Self.rows(png, options: .init(), bandBytes: band))
                    XCTAssertEqual(banded.image, whole.animation.frames[0].image, "\(name), bands of \(band) bytes")
                    XCTAssertEqual(banded.info.warnings, whole.warnings, name)
                }
            }
        }
        XCTAssertEqual(streamed, 6 * 15)
    }

    /// `scanPixels` gives every pixel of the whole decode once (an interlaced image in its passes'
    /// rows, unordered), with its notes: the same pixels, counted, as the whole image.
    func testScanPixelsGivesEveryPixelOnce() throws {
        for (name, png) in try Self.generatedPNGs() {
            let whole = try ImageDecoder.decode(png)
            let image = whole.animation.frames[0].image
            var scanned: [UInt32] = []
            let info = try XCTUnwrap(try ImageDecoder.scanPixels(png) { pixels, count in
                scanned += UnsafeRawBufferPointer(start: pixels, count: count * 4).bindMemory(to: UInt32.self)
            }, name)
            let expected = image.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
            XCTAssertEqual(scanned.count, expected.count, name)
            XCTAssertEqual(scanned.sorted(), expected.sorted(), name)
            if !name.hasSuffix("interlaced") { XCTAssertEqual(scanned, expected, "\(name): rows in order") }
            XCTAssertEqual(info.warnings, whole.warnings, name)
        }
        let gif = try OtherFormatFixture.bytes("gif/disposal.gif")
        XCTAssertNil(try ImageDecoder.scanPixels(gif) { _, _ in XCTFail("pixels of a declined file") })
    }

    /// Shapes where Adam7 passes are empty (fewer than 8 columns or rows, a single pixel), in
    /// bands of one row and of two: the rows of the whole decode.
    func testSmallInterlacedShapesDecodeByBandsAsWhole() throws {
        var rng = PNGTestSupport.Random(state: 11)
        for (w, h) in [(1, 1), (1, 9), (9, 1), (2, 2), (5, 3), (3, 5), (8, 8), (9, 17)] {
            for (colorType, depth) in [(0, 1), (3, 2), (2, 8), (6, 16)] {
                let n = w * h * PNGTestSupport.channels(colorType)
                let samples = (0..<n).map { _ in rng.below(colorType == 3 ? 4 : 1 << depth) }
                let palette: [UInt8]? = colorType == 3 ? (0..<12).map { _ in UInt8(rng.below(256)) } : nil
                let png = PNGTestSupport.png(width: w, height: h, depth: depth, colorType: colorType, interlace: true,
                                             samples: samples, palette: palette, filterSeed: w + h)
                let whole = try ImageDecoder.decode(png).animation.frames[0].image
                for rows in [1, 2] {
                    let banded = try XCTUnwrap(try Self.rows(png, options: .init(), bandBytes: rows * w * 4))
                    XCTAssertEqual(banded.image, whole, "\(w)×\(h) type \(colorType) depth \(depth), bands of \(rows) rows")
                }
            }
        }
    }

    /// Interlaced files libpng wrote, with its own filter choices: by rows, in bands of one and
    /// seven rows, the rows of the whole decode.
    func testInterlacedFilesFromLibPNGDecodeByBandsAsWhole() throws {
        let names = ["interlaced_rgba_80x50.png", "interlaced_palette_61x45.png", "interlaced_gray16_70x33.png"]
        for name in names {
            let png = try OtherFormatFixture.bytes("png/libpng/\(name)")
            let whole = try ImageDecoder.decode(png)
            let image = whole.animation.frames[0].image
            let rows = try XCTUnwrap(try Self.rows(png, options: .init()), name)
            XCTAssertEqual(rows.image, image, name)
            XCTAssertEqual(rows.info.warnings, whole.warnings, name)
            for band in [1, 7] {
                let banded = try XCTUnwrap(try Self.rows(png, options: .init(), bandBytes: band * image.width * 4))
                XCTAssertEqual(banded.image, image, "\(name), bands of \(band) rows")
            }
        }
    }

    /// An interlaced image decoded in bands holds a band and each pass's stream and scanlines, as
    /// the outline says, not the image: a 3000×2000 RGBA image (24 MB) in bands of 1 MB.
    func testAnInterlacedImageIsHeldABandAtATime() throws {
        let (w, h) = (3000, 2000)
        let samples = (0..<(w * h * 4)).map { ($0 * 7 + $0 / 12_000) % 256 }
        let png = PNGTestSupport.png(width: w, height: h, depth: 8, colorType: 6, interlace: true, samples: samples, palette: nil,
                                     trns: nil, before: [], idatSplit: 4, filterSeed: 3)
        let whole = try ImageDecoder.decode(png).animation.frames[0].image
        let band = 1 << 20
        let banded = try XCTUnwrap(try Self.rows(png, options: .init(), bandBytes: band))
        XCTAssertEqual(banded.image, whole)
        let memory = PNGRowDecoder.interlacedMemory(width: w, height: h, bitsPerPixel: 32, bandBytes: band)
        // 87 rows a band: the band (1 MB), and 7 streams and 14 scanlines of at most 12 KB.
        XCTAssertEqual(PNGRowDecoder.bandRows(width: w, height: h, bandBytes: band), 87)
        XCTAssertLessThan(memory, band + 7 * (PNGRowDecoder.passStreamBytes + 2 * 12_001))
        XCTAssertGreaterThan(memory, band)
        // The outline counts the decoder's own estimate (the default band holds this image whole).
        let outline = png.withUnsafeBytes { ImageOutline.rowDecodingMemory($0) }
        XCTAssertEqual(outline, 2 * (w * 4 + 1) + w * 4 + PNGRowDecoder.interlacedMemory(width: w, height: h, bitsPerPixel: 32) + 65_536)
    }

    func testCutAndDamagedPNGsFailOrKeepTheSameRowsAsWhole() throws {
        let sources = try Self.generatedPNGs().filter { $0.name.contains("plain") }
        var rng = PNGTestSupport.Random(state: 3)
        for (name, png) in sources {
            var variants: [(String, [UInt8])] = OtherFormatFixture.cutPoints(png.count, steps: 40).map { ("cut at \($0)", Array(png.prefix($0))) }
            // 150 single-byte changes over the chunks and the data, each tried strict and lenient.
            for _ in 0..<150 {
                var bad = png
                let i = 60 + rng.below(png.count - 72)
                bad[i] ^= UInt8(1 + rng.below(255))
                variants.append(("byte \(i) changed", bad))
            }
            for (what, bytes) in variants {
                for lenient in [false, true] {
                    let options = DecodeOptions(lenient: lenient)
                    Self.assertSameOutcome(bytes, options: options, "\(name) \(what), lenient \(lenient)")
                    if name.hasSuffix("interlaced") {
                        Self.assertSameOutcome(bytes, options: options, bandBytes: 5 * 37 * 4, "\(name) \(what), lenient \(lenient), bands")
                    }
                }
            }
        }
    }

    /// A zlib header whose check bits or window size are wrong: the whole decode's salvage
    /// inflater reads past them, and so does the row decode (zlib is given a good header), with
    /// the same image and notes, plain and interlaced, strict and lenient.
    func testABadZlibHeaderCheckIsReadPastAsWhole() throws {
        for (name, png) in try Self.generatedPNGs() where name.hasPrefix("type 6 depth 8 plain") {
            let idat = try XCTUnwrap((8..<png.count - 4).first { png[$0..<($0 + 4)].elementsEqual("IDAT".utf8) })
            for header: [UInt8] in [[0x78, 0x9D], [0x88, 0x9C], [0x48, 0x00]] {
                var bad = png
                bad[idat + 4] = header[0]
                bad[idat + 5] = header[1]
                let whole = try ImageDecoder.decode(bad, options: DecodeOptions(lenient: true))
                let rows = try XCTUnwrap(try Self.rows(bad, options: DecodeOptions(lenient: true)))
                XCTAssertEqual(rows.image, whole.animation.frames[0].image, "\(name) \(header)")
                XCTAssertEqual(rows.info.warnings, whole.warnings, "\(name) \(header)")
                XCTAssertTrue(whole.animation.frames[0].image.pixels.contains { $0 != 0 }, name)
                Self.assertSameOutcome(bad, options: .init(), "\(name) \(header), strict")
                if name.hasSuffix("interlaced") {
                    let banded = try XCTUnwrap(try Self.rows(bad, options: DecodeOptions(lenient: true), bandBytes: 3 * 37 * 4))
                    XCTAssertEqual(banded.image, whole.animation.frames[0].image, "\(name) \(header), bands")
                }
            }
        }
    }

    /// A whole decode and a row decode of `bytes` both fail with the same error, or give the
    /// same image and notes; or the file is no JPEG or PNG by its first bytes and rows decline it.
    static func assertSameOutcome(_ bytes: [UInt8], options: DecodeOptions, bandBytes: Int? = nil, _ label: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
        let whole = Result { try ImageDecoder.decode(bytes, options: options) }
        let rows = Result { try Self.rows(bytes, options: options, bandBytes: bandBytes) }
        switch (whole, rows) {
        case let (.success(w), .success(r?)):
            // How many bytes of a broken stream count as decoded is zlib's word in a PNG row
            // decode and the salvage inflater's in a whole decode (and so, when a stream breaks
            // inside a row whose filter byte is garbage, which of the two problems the note
            // names). Where a block's Huffman tables are damaged, zlib stops at them and the
            // salvage inflater decodes a few more bytes: the row decode keeps the same pixels
            // or leaves them transparent, never others.
            let transparent = "; the rest is transparent"
            let a = r.info.warnings.map(Self.withoutCounts), b = w.warnings.map(Self.withoutCounts)
            let image = w.animation.frames[0].image
            if options.lenient, a.last?.hasSuffix(transparent) == true, b.last?.hasSuffix(transparent) == true {
                XCTAssertEqual(a.dropLast(), b.dropLast(), label, file: file, line: line)
                XCTAssertEqual(r.image.width, image.width, label, file: file, line: line)
                let pixels = r.image.pixels.count / 4
                let kept = (0..<pixels).allSatisfy { i in
                    let p = r.image.pixels[(4 * i)..<(4 * i + 4)]
                    return p == image.pixels[(4 * i)..<(4 * i + 4)] || p.allSatisfy { $0 == 0 }
                }
                XCTAssertTrue(kept, "\(label): a pixel the row decode kept differs from the whole decode's", file: file, line: line)
            } else {
                XCTAssertEqual(r.image, image, label, file: file, line: line)
                XCTAssertEqual(a, b, label, file: file, line: line)
            }
        case let (.failure(a), .failure(b)):
            XCTAssertEqual("\(a)", "\(b)", label, file: file, line: line)
        case (.failure, .success(nil)) where ![.png, .jpeg].contains(ImageDecoder.sniff(bytes)):
            break
        default:
            XCTFail("\(label): whole \(whole), rows \(rows)", file: file, line: line)
        }
    }

    func testAnimationsAreDeclined() throws {
        let gif = try OtherFormatFixture.bytes("gif/disposal.gif")
        XCTAssertNil(try Self.rows(gif, options: .init()))
        XCTAssertNil(gif.withUnsafeBytes { ImageOutline.rowDecodingMemory($0) })
    }
}
