import ImageCore
import XCTest
@testable import ImageDecoding

/// What an APNG whose animation chunks are invalid shows: its default image as a still, with a
/// note, as the APNG specification asks ("a decoder which detects an error before the animation
/// has started should display the default image") — strict mode included. Lenient mode keeps the
/// frames before the problem instead. Each file is built chunk by chunk here: the default image
/// (IDAT) is green, animation frames are red or blue, so the colour shown says which image won.
/// NOTES.md ("APNG: what is shown") has the table these tests follow, with Chromium's behaviour.
final class APNGFallbackTests: XCTestCase {
    typealias T = PNGTestSupport

    static let w = 4, h = 2
    static let green: [UInt8] = [0, 255, 0, 255], red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255]

    static func pixels(_ rgba: [UInt8], _ width: Int = w, _ height: Int = h) -> [UInt8] {
        T.zlib(T.scanlines(width: width, height: height, depth: 8, colorType: 6, interlace: false,
                           samples: (0..<(width * height)).flatMap { _ in rgba.map(Int.init) }))
    }
    static func acTL(_ frames: Int, plays: Int = 0) -> [UInt8] { T.chunk("acTL", T.be32(frames) + T.be32(plays)) }
    static func fcTL(_ seq: Int, width: Int = w, height: Int = h, x: Int = 0, y: Int = 0) -> [UInt8] {
        T.chunk("fcTL", T.be32(seq) + T.be32(width) + T.be32(height) + T.be32(x) + T.be32(y) + T.be16(1) + T.be16(10) + [0, 0])
    }
    static func idat(_ rgba: [UInt8]) -> [UInt8] { T.chunk("IDAT", pixels(rgba)) }
    static func fdAT(_ seq: Int, _ rgba: [UInt8]) -> [UInt8] { T.chunk("fdAT", T.be32(seq) + pixels(rgba)) }
    /// Signature, IHDR (RGBA8, w×h), the chunks, IEND.
    static func file(_ chunks: [[UInt8]]) -> [UInt8] {
        T.signature + T.ihdr(width: w, height: h, depth: 8, colorType: 6) + chunks.flatMap { $0 } + T.chunk("IEND", [])
    }

    func decode(_ file: [UInt8], lenient: Bool = false, firstFrameOnly: Bool = false, limits: Limits = .default) throws -> DecodedImage {
        try ImageDecoder.decode(file, options: DecodeOptions(limits: limits, lenient: lenient, firstFrameOnly: firstFrameOnly))
    }

    /// The file decodes, in strict and lenient mode and for its first frame alone, to a still of
    /// the default image (green) with `problem`'s note.
    func assertStill(_ file: [UInt8], _ problem: PNGError, lenientToo: Bool = true, line: UInt = #line) throws {
        var modes = [(false, false), (false, true)]
        if lenientToo { modes += [(true, false)] }
        for (lenient, firstFrameOnly) in modes {
            let d = try decode(file, lenient: lenient, firstFrameOnly: firstFrameOnly)
            let what = "lenient \(lenient), first frame only \(firstFrameOnly)"
            XCTAssertEqual(d.format, .png, what, line: line)
            XCTAssertEqual(d.animation.frames.count, 1, what, line: line)
            XCTAssertEqual(d.animation.frames[0].delay, .zero, "a still", line: line)
            XCTAssertEqual(d.animation.frames[0].image[0, 0], RGBA(0, 255, 0, 255), "\(what): the default image", line: line)
            XCTAssertEqual(d.warnings, [problem.stillNote], what, line: line)
            // A dry run does not refuse what is shown.
            XCTAssertNoThrow(try ImageDecoder.preflight(file, options: DecodeOptions(lenient: lenient)), what, line: line)
        }
    }

    /// Strict mode shows the default image as a still; lenient mode keeps `lenientFrames`
    /// frames, noting the problem.
    func assertStillUnlessLenient(_ file: [UInt8], _ problem: PNGError, lenientFrames: Int, line: UInt = #line) throws {
        try assertStill(file, problem, lenientToo: false, line: line)
        let salvaged = try decode(file, lenient: true)
        XCTAssertEqual(salvaged.animation.frames.count, lenientFrames, "lenient", line: line)
        XCTAssertTrue(salvaged.warnings.contains(problem.message), "\(salvaged.warnings)", line: line)
    }

    // MARK: Invalid animation control: a still in every mode

    func testZeroFramesShowsTheDefaultImage() throws {
        // Main refused this file ("acTL says 0 frames").
        try assertStill(Self.file([Self.acTL(0), Self.fcTL(0), Self.idat(Self.green), Self.fcTL(1), Self.fdAT(2, Self.red)]), .zeroFrames)
        try assertStill(Self.file([Self.acTL(0), Self.idat(Self.green)]), .zeroFrames)
    }

    func testAnimationControlAfterImageDataIsAStillWithANote() throws {
        try assertStill(Self.file([Self.idat(Self.green), Self.acTL(1), Self.fcTL(0), Self.fdAT(1, Self.red)]),
                        .animationControlAfterImageData)
        // Between a default-image fcTL and the rest of the animation: still after IDAT.
        try assertStill(Self.file([Self.fcTL(0), Self.idat(Self.green), Self.acTL(2), Self.fcTL(1), Self.fdAT(2, Self.red)]),
                        .animationControlAfterImageData)
    }

    func testAnimationControlOfTheWrongLengthIsAStill() throws {
        try assertStill(Self.file([T.chunk("acTL", T.be32(2)), Self.fcTL(0), Self.idat(Self.green), Self.fcTL(1), Self.fdAT(2, Self.red)]),
                        .animationControlLength(bytes: 4))
    }

    // MARK: Invalid animation control: a still unless lenient

    func testTwoAnimationControlsShowTheDefaultImage() throws {
        // Main showed the animation's red frame here, not the (hidden) default image.
        let hidden = Self.file([Self.acTL(1), Self.acTL(1), Self.idat(Self.green), Self.fcTL(0), Self.fdAT(1, Self.red)])
        try assertStillUnlessLenient(hidden, .secondAnimationControl, lenientFrames: 1)
        XCTAssertEqual(try decode(hidden, lenient: true).animation.frames[0].image[0, 0], RGBA(255, 0, 0, 255),
                       "lenient keeps the first acTL and plays, as Chromium does")
    }

    func testAbsurdFrameCountShowsTheDefaultImage() throws {
        // Main refused these files as over the 5000-frame limit: acTL alone is no evidence of frames.
        for claimed in [5001, 1_000_000, 0x8000_0001] {
            try assertStillUnlessLenient(Self.file([Self.acTL(claimed), Self.fcTL(0), Self.idat(Self.green), Self.fcTL(1), Self.fdAT(2, Self.red)]),
                                         .frameCountMismatch(declared: claimed, found: 2), lenientFrames: 2)
        }
    }

    func testFrameCountBelowTheFrameControlsShowsTheDefaultImage() throws {
        try assertStillUnlessLenient(Self.file([Self.acTL(1), Self.fcTL(0), Self.idat(Self.green), Self.fcTL(1), Self.fdAT(2, Self.red)]),
                                     .moreFrameControlsThanFrames(declared: 1), lenientFrames: 1)
        // The default image need not be a frame: it is still what is shown.
        try assertStillUnlessLenient(Self.file([Self.acTL(1), Self.idat(Self.green), Self.fcTL(0), Self.fdAT(1, Self.red),
                                                Self.fcTL(2), Self.fdAT(3, Self.blue)]),
                                     .moreFrameControlsThanFrames(declared: 1), lenientFrames: 1)
    }

    func testSequenceAndFrameErrorsShowTheDefaultImage() throws {
        let start = [Self.acTL(3), Self.fcTL(0), Self.idat(Self.green), Self.fcTL(1), Self.fdAT(2, Self.blue)]
        try assertStillUnlessLenient(Self.file(start + [Self.fcTL(3), Self.fdAT(5, Self.red)]),
                                     .sequenceNumber(chunk: "fdAT", found: 5, expected: 4), lenientFrames: 3)
        try assertStillUnlessLenient(Self.file(start + [Self.fcTL(3, x: 1), Self.fdAT(4, Self.red)]),
                                     .frameOutsideCanvas(frame: 2, width: Self.w, height: Self.h, x: 1, y: 0,
                                                         canvasWidth: Self.w, canvasHeight: Self.h), lenientFrames: 2)
        try assertStillUnlessLenient(Self.file(start + [Self.fcTL(3), Self.fcTL(4), Self.fdAT(5, Self.red)]),
                                     .frameWithoutData(frame: 2), lenientFrames: 3)
        try assertStillUnlessLenient(Self.file([Self.acTL(2), Self.fcTL(0), Self.fcTL(1), Self.idat(Self.green), Self.fdAT(2, Self.red)]),
                                     .frameControlBeforeImageData(frame: 1), lenientFrames: 1)
        try assertStillUnlessLenient(Self.file([Self.acTL(2), Self.fcTL(0, height: 1), Self.idat(Self.green), Self.fcTL(1), Self.fdAT(2, Self.red)]),
                                     .defaultImageNotCanvas(width: Self.w, height: 1, x: 0, y: 0, canvasWidth: Self.w, canvasHeight: Self.h),
                                     lenientFrames: 1)
        try assertStillUnlessLenient(Self.file([Self.acTL(1), Self.fcTL(0), Self.fdAT(1, Self.red), Self.idat(Self.green)]),
                                     .frameDataBeforeImageData, lenientFrames: 1)
    }

    // MARK: Valid files

    func testDefaultImageControlBeforeAnimationControlIsValid() throws {
        // Main refused this file ("fcTL sequence number 1, expected 0"): fcTL 0 came before acTL.
        let file = Self.file([Self.fcTL(0), Self.acTL(2), Self.idat(Self.green), Self.fcTL(1), Self.fdAT(2, Self.blue)])
        let d = try decode(file)
        XCTAssertEqual(d.format, .apng)
        XCTAssertEqual(d.warnings, [])
        XCTAssertEqual(d.animation.frames.map { $0.image[0, 0] }, [RGBA(0, 255, 0, 255), RGBA(0, 0, 255, 255)])
        // Without an acTL it stays a plain PNG.
        let plain = try decode(Self.file([Self.fcTL(0), Self.idat(Self.green)]))
        XCTAssertEqual(plain.format, .png)
        XCTAssertEqual(plain.warnings, [])
    }

    func testFramesAreCountedAgainstTheLimitAsTheyCome() throws {
        let four = Self.file([Self.acTL(4), Self.fcTL(0), Self.idat(Self.green)]
                             + (1...3).flatMap { k in [Self.fcTL(2 * k - 1), Self.fdAT(2 * k, Self.red)] })
        XCTAssertEqual(try decode(four).animation.frames.count, 4)
        for lenient in [false, true] {
            XCTAssertThrowsError(try decode(four, lenient: lenient, limits: Limits(maxFrames: 3))) { e in
                XCTAssertEqual(e as? ImageError, ImageError(.apng, LimitsError.moreFramesThan(maxFrames: 3)))
                XCTAssertEqual((e as? ImageError)?.description, "APNG: more than 3 frames, over the frame limit")
            }
        }
    }
}
