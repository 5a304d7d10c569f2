import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

final class WebPDecoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8], lenient: Bool = false, firstFrameOnly: Bool = false,
                        limits: Limits = .default) throws -> DecodedImage {
        try WebPDecoder.decode(bytes, options: DecodeOptions(limits: limits, lenient: lenient, firstFrameOnly: firstFrameOnly))
    }

    func testLosslessStillWithAlphaIsExact() throws {
        let decoded = try decode(OtherFormatFixture.bytes("webp/lossless_alpha.webp"))
        let image = decoded.animation.frames[0].image
        XCTAssertEqual(decoded.format, .webp)
        XCTAssertEqual([image.width, image.height], [20, 12])
        XCTAssertTrue(image.pixels == (try OtherFormatFixture.bytes("webp/lossless_alpha.rgba")), "pixels differ from the source")
        XCTAssertEqual(decoded.warnings, [])
    }

    func testLossyStillWithAlphaFromTheCorpus() throws {
        let image = try decode(OtherFormatFixture.bytes("webp/webp_gallery_dice_alpha.webp")).animation.frames[0].image
        XCTAssertEqual([image.width, image.height], [800, 600])
        XCTAssertFalse(image.isOpaque)
        XCTAssertFalse(image.isGray)
    }

    func testAnimationDelaysLoopAndFrames() throws {
        let decoded = try decode(OtherFormatFixture.bytes("webp/anim_solid.webp"))
        let a = decoded.animation
        XCTAssertEqual([a.width, a.height, a.frames.count, a.loopCount], [16, 10, 3, 2])
        XCTAssertEqual(a.frames.map(\.delay), [50, 120, 30].map { Delay(milliseconds: $0) })
        let raw = try OtherFormatFixture.bytes("webp/anim_solid.rgba")
        let size = 16 * 10 * 4
        for i in 0..<3 {
            XCTAssertTrue(a.frames[i].image.pixels == Array(raw[(i * size)..<((i + 1) * size)]), "frame \(i + 1) differs")
        }
    }

    func testRingAnimationFromTheCorpus() throws {
        let a = try decode(OtherFormatFixture.bytes("webp/ring_200_6f.webp")).animation
        // Pillow: 200×200, 6 frames of 100 ms, loop 0.
        XCTAssertEqual([a.width, a.height, a.frames.count, a.loopCount], [200, 200, 6, 0])
        XCTAssertEqual(Set(a.frames.map(\.delay)), [Delay(milliseconds: 100)])
        XCTAssertFalse(a.frames[0].image.isOpaque)
        XCTAssertNotEqual(a.frames[0].image, a.frames[1].image)
        let first = try decode(OtherFormatFixture.bytes("webp/ring_200_6f.webp"), firstFrameOnly: true).animation
        XCTAssertEqual(first.frames, [a.frames[0]])
    }

    func testICCPChunkIsApplied() throws {
        let decoded = try decode(OtherFormatFixture.bytes("webp/icc_adobe.webp"))
        XCTAssertEqual(decoded.warnings, ["converted from embedded ICC profile 'Adobe RGB (1998)' to sRGB"])
        let image = decoded.animation.frames[0].image
        let pillow = try OtherFormatFixture.bytes("webp/icc_adobe.rgba")
        let raw = try OtherFormatFixture.bytes("webp/icc_adobe_raw.rgba")
        XCTAssertLessThanOrEqual(OtherFormatFixture.maxDifference(image.pixels, pillow), 1)
        XCTAssertGreaterThan(OtherFormatFixture.maxDifference(image.pixels, raw), 10)
        for i in stride(from: 3, to: raw.count, by: 4) { XCTAssertEqual(image.pixels[i], raw[i]) }
    }

    func testICCPChunkIsAppliedToEveryAnimationFrame() throws {
        let decoded = try decode(OtherFormatFixture.bytes("webp/anim_icc.webp"))
        XCTAssertEqual(decoded.warnings, ["converted from embedded ICC profile 'Adobe RGB (1998)' to sRGB"])
        let a = decoded.animation
        XCTAssertEqual(a.frames.count, 2)
        let pillow = try OtherFormatFixture.bytes("webp/anim_icc.rgba")
        let size = a.width * a.height * 4
        for i in 0..<2 {
            XCTAssertLessThanOrEqual(OtherFormatFixture.maxDifference(a.frames[i].image.pixels,
                                                                      Array(pillow[(i * size)..<((i + 1) * size)])), 1, "frame \(i + 1)")
        }
    }

    func testBrokenICCProfileIsIgnoredWithANote() throws {
        // ICCP at byte 30 (560 bytes): blank its 128-byte header so lcms2 cannot open it. The
        // pixels are RGB, readable without it: used as sRGB with a note, strict mode included
        // (main refused the file unless --lenient).
        var bytes = try OtherFormatFixture.bytes("webp/icc_adobe.webp")
        for i in 38..<(38 + 128) { bytes[i] = 0 }
        for lenient in [false, true] {
            let d = try decode(bytes, lenient: lenient)
            XCTAssertEqual(d.warnings, ["ignored: embedded ICC profile is invalid (560 bytes); colours used as sRGB"])
            XCTAssertTrue(d.animation.frames[0].image.pixels == (try OtherFormatFixture.bytes("webp/icc_adobe_raw.rgba")))
        }
    }

    // MARK: The container, read before libwebp

    /// `anim_solid.webp` (VP8X canvas 16×10; three full-canvas ANMF chunks at bytes 44, 92 and
    /// 140, each with a 16×10 lossless bitstream) with `edit` applied.
    private func animSolid(_ edit: (inout [UInt8]) -> Void) throws -> [UInt8] {
        var bytes = try OtherFormatFixture.bytes("webp/anim_solid.webp")
        edit(&bytes)
        return bytes
    }
    private static let anmf = [44, 92, 140]
    private static func put24(_ bytes: inout [UInt8], _ at: Int, _ value: Int) {
        bytes[at] = UInt8(value & 0xFF); bytes[at + 1] = UInt8(value >> 8 & 0xFF); bytes[at + 2] = UInt8(value >> 16)
    }
    private static func put32(_ bytes: inout [UInt8], _ at: Int, _ value: Int) {
        put24(&bytes, at, value & 0xFF_FFFF); bytes[at + 3] = UInt8(value >> 24)
    }

    func testFrameOutsideTheCanvasIsNamed() throws {
        // Main: "libwebp cannot parse the animation (190 bytes)".
        let shifted = try animSolid { Self.put24(&$0, Self.anmf[1] + 8, 1) }   // frame 2 at x = 2
        let problem = WebPError.frameOutsideCanvas(frame: 2, x: 2, y: 0, width: 16, height: 10, canvasWidth: 16, canvasHeight: 10)
        let error = OtherFormatFixture.expectError(.decoding) { try decode(shifted) }
        XCTAssertEqual(error, ImageError(.webp, problem))
        XCTAssertEqual(error?.description, "WebP: frame 2 is 16×10 at (2,0), outside the 16×10 canvas")
        let lenient = try decode(shifted, lenient: true)
        XCTAssertEqual(lenient.animation.frames.count, 1)
        XCTAssertEqual(lenient.warnings, ["\(problem.message); kept the 1 frame before it"])
    }

    func testFrameLargerThanTheCanvasIsNamed() throws {
        let narrow = try animSolid { Self.put24(&$0, 24, 7) }   // VP8X canvas 8×10
        for lenient in [false, true] {
            let error = OtherFormatFixture.expectError(.decoding) { try decode(narrow, lenient: lenient) }
            XCTAssertEqual(error?.description, "WebP: frame 1 is 16×10, larger than the 8×10 canvas")
        }
        // The ANMF chunk says 8×10 (it would fit) but its bitstream is 16×10, which libwebp draws.
        let lying = try animSolid { bytes in
            Self.put24(&bytes, 24, 7)
            for at in Self.anmf { Self.put24(&bytes, at + 14, 7) }
        }
        let error = OtherFormatFixture.expectError(.decoding) { try decode(lying) }
        XCTAssertEqual(error, ImageError(.webp, WebPError.frameBitstreamOutsideCanvas(frame: 1, width: 8, height: 10, bitstreamWidth: 16, bitstreamHeight: 10,
                                                                                     x: 0, y: 0, canvasWidth: 8, canvasHeight: 10)))
        XCTAssertEqual(error?.description,
                       "WebP: frame 1's ANMF chunk says 8×10 but its bitstream is 16×10, which at (0,0) does not fit the 8×10 canvas")
    }

    func testFrameSizeNotMatchingItsBitstreamIsDrawnAsLibwebpDoes() throws {
        // ANMF says 8×10, the bitstream 16×10 and fits: libwebp (and Chromium) draw 16×10. Same
        // pixels as the intact file, with a note.
        let intact = try decode(OtherFormatFixture.bytes("webp/anim_solid.webp"))
        let mismatch = try animSolid { Self.put24(&$0, Self.anmf[1] + 14, 7) }
        for lenient in [false, true] {
            let d = try decode(mismatch, lenient: lenient)
            XCTAssertEqual(d.animation, intact.animation)
            XCTAssertEqual(d.warnings, ["frame 2's ANMF chunk says 8×10 but its bitstream is 16×10; drawn at the bitstream's size, as libwebp and browsers do"])
        }
    }

    func testRIFFSizeIsChecked() throws {
        let intact = try decode(OtherFormatFixture.bytes("webp/anim_solid.webp"))
        // 0: main said "libwebp cannot read the header: bitstream error".
        let zero = try animSolid { Self.put32(&$0, 4, 0) }
        XCTAssertEqual(OtherFormatFixture.expectError(.decoding) { try decode(zero) }, ImageError(.webp, WebPError.riffSizeZero(fileSize: 190)))
        let wholeFile = try decode(zero, lenient: true)
        XCTAssertEqual(wholeFile.animation, intact.animation)
        XCTAssertEqual(wholeFile.warnings, ["RIFF header says 0 bytes (the file has 190); read the whole file"])
        // Smaller than the file, ending inside the third ANMF chunk: main said "libwebp cannot parse the animation".
        let short = try animSolid { Self.put32(&$0, 4, 160) }
        let problem = WebPError.riffSizeEndsInChunk(declared: 168, fileSize: 190, chunk: "ANMF", chunkOffset: 140)
        XCTAssertEqual(OtherFormatFixture.expectError(.decoding) { try decode(short) }, ImageError(.webp, problem))
        let two = try decode(short, lenient: true)
        XCTAssertEqual(two.animation.frames, Array(intact.animation.frames.prefix(2)))
        XCTAssertEqual(two.warnings, ["\(problem.message); read the chunks before it"])
        // Smaller than the file at a chunk boundary: trailing bytes, ignored as libwebp and browsers do.
        let trailing = try animSolid { $0 += [1, 2, 3, 4, 5, 6] }
        let d = try decode(trailing)
        XCTAssertEqual(d.animation, intact.animation)
        XCTAssertEqual(d.warnings, ["ignored 6 bytes after the 190 the RIFF header declares"])
    }

    func testBrokenCorpusFiles() throws {
        let headerOnly = try OtherFormatFixture.bytes("broken/truncated_webp_static_header_only.webp")
        for lenient in [false, true] {
            let error = OtherFormatFixture.expectError(.decoding) { try decode(headerOnly, lenient: lenient) }
            XCTAssertEqual(error?.description, "WebP: data ends after 40 bytes (header only)")
        }
        let anim = try OtherFormatFixture.bytes("broken/truncated_webp_anim_50pct.webp")
        // The file holds 29 complete ANMF chunks; the 30th is cut.
        let error = OtherFormatFixture.expectError(.decoding) { try decode(anim) }
        XCTAssertEqual(error?.description, "WebP: animation truncated in frame 30 (data ends after 318231 of 636462 bytes)")
        let lenient = try decode(anim, lenient: true)
        XCTAssertEqual(lenient.animation.frames.count, 29)
        XCTAssertEqual(lenient.warnings.count, 1)
        XCTAssertTrue(lenient.warnings[0].hasPrefix("animation truncated in frame 30"))
    }

    func testLenientStillKeepsTheRowsThatArrived() throws {
        let bytes = try OtherFormatFixture.bytes("webp/webp_gallery_dice_alpha.webp")
        let whole = try decode(bytes).animation.frames[0].image
        // ALPH (30 KB) comes before VP8 (23 KB): cut late in the VP8 chunk.
        let cut = Array(bytes[..<(bytes.count * 9 / 10)])
        XCTAssertThrowsError(try decode(cut))
        let partial = try decode(cut, lenient: true)
        XCTAssertEqual(partial.warnings.count, 1)
        XCTAssertTrue(partial.warnings[0].contains("kept the first"), partial.warnings[0])
        let image = partial.animation.frames[0].image
        // The top rows match the whole decode.
        XCTAssertTrue(image.pixels[..<(800 * 4 * 16)] == whole.pixels[..<(800 * 4 * 16)])
    }

    func testLimits() throws {
        let still = OtherFormatFixture.expectError(.limits) {
            try decode(OtherFormatFixture.bytes("webp/webp_gallery_dice_alpha.webp"), limits: Limits(maxWidth: 500))
        }
        XCTAssertEqual(still?.description, "WebP: header says 800×600, over the 500×65535 limit")
        let frames = OtherFormatFixture.expectError(.limits) {
            try decode(OtherFormatFixture.bytes("webp/ring_200_6f.webp"), limits: Limits(maxFrames: 5))
        }
        XCTAssertEqual(frames?.description, "WebP: 6 frames, over the 5-frame limit")
    }

    func testTruncationAtManyOffsetsNeverCrashes() throws {
        for name in ["lossless_alpha.webp", "anim_solid.webp", "icc_adobe.webp", "ring_200_6f.webp"] {
            let bytes = try OtherFormatFixture.bytes("webp/" + name)
            for cut in OtherFormatFixture.cutPoints(bytes.count, steps: 150) {
                let part = Array(bytes[..<cut])
                XCTAssertThrowsError(try decode(part), "\(name) cut at \(cut)") { error in
                    XCTAssertTrue(error is ImageError, "\(error)")
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
