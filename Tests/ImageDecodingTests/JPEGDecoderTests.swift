import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

final class JPEGDecoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8], lenient: Bool = false, limits: Limits = .default) throws -> DecodedImage {
        try JPEGDecoder.decode(bytes, options: DecodeOptions(limits: limits, lenient: lenient))
    }

    // MARK: Reference transforms, written as compositions of the primitive turns.

    private func mirrorH(_ s: Image) -> Image {
        var o = Image(width: s.width, height: s.height)
        for y in 0..<s.height { for x in 0..<s.width { o[x, y] = s[s.width - 1 - x, y] } }
        return o
    }

    private func mirrorV(_ s: Image) -> Image {
        var o = Image(width: s.width, height: s.height)
        for y in 0..<s.height { for x in 0..<s.width { o[x, y] = s[x, s.height - 1 - y] } }
        return o
    }

    /// 90° clockwise: the source's top-left ends at the top-right.
    private func rotateCW(_ s: Image) -> Image {
        var o = Image(width: s.height, height: s.width)
        for y in 0..<s.height { for x in 0..<s.width { o[s.height - 1 - y, x] = s[x, y] } }
        return o
    }

    private func reference(_ base: Image, orientation: Int) -> Image {
        switch orientation {
        case 2: mirrorH(base)
        case 3: rotateCW(rotateCW(base))
        case 4: mirrorV(base)
        case 5: rotateCW(rotateCW(rotateCW(mirrorH(base))))   // mirror, then 270° CW
        case 6: rotateCW(base)
        case 7: rotateCW(mirrorH(base))                       // mirror, then 90° CW
        case 8: rotateCW(rotateCW(rotateCW(base)))
        default: base
        }
    }

    func testAllEightEXIFOrientationsMatchTheReferenceTurns() throws {
        let base = try decode(OtherFormatFixture.bytes("jpeg/orient_1.jpg"))
        XCTAssertEqual(base.warnings, [])
        let upright = base.animation.frames[0].image
        XCTAssertEqual(upright.width, 24)
        XCTAssertEqual(upright.height, 16)
        // The fixture has a white top-left corner and a black bottom-right bar.
        XCTAssertGreaterThan(upright[0, 0].g, 230)
        XCTAssertLessThan(upright[23, 15].r, 30)
        for n in 2...8 {
            let decoded = try decode(OtherFormatFixture.bytes("jpeg/orient_\(n).jpg"))
            let image = decoded.animation.frames[0].image
            XCTAssertTrue(image == reference(upright, orientation: n), "orientation \(n) differs from the reference turn")
            XCTAssertEqual(decoded.warnings.count, 1)
            XCTAssertTrue(decoded.warnings[0].hasPrefix("applied EXIF orientation \(n) ("), decoded.warnings[0])
        }
        let cw = try decode(OtherFormatFixture.bytes("jpeg/orient_6.jpg"))
        XCTAssertEqual(cw.warnings, ["applied EXIF orientation 6 (rotate 90° CW)"])
    }

    func testBigEndianEXIFIsReadToo() throws {
        for n in [3, 6] {
            let little = try decode(OtherFormatFixture.bytes("jpeg/orient_\(n).jpg"))
            let big = try decode(OtherFormatFixture.bytes("jpeg/orient_\(n)_be.jpg"))
            XCTAssertTrue(big.animation == little.animation, "orientation \(n): byte orders disagree")
            XCTAssertEqual(big.warnings, little.warnings)
        }
    }

    func testProgressiveMatchesPillow() throws {
        let image = try decode(OtherFormatFixture.bytes("jpeg/progressive.jpg")).animation.frames[0].image
        XCTAssertEqual([image.width, image.height], [48, 32])
        XCTAssertLessThanOrEqual(OtherFormatFixture.maxDifference(image.pixels, try OtherFormatFixture.bytes("jpeg/progressive.rgba")), 2)
    }

    func testGrayscaleBecomesGrayRGBA() throws {
        let image = try decode(OtherFormatFixture.bytes("jpeg/gray.jpg")).animation.frames[0].image
        XCTAssertTrue(image.isGray)
        XCTAssertTrue(image.isOpaque)
        XCTAssertLessThanOrEqual(OtherFormatFixture.maxDifference(image.pixels, try OtherFormatFixture.bytes("jpeg/gray.rgba")), 2)
    }

    func testAdobeCMYKIsUninvertedAndConverted() throws {
        let decoded = try decode(OtherFormatFixture.bytes("jpeg/cmyk.jpg"))
        let image = decoded.animation.frames[0].image
        XCTAssertLessThanOrEqual(OtherFormatFixture.maxDifference(image.pixels, try OtherFormatFixture.bytes("jpeg/cmyk.rgba")), 3)
        // Patch 0 is pure cyan ink: no red, full green and blue.
        XCTAssertLessThan(image[3, 8].r, 5)
        XCTAssertGreaterThan(image[3, 8].g, 250)
        XCTAssertTrue(decoded.warnings.contains { $0.contains("CMYK") && $0.contains("naive") }, "\(decoded.warnings)")
    }

    func testCMYKWithAnEmbeddedCMYKProfile() throws {
        let bytes = try OtherFormatFixture.bytes("jpeg/cmyk.jpg")
        let icc = try ColorProfileTests.naiveCMYKProfile()
        let tagged = Array(bytes[..<2]) + app2(sequence: 1, count: 1, icc[...]) + Array(bytes[2...])
        let decoded = try decode(tagged)
        XCTAssertTrue(decoded.warnings.contains("converted CMYK with embedded ICC profile 'Test CMYK' to sRGB"), "\(decoded.warnings)")
        // The profile's corners are the naive conversion: the pure-ink patches (0–4, 7) agree.
        let image = decoded.animation.frames[0].image
        let want = try OtherFormatFixture.bytes("jpeg/cmyk.rgba")
        for patch in [0, 1, 2, 3, 4, 7] {
            let i = (8 * 64 + patch * 8 + 4) * 4
            XCTAssertLessThanOrEqual(OtherFormatFixture.maxDifference(Array(image.pixels[i..<i + 4]), Array(want[i..<i + 4])), 6, "patch \(patch)")
        }
    }

    func testBrokenEXIFIsIgnored() throws {
        var bytes = try OtherFormatFixture.bytes("jpeg/orient_6.jpg")
        // APP1 starts at 2; TIFF header at 2 + 4 + 6; its IFD0 offset (bytes 4…7) now points far away.
        bytes[12 + 4] = 0xF0
        let decoded = try decode(bytes)
        XCTAssertEqual(decoded.warnings, [])
        XCTAssertEqual(decoded.animation, try decode(OtherFormatFixture.bytes("jpeg/orient_1.jpg")).animation)
    }

    // MARK: ICC

    /// (marker, start, end) of each segment before the scan, `end` exclusive, `start` at 0xFF.
    private func segments(_ b: [UInt8]) -> [(marker: UInt8, start: Int, end: Int)] {
        var out: [(UInt8, Int, Int)] = []
        var i = 2
        while i + 4 <= b.count, b[i] == 0xFF, b[i + 1] != 0xDA {
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            out.append((b[i + 1], i, i + 2 + length))
            i += 2 + length
        }
        return out
    }

    private func app2(sequence: UInt8, count: UInt8, _ payload: ArraySlice<UInt8>) -> [UInt8] {
        let body = Array("ICC_PROFILE".utf8) + [0, sequence, count] + payload
        let length = body.count + 2
        return [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    private func saturation(_ image: Image) -> Double {
        var total = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let c = image.pixels[i..<i + 3]
            total += Int(c.max()!) - Int(c.min()!)
        }
        return Double(total) / Double(image.width * image.height)
    }

    func testAdobeRGBPhotoIsConvertedAndMoreSaturatedThanUntagged() throws {
        let bytes = try OtherFormatFixture.bytes("jpeg/rocket_640x427.jpg")
        let tagged = try decode(bytes)
        XCTAssertEqual(tagged.warnings, ["converted from embedded ICC profile 'Adobe RGB (1998)' to sRGB"])
        let icc = try XCTUnwrap(segments(bytes).first { $0.marker == 0xE2 })
        let untaggedBytes = Array(bytes[..<icc.start] + bytes[icc.end...])
        let untagged = try decode(untaggedBytes)
        XCTAssertEqual(untagged.warnings, [])
        let a = tagged.animation.frames[0].image, b = untagged.animation.frames[0].image
        XCTAssertGreaterThan(saturation(a), saturation(b) * 1.05)
        // Each converted pixel is the published Adobe RGB → sRGB conversion of the stored one.
        var worst = 0.0
        for i in stride(from: 0, to: b.pixels.count, by: 4 * 97) {
            let e = ColorProfileTests.adobeToSRGB(b.pixels[i], b.pixels[i + 1], b.pixels[i + 2])
            for (c, want) in [e.0, e.1, e.2].enumerated() { worst = max(worst, abs(Double(a.pixels[i + c]) - want)) }
        }
        XCTAssertLessThanOrEqual(worst, 3.5)
    }

    func testICCChunksAreReassembledBySequenceNumber() throws {
        let bytes = try OtherFormatFixture.bytes("jpeg/rocket_640x427.jpg")
        let whole = try decode(bytes)
        let icc = try XCTUnwrap(segments(bytes).first { $0.marker == 0xE2 })
        let profile = bytes[(icc.start + 4 + 14)..<icc.end]
        let half = profile.startIndex + profile.count / 2
        // Stored out of order: chunk 2 first.
        let split = app2(sequence: 2, count: 2, profile[half...]) + app2(sequence: 1, count: 2, profile[..<half])
        let reordered = Array(bytes[..<icc.start]) + split + Array(bytes[icc.end...])
        let decoded = try decode(reordered)
        XCTAssertTrue(decoded.animation == whole.animation, "reassembled profile gives other pixels")
        XCTAssertEqual(decoded.warnings, whole.warnings)

        // One chunk of two: no profile. The pixels (RGB) are readable without it: used as sRGB
        // with a note, strict mode included — the rule for every format (main refused it).
        let missing = Array(bytes[..<icc.start]) + app2(sequence: 1, count: 2, profile[..<half]) + Array(bytes[icc.end...])
        for lenient in [false, true] {
            let d = try decode(missing, lenient: lenient)
            XCTAssertEqual(d.warnings, [ColorProfile.ignoredNote(JPEGError.inconsistentICCChunks(sequences: [1], counts: [2]))])
            XCTAssertTrue(d.animation == (try decode(untagged(bytes))).animation)
        }
    }

    /// `bytes` without their APP2 (ICC) segment.
    private func untagged(_ bytes: [UInt8]) throws -> [UInt8] {
        let icc = try XCTUnwrap(segments(bytes).first { $0.marker == 0xE2 })
        return Array(bytes[..<icc.start] + bytes[icc.end...])
    }

    func testBrokenProfileOnRGBIsIgnoredWithANote() throws {
        // Main refused this file in strict mode; PNG ignored such a profile with a note. One rule now.
        let bytes = try OtherFormatFixture.bytes("jpeg/rocket_640x427.jpg")
        let junk = [UInt8](repeating: 7, count: 300)
        let broken = Array(bytes[..<2]) + app2(sequence: 1, count: 1, junk[...]) + (try untagged(bytes)).dropFirst(2)
        for lenient in [false, true] {
            let d = try decode(broken, lenient: lenient)
            XCTAssertEqual(d.warnings, ["ignored: embedded ICC profile is invalid (300 bytes); colours used as sRGB"])
            XCTAssertTrue(d.animation == (try decode(untagged(bytes))).animation)
        }
    }

    func testBrokenProfileOnCMYKFailsUnlessLenient() throws {
        // CMYK pixels need their profile: a broken one fails strict decoding; lenient mode
        // converts naively and says why. Main ignored these chunks silently.
        let bytes = try OtherFormatFixture.bytes("jpeg/cmyk.jpg")
        let icc = try ColorProfileTests.naiveCMYKProfile()
        let half = icc.count / 2
        let oneOfTwo = Array(bytes[..<2]) + app2(sequence: 1, count: 2, icc[..<half]) + Array(bytes[2...])
        let problem = JPEGError.inconsistentICCChunks(sequences: [1], counts: [2])
        XCTAssertEqual(OtherFormatFixture.expectError(.decoding) { try decode(oneOfTwo) }, ImageError(.jpeg, problem))
        let lenient = try decode(oneOfTwo, lenient: true)
        XCTAssertTrue(lenient.warnings.contains("converted CMYK to sRGB with a naive formula (\(problem.message))"), "\(lenient.warnings)")
        let junk = Array(bytes[..<2]) + app2(sequence: 1, count: 1, [UInt8](repeating: 7, count: 300)[...]) + Array(bytes[2...])
        XCTAssertEqual(OtherFormatFixture.expectError(.decoding) { try decode(junk) },
                       ImageError(.jpeg, ColorProfileError.invalidProfile(bytes: 300)))
    }

    func testOnlyTheSignatureIsATruncatedJPEG() {
        // Main said "not an image: unknown format (first bytes ff d8)".
        let error = OtherFormatFixture.expectError(.decoding) { try ImageDecoder.decode([0xFF, 0xD8]) }
        XCTAssertEqual(error, ImageError(.jpeg, JPEGError.endsInHeader(fileSize: 2)))
        XCTAssertEqual(error?.description, "JPEG: file is truncated: data ends after 2 bytes, inside the header")
        // One byte says nothing; other formats cut inside their signature are named too.
        XCTAssertNil(ImageDecoder.sniff([0xFF]))
        XCTAssertEqual(ImageDecoder.sniff(Array("GIF8".utf8)), .gif)
        XCTAssertEqual(ImageDecoder.sniff(Array("RIFF".utf8) + [0, 0]), .webp)
        XCTAssertEqual(ImageDecoder.sniff([0xFF, 0xD9]), nil)
    }

    // MARK: Hostile input

    func testTruncatedCorpusJPEG() throws {
        let bytes = try OtherFormatFixture.bytes("broken/truncated_jpeg_30pct.jpg")
        let error = OtherFormatFixture.expectError(.decoding) { try decode(bytes) }
        XCTAssertEqual(error?.description, "JPEG: data ends after 456034 bytes")
        let lenient = try decode(bytes, lenient: true)
        XCTAssertEqual(lenient.animation.width, 4224)
        XCTAssertEqual(lenient.animation.height, 3168)
        XCTAssertTrue(lenient.warnings.contains { $0.hasPrefix("data ends after 456034 bytes") }, "\(lenient.warnings)")
    }

    func testJPEGNamedPNGIsSniffedAsJPEG() throws {
        let decoded = try ImageDecoder.decode(OtherFormatFixture.bytes("broken/jpeg_with_png_extension.png"))
        XCTAssertEqual(decoded.format, .jpeg)
        XCTAssertEqual(decoded.animation.width, 640)
        XCTAssertEqual(decoded.animation.height, 427)
    }

    func testLimitsAreCheckedBeforeDecoding() throws {
        let bytes = try OtherFormatFixture.bytes("jpeg/rocket_640x427.jpg")
        let error = OtherFormatFixture.expectError(.limits) { try decode(bytes, limits: Limits(maxPixels: 100_000)) }
        XCTAssertEqual(error?.description, "JPEG: header says 640×427, over the 100000-pixel limit")
        // A 65500×65500 frame header with no scan data is refused, not allocated (16 GiB).
        var huge = try OtherFormatFixture.bytes("jpeg/orient_1.jpg")
        let sof = try XCTUnwrap(segments(huge).first { $0.marker == 0xC0 })
        huge[sof.start + 5] = 0xFF; huge[sof.start + 6] = 0xDC
        huge[sof.start + 7] = 0xFF; huge[sof.start + 8] = 0xDC
        let bomb = OtherFormatFixture.expectError(.limits) { try decode(huge) }
        guard case .overPixels("header says", 65500, 65500, _)? = bomb?.reason as? LimitsError else {
            return XCTFail("\(String(describing: bomb))")
        }
    }

    func testGarbageAfterTheSignatureIsAnError() {
        for body in [[UInt8](), [UInt8](repeating: 0, count: 100), Array("hello, not a jpeg".utf8)] {
            let error = OtherFormatFixture.expectError(.decoding) { try decode([0xFF, 0xD8, 0xFF] + body) }
            XCTAssertEqual(error?.format, .jpeg)
        }
    }

    func testTruncationAtManyOffsetsNeverCrashes() throws {
        for name in ["orient_6.jpg", "progressive.jpg", "gray.jpg", "cmyk.jpg", "rocket_640x427.jpg"] {
            let bytes = try OtherFormatFixture.bytes("jpeg/" + name)
            for cut in OtherFormatFixture.cutPoints(bytes.count, steps: name.hasPrefix("rocket") ? 40 : 120) {
                let part = Array(bytes[..<cut])
                // Strict: every cut file is an error (at least EOI is missing).
                XCTAssertThrowsError(try decode(part), "\(name) cut at \(cut)") { error in
                    XCTAssertTrue(error is ImageError)
                }
                do {
                    let lenient = try decode(part, lenient: true)
                    XCTAssertFalse(lenient.warnings.isEmpty, "\(name) cut at \(cut) decoded without a warning")
                } catch {
                    XCTAssertTrue(error is ImageError, "\(error)")
                }
            }
        }
    }
}
