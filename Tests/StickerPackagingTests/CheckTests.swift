import XCTest
import ImageDecoding
import StickerKit
@testable import StickerPackaging

final class CheckTests: XCTestCase {
    /// Header checks only, with room for the test writer's uncompressed (stored) PNGs.
    let headersOnly = CheckRules(maxBytes: 4_000_000, decodePixels: false)

    /// The codes of `severity`, leaving out the warning that a stored (uncompressed) test PNG is
    /// over Messages' 500,000 bytes within `headersOnly`'s larger budget; that rule has its own test.
    func codes(_ r: StickerCheckReport, _ severity: StickerFinding.Severity) -> [StickerFinding.Code] {
        r.findings.filter { $0.severity == severity && !($0.severity == .warning && $0.code == .budget) }.map(\.code)
    }

    /// True once the real PNG decoder is merged (on a branch with the stub, pixel tests skip).
    func pngDecoderAvailable() -> Bool {
        (try? ImageDecoder.decode(TestPNG.still(2, 2) { _, _ in [1, 2, 3, 4] })) != nil
    }

    func testTransparentGridSizedPNGHasNoWarnings() throws {
        let r = StickerChecker.check(TestPNG.still(408, 408), path: "ok.png", rules: headersOnly)
        XCTAssertEqual(r.facts.format, "PNG")
        XCTAssertEqual(r.facts.width, 408)
        XCTAssertEqual(r.facts.frames, 1)
        XCTAssertTrue(r.facts.mayHaveAlpha)
        XCTAssertEqual(codes(r, .error), [])
        XCTAssertEqual(codes(r, .warning), [])
        XCTAssertTrue(r.passes)
    }

    func testTransparencyIsReadFromPixelsWhenDecoderIsAvailable() throws {
        try XCTSkipUnless(pngDecoderAvailable(), "PNG decoder not merged on this branch yet")
        let clear = StickerChecker.check(TestPNG.still(300, 300, pixel: TestPNG.discOf(size: 300)), path: "a.png")
        XCTAssertEqual(clear.transparent, true)
        XCTAssertEqual(codes(clear, .warning), [])
        XCTAssertEqual(codes(clear, .error), [])
        // RGBA with every alpha 255: the header cannot tell, the pixels can.
        let solid = StickerChecker.check(TestPNG.still(300, 300) { _, _ in [9, 9, 9, 255] }, path: "b.png")
        XCTAssertEqual(solid.transparent, false)
        XCTAssertEqual(codes(solid, .warning), [.opaque])
    }

    /// A still that shows practically nothing (every pixel at most 3 % opaque) checked "ok";
    /// `resize` warns of such a sticker as it writes it, and `check` now says so too.
    func testANearlyEmptyStillIsAWarning() throws {
        let faint = StickerChecker.check(TestPNG.still(300, 300) { x, _ in [255, 0, 0, x == 7 ? 8 : 2] }, path: "f.png")
        XCTAssertEqual(codes(faint, .warning), [.nearlyEmpty])
        XCTAssertEqual(faint.findings.first { $0.code == .nearlyEmpty }?.message,
                       "the sticker is nearly empty: no pixel is more than 3 % opaque (the most opaque has alpha 8 of 255)")
        let visible = StickerChecker.check(TestPNG.still(300, 300) { x, y in [255, 0, 0, x == 150 && y == 299 ? 9 : 0] }, path: "v.png")
        XCTAssertEqual(codes(visible, .warning), [])
    }

    func testAnimationWithTransparencyOnlyInALaterFrameIsNotOpaque() throws {
        try XCTSkipUnless(pngDecoderAvailable(), "PNG decoder not merged on this branch yet")
        let later = TestPNG.apng(300, 300, delays: [(1, 10), (1, 10)]) { frame, x, _ in
            frame == 1 && x < 10 ? [0, 0, 0, 0] : [50, 60, 70, 255]
        }
        let r = StickerChecker.check(later, path: "later.png")
        XCTAssertEqual(r.transparent, true)
        XCTAssertFalse(codes(r, .warning).contains(.opaque))
        let never = TestPNG.apng(300, 300, delays: [(1, 10), (1, 10)]) { _, _, _ in [50, 60, 70, 255] }
        let n = StickerChecker.check(never, path: "never.png")
        XCTAssertEqual(n.transparent, false)
        XCTAssertTrue(codes(n, .warning).contains(.opaque))
    }

    func testOpaqueRGBIsAWarningFromTheHeaderAlone() {
        let r = StickerChecker.check(TestPNG.still(618, 618, colorType: 2) { _, _ in [1, 2, 3] }, path: "rgb.png", rules: headersOnly)
        XCTAssertEqual(r.transparent, false)
        XCTAssertEqual(codes(r, .warning), [.opaque])
        XCTAssertTrue(r.passes)
    }

    func testPaletteAlphaInTRNSCountsAsTransparency() {
        // Colour type 0 (gray) with a tRNS key colour: may be transparent.
        let r = StickerChecker.check(TestPNG.still(300, 300, colorType: 0, extra: TestPNG.chunk("tRNS", [0, 0])) { _, _ in [0] },
                                     path: "g.png", rules: headersOnly)
        XCTAssertTrue(r.facts.mayHaveAlpha)
        XCTAssertFalse(codes(r, .warning).contains(.opaque))
    }

    func testOffGridSizeInRangeIsAWarning() {
        let r = StickerChecker.check(TestPNG.still(500, 500), path: "500.png", rules: headersOnly)
        XCTAssertEqual(codes(r, .warning), [.size])
        XCTAssertTrue(r.passes)
    }

    func testSizeOutsideRangeIsAnError() {
        for side in [200, 700] {
            let r = StickerChecker.check(TestPNG.still(side, side), path: "\(side).png", rules: headersOnly)
            XCTAssertEqual(codes(r, .error), [.size], "\(side)")
            XCTAssertFalse(r.passes)
        }
    }

    func testNonSquareIsAnError() {
        let r = StickerChecker.check(TestPNG.still(408, 300), path: "wide.png", rules: headersOnly)
        XCTAssertEqual(codes(r, .error), [.square])
        XCTAssertTrue(r.findings.first { $0.code == .square }!.message.contains("408×300"))
    }

    func testOverBudgetIsAnError() {
        // Stored deflate: 408×408 RGBA noise is ~666 KB.
        var seed: UInt32 = 1
        let big = TestPNG.still(408, 408) { _, _ in
            seed = seed &* 1_103_515_245 &+ 12345
            return [UInt8(seed >> 24), UInt8(seed >> 16 & 255), UInt8(seed >> 8 & 255), 128]
        }
        XCTAssertGreaterThan(big.count, 500_000)
        let r = StickerChecker.check(big, path: "big.png", rules: CheckRules(decodePixels: false))
        XCTAssertEqual(codes(r, .error), [.budget])
        XCTAssertTrue(r.findings[0].message.contains("500,000-byte budget"), r.findings[0].message)
        // The same file passes a larger budget, and a small file fails a small one.
        XCTAssertEqual(codes(StickerChecker.check(big, path: "big.png", rules: CheckRules(maxBytes: big.count, decodePixels: false)), .error), [])
        let small = TestPNG.still(300, 300, pixel: TestPNG.discOf(size: 300))
        XCTAssertEqual(codes(StickerChecker.check(small, path: "s.png", rules: CheckRules(maxBytes: small.count - 1, decodePixels: false)), .error), [.budget])
    }

    func testOverMessagesLimitWithinALargerBudgetIsAWarning() {
        let big = TestPNG.still(408, 408) // stored: 666 KB
        let r = StickerChecker.check(big, path: "big.png", rules: CheckRules(maxBytes: 1_000_000, decodePixels: false))
        let budget = r.findings.filter { $0.code == .budget }
        XCTAssertEqual(budget.map(\.severity), [.warning])
        XCTAssertTrue(budget[0].message.contains("over Messages' limit of 500,000 bytes"), budget[0].message)
        XCTAssertTrue(r.passes)
        let small = TestPNG.still(300, 300) // stored: 361 KB
        XCTAssertEqual(StickerChecker.check(small, path: "s.png", rules: CheckRules(maxBytes: 1_000_000, decodePixels: false))
            .findings.filter { $0.code == .budget }, [], "under Messages' limit: nothing to say")
    }

    func testJPEGIsAcceptedWithFormatAndOpaqueWarnings() {
        let r = StickerChecker.check(TestFiles.jpeg(408, 408), path: "photo.jpg", rules: headersOnly)
        XCTAssertEqual(r.facts.format, "JPEG")
        XCTAssertEqual(r.facts.width, 408)
        XCTAssertEqual(Set(codes(r, .warning)), [.format, .opaque])
        XCTAssertTrue(r.passes)
    }

    func testTextFileIsAnError() {
        let r = StickerChecker.check(Array("hello, I am not a sticker\n".utf8), path: "notes.png", rules: headersOnly)
        XCTAssertNil(r.facts.format)
        XCTAssertEqual(codes(r, .error), [.format])
    }

    func testEmptyFileIsAnError() {
        let r = StickerChecker.check([], path: "empty.png", rules: headersOnly)
        XCTAssertFalse(r.passes)
    }

    func testWebPIsAnError() {
        let riff = Array("RIFF".utf8) + [30, 0, 0, 0] + Array("WEBPVP8X".utf8) + [10, 0, 0, 0, 0x10, 0, 0, 0]
            + [0x97, 0x01, 0x00, 0x97, 0x01, 0x00] // 408 - 1 = 0x197
        let r = StickerChecker.check(riff, path: "x.webp", rules: headersOnly)
        XCTAssertEqual(r.facts.format, "WebP")
        XCTAssertEqual(r.facts.width, 408)
        XCTAssertEqual(codes(r, .error), [.format])
    }

    func testAnimatedGIFReportsFramesDurationAndFormatWarning() {
        let r = StickerChecker.check(TestFiles.gif(300, 300, delaysCs: [10, 10, 20], transparent: true), path: "a.gif", rules: headersOnly)
        XCTAssertEqual(r.facts.format, "GIF")
        XCTAssertEqual(r.facts.frames, 3)
        XCTAssertEqual(r.facts.durationMs!, 400, accuracy: 1e-9)
        XCTAssertEqual(r.facts.fps!, 7.5, accuracy: 1e-9)
        XCTAssertEqual(r.facts.lowestFPS!, 5, accuracy: 1e-9)
        XCTAssertEqual(r.facts.loopCount, 0)
        XCTAssertEqual(r.transparent, true)
        XCTAssertEqual(Set(codes(r, .warning)), [.format, .frameRate])
        XCTAssertEqual(codes(r, .info), [.animation])
    }

    func testOpaqueGIFWithZeroDelaysShowsAt100ms() {
        let r = StickerChecker.check(TestFiles.gif(408, 408, delaysCs: [0, 1], transparent: false), path: "z.gif", rules: headersOnly)
        XCTAssertEqual(r.facts.durationMs!, 200, accuracy: 1e-9)
        XCTAssertTrue(codes(r, .warning).contains(.opaque))
    }

    func testAPNGReportsFramesAndTiming() {
        let bytes = TestPNG.apng(300, 300, delays: [(1, 10), (1, 10), (0, 0), (100, 1000)], plays: 2)
        let r = StickerChecker.check(bytes, path: "anim.png", rules: headersOnly)
        XCTAssertEqual(r.facts.format, "APNG")
        XCTAssertEqual(r.facts.frames, 4)
        // 0/0 is 0 s, shown as 100 ms.
        XCTAssertEqual(r.facts.durationMs!, 400, accuracy: 1e-9)
        XCTAssertEqual(r.facts.fps!, 10, accuracy: 1e-9)
        XCTAssertEqual(r.facts.loopCount, 2)
        XCTAssertEqual(codes(r, .warning), [])
        XCTAssertEqual(codes(r, .error), [])
        XCTAssertTrue(r.findings.first { $0.code == .animation }!.message.contains("4 frames"))
    }

    func testSlowAPNGGetsAFrameRateWarning() {
        let r = StickerChecker.check(TestPNG.apng(300, 300, delays: [(1, 2), (1, 2)]), path: "slow.png", rules: headersOnly)
        XCTAssertEqual(r.facts.fps!, 2, accuracy: 1e-9)
        XCTAssertEqual(codes(r, .warning), [.frameRate])
    }

    func testAPNGFrameCountMismatchIsAnError() {
        let r = StickerChecker.check(TestPNG.apng(300, 300, delays: [(1, 10), (1, 10)], declaredFrames: 3), path: "bad.png", rules: headersOnly)
        XCTAssertEqual(codes(r, .error), [.unreadable])
        XCTAssertTrue(r.findings[0].message.contains("acTL says 3 frames"), r.findings[0].message)
    }

    func testCorruptCRCAndTruncationAreErrors() {
        var bad = TestPNG.still(300, 300)
        bad[29] ^= 0xFF // inside the IHDR CRC
        let r = StickerChecker.check(bad, path: "crc.png", rules: headersOnly)
        XCTAssertEqual(codes(r, .error), [.unreadable])
        XCTAssertTrue(r.findings[0].message.contains("CRC"), r.findings[0].message)

        let good = TestPNG.still(300, 300)
        for cut in stride(from: 1, to: good.count, by: max(1, good.count / 97)) {
            let t = StickerChecker.check(Array(good[0..<cut]), path: "t.png", rules: headersOnly)
            XCTAssertFalse(t.passes, "cut at \(cut)")
        }
    }

    func testTruncatedGIFAndJPEGNeverCrash() {
        let files = [TestFiles.gif(300, 300, delaysCs: [5, 5], transparent: true), TestFiles.jpeg(300, 300)]
        for f in files {
            for cut in 0..<f.count { _ = StickerChecker.check(Array(f[0..<cut]), path: "t", rules: headersOnly) }
        }
    }

    func testMixedSizesInAPackIsAWarning() {
        let a = StickerChecker.check(TestPNG.still(300, 300), path: "p/a.png", rules: headersOnly)
        let b = StickerChecker.check(TestPNG.still(408, 408), path: "p/b.png", rules: headersOnly)
        let c = StickerChecker.check(TestPNG.still(408, 408), path: "p/c.png", rules: headersOnly)
        let mixed = StickerChecker.checkPack(folder: "p", stickers: [a, b, c])
        XCTAssertEqual(mixed.sizes, [300, 408])
        XCTAssertEqual(mixed.findings.map(\.code), [.mixedSizes])
        XCTAssertEqual(StickerChecker.checkPack(folder: "p", stickers: [b, c]).findings, [])
    }

    func testReportCountsAndJSONRoundTrip() throws {
        let a = StickerChecker.check(TestPNG.still(200, 200), path: "a.png", rules: headersOnly)
        let b = StickerChecker.check(TestFiles.jpeg(408, 408), path: "b.jpg", rules: headersOnly)
        let report = CheckReport(stickers: [a, b], packs: [])
        XCTAssertEqual(report.errors, 1)
        XCTAssertEqual(report.warnings, 2)
        let data = try JSONEncoder().encode(report)
        let back = try JSONDecoder().decode(CheckReport.self, from: data)
        XCTAssertEqual(back, report)
        let obj = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        let first = (obj["stickers"] as! [[String: Any]])[0]
        XCTAssertEqual((first["findings"] as! [[String: Any]])[0]["severity"] as? String, "error")
    }

    /// A still that decodes by rows is scanned row by row: its transparency is found (here in
    /// its last pixel) under a budget too small to hold it, which a whole decode would pass.
    func testAStillIsScannedRowByRowNotHeldWhole() throws {
        let tiny = Limits(maxMemory: 1)
        let last = TestPNG.still(300, 300) { x, y in x == 299 && y == 299 ? [0, 0, 0, 0] : [9, 9, 9, 255] }
        XCTAssertEqual(try StickerChecker.transparency(last, animated: false, limits: tiny), true)
        let opaque = TestPNG.still(300, 300) { _, _ in [9, 9, 9, 255] }
        XCTAssertEqual(try StickerChecker.transparency(opaque, animated: false, limits: tiny), false)
    }

    /// A JPEG turned by EXIF must be decoded whole: past the budget it is not decoded at all, and
    /// `check` says its transparency was not checked instead of holding it. An interlaced PNG is
    /// scanned a band of rows at a time, under a budget too small to hold it.
    func testAStillDecodedWholeStaysWithinTheBudget() throws {
        let turned = try [UInt8](Data(contentsOf: IconFixtures.root.appendingPathComponent("jpeg/orient_6.jpg")))
        XCTAssertEqual(try StickerChecker.transparency(turned, animated: false), false)
        XCTAssertThrowsError(try StickerChecker.transparency(turned, animated: false, limits: Limits(maxMemory: 20_000_000))) {
            guard case .overMemory? = ($0 as? ImageError)?.reason as? LimitsError else { return XCTFail("\($0)") }
        }
        let interlaced = TestPNG.interlaced(64, 64) { x, y in [10, 20, 30, x == 63 && y == 63 ? 128 : 255] }
        XCTAssertEqual(try StickerChecker.transparency(interlaced, animated: false, limits: Limits(maxMemory: 1)), true)
        let opaque = TestPNG.interlaced(64, 64) { _, _ in [10, 20, 30, 255] }
        XCTAssertEqual(try StickerChecker.transparency(opaque, animated: false, limits: Limits(maxMemory: 1)), false)
    }
}
