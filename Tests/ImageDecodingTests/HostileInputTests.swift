import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Every file in Tests/Fixtures/broken gives the error it should (strict), salvages where it can
/// (lenient), and the decompression bombs are refused from their headers.
final class HostileInputTests: XCTestCase {
    /// What a strict decode of each broken file must give: the exact error, reason and values.
    static let expectedErrors: [String: ImageError] = [
        "bomb_ihdr_100000x100000.png": ImageError(.png, LimitsError.overDimensions(source: "IHDR says", width: 100_000, height: 100_000,
                                                                                   maxWidth: 65535, maxHeight: 65535)),
        "pngsuite_xc1n0g08.png": ImageError(.png, PNGError.invalidColorType(1)),
        "pngsuite_xcrn0g04.png": ImageError(.png, PNGError.lineEndingsRewritten(found: [0x0D, 0x0D, 0x1A, 0x0D])),
        "pngsuite_xlfn0g04.png": ImageError(.png, PNGError.lineEndingsRewritten(found: [0x0A, 0x0A, 0x1A, 0x0A])),
        "pngsuite_xs1n0g01.png": ImageError(.png, PNGError.highBitStripped),
        "pngsuite_xcsn0g01.png": ImageError(.png, PNGError.crcMismatch(chunk: "IDAT", stored: 0x4353_554D, computed: 0xD02F_14C9)),
        "pngsuite_xd0n2c08.png": ImageError(.png, PNGError.invalidBitDepth(0, colorType: .truecolor)),
        "pngsuite_xdtn0g01.png": ImageError(.png, PNGError.noImageData),
        "pngsuite_xhdn0g08.png": ImageError(.png, PNGError.crcMismatch(chunk: "IHDR", stored: 0x4353_554D, computed: 0x5611_2528)),
        "text_renamed.png": ImageError(nil, SniffError.unknownFormat(firstBytes: Array("This is ".utf8))),
        "zero_bytes.png": ImageError(nil, SniffError.emptyFile),
        "truncated_apng_60pct.png": ImageError(.apng, PNGError.endsInChunk(fileSize: 227_407, chunk: "fdAT", length: 10623, offset: 222_650)),
        "truncated_gif_40pct.gif": ImageError(.gif, GIFError.dataEnds(.inFrame(90), fileSize: 618_865)),
        "truncated_jpeg_30pct.jpg": ImageError(.jpeg, JPEGError.dataEnds(fileSize: 456_034)),
        "truncated_png_after_ihdr.png": ImageError(.png, PNGError.endsBeforeImageData(fileSize: 33)),
        "truncated_png_half.png": ImageError(.png, PNGError.endsInChunk(fileSize: 134_768, chunk: "IDAT", length: 269_341, offset: 171)),
        "truncated_webp_anim_50pct.webp": ImageError(.webp, WebPError.animationTruncated(.inFrame(30), fileSize: 318_231, declared: 636_462)),
        "truncated_webp_static_header_only.webp": ImageError(.webp, WebPError.endsInHeader(fileSize: 40)),
    ]

    /// Broken files that decode anyway, and why that is right.
    /// - jpeg_with_png_extension.png: sniffing decides the format, not the name (the CLI warns).
    /// - gif_frame_outside_screen.gif: browsers show it with the frame clipped to the screen.
    static let decodesAnyway: Set<String> = ["jpeg_with_png_extension.png", "gif_frame_outside_screen.gif"]

    func testEveryBrokenFileIsCovered() throws {
        let names = Hostile.files(under: Hostile.fixtures.appendingPathComponent("broken")).map(\.lastPathComponent)
        XCTAssertGreaterThanOrEqual(names.count, 20)
        for name in names {
            XCTAssertTrue(Self.expectedErrors[name] != nil || Self.decodesAnyway.contains(name),
                          "\(name) has no expectation in HostileInputTests")
        }
    }

    func testBrokenFilesGiveTheirErrorInStrictMode() throws {
        for (name, expected) in Self.expectedErrors.sorted(by: { $0.key < $1.key }) {
            let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/\(name)"))
            guard let error = Hostile.decodeError(bytes, .init(), name) else { continue }
            XCTAssertEqual(error, expected, "\(name): \(error)")
            XCTAssertFalse(error.description.contains("\n"), "\(name): message is not one line")
        }
        // The one-line messages are built from the values.
        XCTAssertEqual(Self.expectedErrors["truncated_gif_40pct.gif"]?.description, "GIF: data ends in frame 90 (after 618865 bytes)")
        XCTAssertEqual(Self.expectedErrors["truncated_apng_60pct.png"]?.description,
                       "APNG: data ends after 227407 bytes (in fdAT, which declares 10623 bytes at offset 222650)")
        XCTAssertEqual(Self.expectedErrors["text_renamed.png"]?.description, "not an image: unknown format (first bytes 54 68 69 73 20 69 73 20)")
    }

    func testJPEGNamedPNGDecodesAsJPEG() throws {
        let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/jpeg_with_png_extension.png"))
        let decoded = try ImageDecoder.decode(bytes)
        XCTAssertEqual(decoded.format, .jpeg)
        XCTAssertEqual(decoded.animation.width, 640)
        XCTAssertEqual(decoded.animation.height, 427)
    }

    func testGIFFrameOutsideScreenIsClippedWithAWarning() throws {
        let bytes = try Hostile.bytes(Hostile.fixtures.appendingPathComponent("broken/gif_frame_outside_screen.gif"))
        let decoded = try ImageDecoder.decode(bytes)
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
        XCTAssertEqual(error?.reason as? LimitsError,
                       .overPixels(source: "IHDR says", width: 100_000, height: 100_000, maxPixels: 100_000_000))
    }

    func testGIFScreenBombIsRefused() throws {
        let bomb = Hostile.gifWithScreen(65535, 65535)
        let error = Hostile.decodeError(bomb, .init(), "GIF 65535×65535 screen")
        XCTAssertEqual(error?.reason as? LimitsError,
                       .overPixels(source: "logical screen is", width: 65535, height: 65535, maxPixels: 100_000_000))
        // The same file with a small screen decodes, so the refusal is about the size alone.
        let small = try ImageDecoder.decode(Hostile.gifWithScreen(3, 2))
        XCTAssertEqual(small.animation.width, 3)
        XCTAssertEqual(small.animation.height, 2)
    }

    func testAPNGFrameCountClaimIsNotTrusted() throws {
        // acTL claims 100000 frames; the file holds one fcTL. The claim alone allocates nothing:
        // the frames are counted (and limited) as their fcTL chunks come, and a count that does
        // not match shows the default image, as the APNG spec asks (lenient mode plays what is there).
        let claim = Hostile.apngClaiming(frames: 100_000)
        let strict = try ImageDecoder.decode(claim)
        XCTAssertEqual(strict.format, .png)
        XCTAssertEqual(strict.animation.frames.count, 1)
        XCTAssertEqual(strict.warnings, [PNGError.frameCountMismatch(declared: 100_000, found: 1).stillNote])
        let lenient = try ImageDecoder.decode(claim, options: .init(lenient: true))
        XCTAssertEqual(lenient.format, .apng)
        XCTAssertEqual(lenient.animation.frames.count, 1)
        // One claimed frame, one present: a valid file.
        let one = try ImageDecoder.decode(Hostile.apngClaiming(frames: 1))
        XCTAssertEqual(one.format, .apng)
        XCTAssertEqual(one.animation.width, 1)
        XCTAssertEqual(one.animation.frames.count, 1)
        XCTAssertEqual(one.warnings, [])
    }

    func testWebPCanvasBombIsRefused() throws {
        let bomb = Hostile.webpAnimatedCanvas(16383, 16383)
        let error = Hostile.decodeError(bomb, .init(), "WebP 16383×16383 canvas")
        guard case .overPixels(_, 16383, 16383, _)? = error?.reason as? LimitsError else { return XCTFail("\(String(describing: error))") }
    }

    func testAPNGFrameOutsideTheCanvasShowsTheDefaultImage() throws {
        let bytes = Hostile.apngWithFrameOutsideCanvas()
        let strict = try ImageDecoder.decode(bytes)
        XCTAssertEqual(strict.animation.frames.count, 1)
        XCTAssertEqual(strict.warnings, [PNGError.frameOutsideCanvas(frame: 1, width: 2, height: 2, x: 1, y: 1,
                                                                     canvasWidth: 2, canvasHeight: 2).stillNote])
        // Lenient: the frames before the bad one, each the full canvas.
        let salvaged = try ImageDecoder.decode(bytes, options: .init(lenient: true)).animation
        XCTAssertEqual(salvaged.frames.count, 1, "only the frame inside the canvas survives")
        XCTAssertTrue(salvaged.frames.allSatisfy { $0.image.width == 2 && $0.image.height == 2 })
    }

    func testPNGPaletteIndexOutOfRangeIsRefused() throws {
        let error = Hostile.decodeError(Hostile.paletteIndexOutOfRange(), .init(), "palette index 7 of 2")
        XCTAssertEqual(error, ImageError(.png, PNGError.paletteIndexOutOfRange(index: 7, row: 0, in: .idat, paletteEntries: 2)))
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
                    // The reason names the offending numbers: the frame count, or the size (as stored or rotated).
                    switch error.reason as? LimitsError {
                    case let .overFrames(frames, _)?:
                        XCTAssertEqual(bound, "frames", what)
                        XCTAssertEqual(frames, a.frames.count, what)
                    case let .moreFramesThan(maxFrames)?:
                        // Counted as read (GIF, APNG): the first frame past the limit.
                        XCTAssertEqual(bound, "frames", what)
                        XCTAssertEqual(maxFrames, a.frames.count - 1, what)
                    case let .overDimensions(_, w, h, _, _)?, let .overPixels(_, w, h, _)?, let .overDecodedSize(_, w, h, _)?,
                         let .framesOverDecodedSize(_, w, h, _)?:
                        XCTAssertTrue([w, h] == [a.width, a.height] || [w, h] == [a.height, a.width], "\(what): \(error)")
                    default:
                        XCTFail("\(what): \(error)")
                    }
                }
            }
        }
    }
}
