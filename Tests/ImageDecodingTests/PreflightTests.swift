import Foundation
import ImageCore
import TestSupport
import XCTest
@testable import ImageDecoding

/// `ImageDecoder.preflight` against decoding: it never refuses a file that decodes, strict or
/// lenient, and strictly it refuses what the structure gives away (truncations of PNG, APNG,
/// JPEG and WebP files, the broken fixtures but those damaged inside compressed data).
final class PreflightTests: XCTestCase {
    private func decodes(_ bytes: [UInt8], _ options: DecodeOptions) -> Bool {
        (try? ImageDecoder.decode(bytes, options: options)) != nil
    }

    private func refusal(_ bytes: [UInt8], _ options: DecodeOptions) -> ImageError? {
        do {
            try ImageDecoder.preflight(bytes, options: options)
            return nil
        } catch let e as ImageError {
            return e
        } catch {
            XCTFail("preflight threw \(type(of: error)): \(error)")
            return nil
        }
    }

    func testNeverRefusesWhatDecodesAndCatchesTruncations() throws {
        let files = Hostile.files(under: Hostile.fixtures).filter { !$0.path.contains("/fuzz-regressions/") }
            + Hostile.files(under: Hostile.samples)
        let strict = DecodeOptions(), lenient = DecodeOptions(lenient: true)
        var cutsTried = 0, cutsCaught = 0, flipsTried = 0
        var rng = SplitMix64(seed: 0x0BAD_F11E)
        for url in files {
            let bytes = try Hostile.bytes(url)
            let name = url.pathComponents.suffix(2).joined(separator: "/")
            if decodes(bytes, strict) {
                XCTAssertNil(refusal(bytes, strict), "\(name): refused, yet it decodes")
            }
            guard decodes(bytes, strict), let format = ImageDecoder.sniff(bytes) else { continue }
            var cuts = HostileTruncationTests.cuts(bytes.count)
            if bytes.count > HostileTruncationTests.bigFile { cuts = stride(from: 0, to: cuts.count, by: 4).map { cuts[$0] } }
            for cut in cuts {
                let prefix = Array(bytes[0..<cut])
                let what = "\(name) cut at \(cut) of \(bytes.count)"
                for options in [strict, lenient] where decodes(prefix, options) {
                    XCTAssertNil(refusal(prefix, options), "\(what)\(options.lenient ? " (lenient)" : ""): refused, yet it decodes")
                }
                // Every cut of these formats loses a marker of their end (IEND, EOI, the RIFF
                // size), which the structure shows; a GIF may be cut between its records.
                if format != .gif {
                    cutsTried += 1
                    if refusal(prefix, strict) != nil { cutsCaught += 1 } else { XCTFail("\(what): truncation not refused") }
                }
            }
            // A few flipped bits anywhere: whatever the preflight says, a decodable file passes.
            for _ in 0..<4 {
                var flipped = bytes
                for _ in 0..<3 { flipped[Int.random(in: 0..<bytes.count, using: &rng)] ^= 1 << UInt8.random(in: 0..<8, using: &rng) }
                flipsTried += 1
                for options in [strict, lenient] where decodes(flipped, options) {
                    XCTAssertNil(refusal(flipped, options), "\(name) with bits flipped: refused, yet it decodes")
                }
            }
        }
        XCTAssertGreaterThan(cutsTried, 500, "the sweep found few files")
        print("preflight: \(cutsCaught) of \(cutsTried) cuts refused, \(flipsTried) flipped files")
    }

    func testHandBuiltHostileStreamsAgreeWithDecoding() {
        let streams: [(String, [UInt8])] = [
            ("APNG claiming 0 frames", Hostile.apngClaiming(frames: 0)),
            ("APNG claiming a million frames", Hostile.apngClaiming(frames: 1_000_000)),
            ("APNG claiming 2³²−1 frames", Hostile.apngClaiming(frames: .max)),
            ("GIF screen 65535²", Hostile.gifWithScreen(65535, 65535)),
            ("GIF screen 2×2", Hostile.gifWithScreen(2, 2)),
            ("WebP canvas 16384²", Hostile.webpAnimatedCanvas(16384, 16384)),
            ("APNG of coprime delays", Hostile.apngWithCoprimeDelays([3, 5, 7, 11])),
            ("APNG frame outside the canvas", Hostile.apngWithFrameOutsideCanvas()),
            ("palette index out of range", Hostile.paletteIndexOutOfRange()),
        ]
        for (what, bytes) in streams {
            for options in [DecodeOptions(), DecodeOptions(lenient: true)] {
                let mode = options.lenient ? "lenient" : "strict"
                if decodes(bytes, options) {
                    XCTAssertNil(refusal(bytes, options), "\(what) (\(mode)): refused, yet it decodes")
                } else if let e = refusal(bytes, options), e.reason is LimitsError {
                    // A limit the preflight names is the decoder's too.
                    XCTAssertEqual(Hostile.decodeError(bytes, options, what)?.reason as? LimitsError, e.reason as? LimitsError, what)
                }
            }
        }
    }

    func testBrokenFixturesAreRefusedUnlessDamagedInsideCompressedData() throws {
        for url in Hostile.files(under: Hostile.fixtures.appendingPathComponent("broken")) {
            let bytes = try Hostile.bytes(url)
            let name = url.lastPathComponent
            guard !decodes(bytes, DecodeOptions()) else { continue }
            // The one broken fixture whose damage only decoding finds: a frame outside the screen
            // is refused by the GIF decoder, not by the outline.
            if name == "gif_frame_outside_screen.gif" { continue }
            XCTAssertNotNil(refusal(bytes, DecodeOptions()), "\(name): not refused")
        }
    }

    func testLimitsAreCheckedFromTheHeader() {
        let bomb = Hostile.pngSignature + Hostile.ihdr(100_000, 100_000)
        XCTAssertEqual(refusal(bomb, DecodeOptions())?.reason as? LimitsError,
                       .overDimensions(source: "IHDR says", width: 100_000, height: 100_000, maxWidth: 65535, maxHeight: 65535))
        var few = Limits.default
        few.maxFrames = 2
        let gif = try? Hostile.bytes(Hostile.fixtures.appendingPathComponent("gif/cogs_small_transparent.gif"))
        XCTAssertEqual(refusal(gif ?? [], DecodeOptions(limits: few))?.reason as? LimitsError, .moreFramesThan(maxFrames: 2))
        XCTAssertEqual(refusal([], DecodeOptions())?.reason as? SniffError, .emptyFile)
        XCTAssertEqual(refusal(Array("This is text".utf8), DecodeOptions())?.reason as? SniffError,
                       .unknownFormat(firstBytes: Array("This is ".utf8)))
    }

    func testInspectFindsAJPEGWithoutItsEndAndAWebPShorterThanItsRIFFSize() throws {
        let jpeg = try Hostile.bytes(Hostile.samples.appendingPathComponent("rocket_640x427.jpg"))
        XCTAssertThrowsError(try ImageOutline.inspect(Array(jpeg.dropLast(2)))) {
            XCTAssertEqual(($0 as? ImageError)?.reason as? OutlineError, .jpegNoEnd(fileSize: jpeg.count - 2))
        }
        XCTAssertNoThrow(try ImageOutline.inspect(jpeg + Array("trailing".utf8)))
        let webp = try Hostile.bytes(Hostile.samples.appendingPathComponent("webp_gallery_dice_alpha.webp"))
        XCTAssertThrowsError(try ImageOutline.inspect(Array(webp.dropLast(1)))) {
            XCTAssertEqual(($0 as? ImageError)?.reason as? OutlineError, .webpTruncated(declared: webp.count, fileSize: webp.count - 1))
        }
        XCTAssertNoThrow(try ImageOutline.inspect(webp))
    }
}
