import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Every file in Tests/Fixtures/broken gives the error it should (strict), salvages where it can
/// (lenient), and the decompression bombs are refused from their headers.
final class HostileInputTests: XCTestCase {
    /// What a strict decode of each broken file must give: the error kind and words its message
    /// must contain (format name included via `description`).
    static let expectedErrors: [String: (ImageError.Kind, [String])] = [
        "bomb_ihdr_100000x100000.png": (.limits, ["PNG", "IHDR", "100000×100000", "limit"]),
        "pngsuite_xc1n0g08.png": (.decoding, ["PNG", "colour type 1"]),
        "pngsuite_xcrn0g04.png": (.decoding, ["PNG", "damaged signature", "text-mode", "0d 0d 1a 0d"]),
        "pngsuite_xlfn0g04.png": (.decoding, ["PNG", "damaged signature", "text-mode", "0a 0a 1a 0a"]),
        "pngsuite_xs1n0g01.png": (.decoding, ["PNG", "damaged signature", "0x09", "7-bit"]),
        "pngsuite_xcsn0g01.png": (.decoding, ["PNG", "IDAT", "CRC mismatch"]),
        "pngsuite_xd0n2c08.png": (.decoding, ["PNG", "bit depth 0"]),
        "pngsuite_xdtn0g01.png": (.decoding, ["PNG", "no IDAT"]),
        "pngsuite_xhdn0g08.png": (.decoding, ["PNG", "IHDR", "CRC mismatch"]),
        "text_renamed.png": (.unsupported, ["not an image", "unknown format"]),
        "zero_bytes.png": (.unsupported, ["empty file", "0 bytes"]),
        "truncated_apng_60pct.png": (.decoding, ["APNG", "data ends after 227407 bytes", "fdAT"]),
        "truncated_gif_40pct.gif": (.decoding, ["GIF", "data ends", "frame 90"]),
        "truncated_jpeg_30pct.jpg": (.decoding, ["JPEG", "data ends after 456034 bytes"]),
        "gif_frame_outside_screen.gif": (.decoding, ["GIF", "frame 1 at (24,24) size 16×16", "extends past the 32×32 screen"]),
        "truncated_png_after_ihdr.png": (.decoding, ["PNG", "data ends after 33 bytes", "before any IDAT"]),
        "truncated_png_half.png": (.decoding, ["PNG", "data ends after 134768 bytes", "IDAT"]),
        "truncated_webp_anim_50pct.webp": (.decoding, ["WebP", "truncated", "frame 30"]),
        "truncated_webp_static_header_only.webp": (.decoding, ["WebP", "data ends after 40 bytes", "header only"]),
    ]

    /// Broken files that decode anyway, and why that is right.
    /// - jpeg_with_png_extension.png: sniffing decides the format, not the name (the CLI warns).
    static let decodesAnyway: Set<String> = ["jpeg_with_png_extension.png"]

    func testEveryBrokenFileIsCovered() throws {
        let names = Hostile.files(under: Hostile.fixtures.appendingPathComponent("broken")).map(\.lastPathComponent)
        XCTAssertGreaterThanOrEqual(names.count, 20)
        for name in names {
            XCTAssertTrue(Self.expectedErrors[name] != nil || Self.decodesAnyway.contains(name),
                          "\(name) has no expectation in HostileInputTests")
        }
    }

    func testBrokenFilesGiveTheirErrorInStrictMode() throws {
        for (name, (kind, words)) in Self.expectedErrors.sorted(by: { $0.key < $1.key }) {
            let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/\(name)"))
            guard let error = Hostile.decodeError(bytes, .init(), name) else { continue }
            XCTAssertEqual(error.kind, kind, "\(name): \(error)")
            for word in words {
                XCTAssertTrue(error.description.contains(word), "\(name): '\(error)' does not mention '\(word)'")
            }
            XCTAssertFalse(error.description.contains("\n"), "\(name): message is not one line")
        }
    }

    func testJPEGNamedPNGDecodesAsJPEG() throws {
        let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/jpeg_with_png_extension.png"))
        let decoded = try ImageDecoder.decode(bytes)
        XCTAssertEqual(decoded.format, .jpeg)
        XCTAssertEqual(decoded.animation.width, 640)
        XCTAssertEqual(decoded.animation.height, 427)
    }

    func testGIFFrameOutsideScreenIsClippedWithAWarningWhenLenient() throws {
        let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/gif_frame_outside_screen.gif"))
        let decoded = try ImageDecoder.decode(bytes, options: .init(lenient: true))
        XCTAssertEqual(decoded.format, .gif)
        XCTAssertEqual(decoded.animation.width, 32)
        XCTAssertEqual(decoded.animation.height, 32)
        XCTAssertTrue(decoded.warnings.contains { $0.contains("(24,24)") && $0.contains("clipped") }, "\(decoded.warnings)")
    }

    /// Lenient mode salvages CRC damage and truncation, saying so; structural damage stays an error.
    func testLenientModeSalvagesWhatItCanAndSaysSo() throws {
        let salvaged: [String: (width: Int, height: Int, maxFrames: Int, word: String)] = [
            "pngsuite_xcsn0g01.png": (32, 32, 1, "CRC mismatch"),
            "pngsuite_xhdn0g08.png": (32, 32, 1, "CRC mismatch"),
            "truncated_apng_60pct.png": (480, 400, 33, "truncated"),
            "truncated_gif_40pct.gif": (360, 360, 89, "data ends"),
            "truncated_png_half.png": (1500, 1500, 1, "truncated"),
            "truncated_webp_anim_50pct.webp": (512, 512, 29, "truncated"),
        ]
        let lenient = DecodeOptions(lenient: true)
        for (name, expected) in salvaged.sorted(by: { $0.key < $1.key }) {
            let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/\(name)"))
            let decoded = try ImageDecoder.decode(bytes, options: lenient)
            XCTAssertEqual(decoded.animation.width, expected.width, name)
            XCTAssertEqual(decoded.animation.height, expected.height, name)
            XCTAssertLessThanOrEqual(decoded.animation.frames.count, expected.maxFrames, name)
            XCTAssertTrue(decoded.warnings.contains { $0.contains(expected.word) }, "\(name): \(decoded.warnings)")
        }
        for name in ["pngsuite_xc1n0g08.png", "pngsuite_xd0n2c08.png", "pngsuite_xdtn0g01.png", "zero_bytes.png",
                     "text_renamed.png", "bomb_ihdr_100000x100000.png", "truncated_png_after_ihdr.png"] {
            let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/\(name)"))
            _ = Hostile.decodeError(bytes, lenient, "\(name) (lenient)")
        }
    }

    // MARK: bombs: refused from the header, before any large allocation

    func testPNGBombIsRefusedFromIHDR() throws {
        let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/bomb_ihdr_100000x100000.png"))
        for lenient in [false, true] {
            let error = Hostile.decodeError(bytes, .init(lenient: lenient), "PNG bomb")
            XCTAssertEqual(error?.kind, .limits)
        }
        // Even with the width/height bounds lifted, the pixel bound stops it.
        var limits = Limits.default
        limits.maxWidth = .max
        limits.maxHeight = .max
        let error = Hostile.decodeError(bytes, .init(limits: limits), "PNG bomb, no side limit")
        XCTAssertEqual(error?.kind, .limits)
        XCTAssertTrue(error?.message.contains("100 MP") ?? false, "\(String(describing: error))")
    }

    func testGIFScreenBombIsRefused() throws {
        let bomb = Hostile.gifWithScreen(65535, 65535)
        let error = Hostile.decodeError(bomb, .init(), "GIF 65535×65535 screen")
        XCTAssertEqual(error?.kind, .limits)
        XCTAssertTrue(error?.description.contains("65535×65535") ?? false, "\(String(describing: error))")
        // The same file with a small screen decodes, so the refusal is about the size alone.
        let small = try ImageDecoder.decode(Hostile.gifWithScreen(3, 2))
        XCTAssertEqual(small.animation.width, 3)
        XCTAssertEqual(small.animation.height, 2)
    }

    func testAPNGFrameCountBombIsRefused() throws {
        let bomb = Hostile.apngClaiming(frames: 100_000)
        for lenient in [false, true] {
            let error = Hostile.decodeError(bomb, .init(lenient: lenient), "APNG claiming 100000 frames")
            XCTAssertEqual(error?.kind, .limits)
            XCTAssertTrue(error?.description.contains("100000 frames") ?? false, "\(String(describing: error))")
        }
        // One claimed frame, one present: a valid file, so the refusal is about the count alone.
        let one = try ImageDecoder.decode(Hostile.apngClaiming(frames: 1))
        XCTAssertEqual(one.animation.width, 1)
        XCTAssertEqual(one.animation.frames.count, 1)
    }

    func testWebPCanvasBombIsRefused() throws {
        let bomb = Hostile.webpAnimatedCanvas(16383, 16383)
        let error = Hostile.decodeError(bomb, .init(), "WebP 16383×16383 canvas")
        XCTAssertEqual(error?.kind, .limits)
        XCTAssertTrue(error?.description.contains("16383×16383") ?? false, "\(String(describing: error))")
    }

    func testAPNGFrameOutsideTheCanvasIsRefused() throws {
        let bytes = Hostile.apngWithFrameOutsideCanvas()
        let error = Hostile.decodeError(bytes, .init(), "APNG frame past the canvas")
        XCTAssertEqual(error?.kind, .decoding)
        XCTAssertTrue(error?.description.contains("outside the 2×2 canvas") ?? false, "\(String(describing: error))")
        // Lenient: a clean error, or the frames before the bad one, each the full canvas.
        do {
            let salvaged = try ImageDecoder.decode(bytes, options: .init(lenient: true)).animation
            XCTAssertEqual(salvaged.frames.count, 1, "only the frame inside the canvas survives")
            XCTAssertTrue(salvaged.frames.allSatisfy { $0.image.width == 2 && $0.image.height == 2 })
        } catch let e as ImageError {
            XCTAssertEqual(e.kind, .decoding)
        }
    }

    func testPNGPaletteIndexOutOfRangeIsRefused() throws {
        let error = Hostile.decodeError(Hostile.paletteIndexOutOfRange(), .init(), "palette index 7 of 2")
        XCTAssertEqual(error?.kind, .decoding)
        XCTAssertTrue(error?.description.contains("palette index 7 out of range") ?? false, "\(String(describing: error))")
        // Lenient mode keeps the image (what libpng shows for such pixels).
        let salvaged = try ImageDecoder.decode(Hostile.paletteIndexOutOfRange(), options: .init(lenient: true))
        XCTAssertEqual(salvaged.animation.frames[0].image[0, 0], RGBA(255, 0, 0, 255))
    }

    /// Found by review, not fuzzing: six frames with delays over coprime denominators overflowed
    /// `Delay +` (and so `Animation.duration`), and the CLI trapped on a valid file.
    func testCoprimeFrameDelaysDoNotOverflowTheDuration() throws {
        let primes = [65521, 65519, 65497, 65479, 65449, 65447, 65437, 65423]
        let decoded = try ImageDecoder.decode(Hostile.apngWithCoprimeDelays(primes))
        let a = decoded.animation
        XCTAssertEqual(a.frames.count, primes.count)
        for (frame, p) in zip(a.frames, primes) {
            XCTAssertEqual(frame.delay, Delay(numerator: p - 1, denominator: p), "delays are kept exactly")
        }
        let expected = primes.reduce(0.0) { $0 + Double($1 - 1) / Double($1) }
        XCTAssertEqual(a.duration.seconds, expected, accuracy: 1e-5)
        XCTAssertTrue(a.frames[0].delay < a.duration)
        XCTAssertFalse(a.duration < a.frames[0].delay)
    }

    // MARK: limits per format: sane, permissive, tight

    /// One still and one animation (where the format has them) per format.
    static let limitCases = [
        "noto_1f600_grinning_face_512.png", "maneki_neko_palette_3f.apng", "rocket_640x427.jpg",
        "exif_orientation_6_portrait.jpg", "cogs_small_transparent.gif", "webp_gallery_dice_alpha.webp",
        "ring_200_6f.webp",
    ]

    func testLimitsPerFormat() throws {
        for path in Self.limitCases {
            let bytes = try Hostile.bytes(Hostile.samples.appendingPathComponent(path))
            let sane = try ImageDecoder.decode(bytes, options: .init(limits: .default))
            let a = sane.animation
            let permissive = try ImageDecoder.decode(bytes, options: .init(limits: .unlimited))
            XCTAssertEqual(permissive.animation, a, "\(path): limits changed the pixels")

            // Exactly at the size: still decodes. (Width and height bounds apply to the stored
            // size, before EXIF rotation; a square bound covers both.)
            let side = max(a.width, a.height), pixels = a.width * a.height
            let exact = Limits(maxWidth: side, maxHeight: side, maxPixels: pixels,
                               maxFrames: a.frames.count, maxTotalBytes: pixels * 4 * a.frames.count)
            XCTAssertNoThrow(try ImageDecoder.decode(bytes, options: .init(limits: exact)), path)

            // One under on each bound: refused as .limits, naming the offending numbers.
            var tight: [(String, Limits)] = []
            var l = exact; l.maxWidth -= 1; l.maxHeight -= 1; tight.append(("side", l))
            l = exact; l.maxPixels -= 1; tight.append(("pixels", l))
            l = exact; l.maxTotalBytes -= 1; tight.append(("bytes", l))
            if a.frames.count > 1 { l = exact; l.maxFrames -= 1; tight.append(("frames", l)) }
            for (bound, limits) in tight {
                for lenient in [false, true] {
                    let what = "\(path) tight \(bound), lenient \(lenient)"
                    guard let error = Hostile.decodeError(bytes, .init(limits: limits, lenient: lenient), what) else { continue }
                    XCTAssertEqual(error.kind, .limits, "\(what): \(error)")
                    let named = bound == "frames" ? ["\(a.frames.count) frames"] : ["\(a.width)×\(a.height)", "\(a.height)×\(a.width)"]
                    XCTAssertTrue(named.contains { error.description.contains($0) }, "\(what): \(error)")
                }
            }
        }
    }
}
