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
