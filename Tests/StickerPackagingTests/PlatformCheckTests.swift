import XCTest
import ImageDecoding
import PNGEncoding
import StickerKit
@testable import StickerPackaging

/// `check --platform`: the rules `resize --platform` converts by, read back from the files.
final class PlatformCheckTests: XCTestCase {
    /// `n` frames of a square moving over a transparent 64 px canvas, `ms` each, as an APNG.
    func movingSquare(frames n: Int, ms: Int) throws -> [UInt8] {
        var images: [Image] = []
        for f in 0..<n {
            var img = Image(width: 64, height: 64)
            let left = f % 40
            for y in 20..<40 { for x in left..<(left + 20) { img[x, y] = RGBA(200, UInt8(f * 5 % 256), 40, 255) } }
            images.append(img)
        }
        return try PNGEncoder.encodeAnimation(frames: images, delays: Array(repeating: Delay(milliseconds: ms), count: n),
                                              loopCount: 0, effort: .fast)
    }

    func converted(_ data: [UInt8], for target: StickerTarget) throws -> [UInt8] {
        var o = ConversionOptions()
        o.target = target
        o.maxBytes = Int.max
        return try XCTUnwrap(try StickerConverter.convert(data, options: o).outputs.first?.result.get()).bytes
    }

    func errors(_ r: StickerCheckReport) -> [StickerFinding.Code] { r.findings.filter { $0.severity == .error }.map(\.code) }

    /// LINE asks for RGB colour: a gray PNG (a sticker or a pack picture) is an error under its
    /// rules and no other app's; what `resize --platform line` writes from gray art passes.
    func testAGrayPNGBreaksLinesRulesAlone() throws {
        var pixels = [UInt8]()
        for y in 0..<320 { for x in 0..<320 { let v = UInt8((x * y) % 256); pixels += [v, v, v, (x / 40 + y / 40) % 2 == 0 ? 255 : 90] } }
        let gray = PNGEncoder.encode(Image(width: 320, height: 320, pixels: pixels))
        XCTAssertEqual(try ImageOutline.inspect(gray)?.pngColorType, .grayscaleAlpha)
        let line = PlatformChecker.check(gray, path: "g.png", target: .line)
        XCTAssertEqual(line.findings.first { $0.severity == .error }?.message, "a gray PNG (colour type 4); LINE asks for RGB colour (palette, RGB or RGBA)")
        XCTAssertEqual(errors(line), [.format])
        XCTAssertEqual(errors(PlatformChecker.check(gray, path: "g.png", target: .discord)), [], "320×320: a Discord sticker")
        let tab = PNGEncoder.encode(Image(width: 96, height: 74, pixels: [UInt8](pixels.prefix(96 * 74 * 4))))
        XCTAssertEqual(errors(PlatformChecker.check(tab, path: "tab.png", packIcon: StickerTarget.line.packIcons[1], target: .line)), [.format])
        XCTAssertEqual(errors(PlatformChecker.check(try converted(gray, for: .line), path: "g.png", target: .line)), [])
    }

    func testConvertedStickersPassTheirPlatformsRules() throws {
        let anim = try movingSquare(frames: 8, ms: 100)
        for target in [StickerTarget.signal, .whatsapp, .discord] {
            let r = PlatformChecker.check(try converted(anim, for: target), path: "a", target: target)
            XCTAssertEqual(errors(r), [], "\(target.name): \(r.findings)")
            XCTAssertEqual(r.facts.width, target.side)
            XCTAssertEqual(r.facts.frames, 8)
        }
    }

    func testLineStickersPassAndSquaresOrEndlessLoopsDoNot() throws {
        let anim = try converted(try movingSquare(frames: 8, ms: 100), for: .line)
        let r = PlatformChecker.check(anim, path: "a.png", target: .line)
        XCTAssertEqual(errors(r), [], "\(r.findings)")
        XCTAssertEqual(r.facts.width, 270)
        XCTAssertEqual(r.facts.loopCount, 4)   // 0.8 s: four plays within 4 s
        // The 64 px source itself: too small, loops forever, and 30 frames are too many.
        XCTAssertEqual(Set(errors(PlatformChecker.check(try movingSquare(frames: 30, ms: 100), path: "b.png", target: .line))),
                       [.size, .animation])
        // (Blank images are gray: written in colour, as LINE asks.)
        let odd = PNGEncoder.encode(Image(width: 301, height: 200), effort: .fast, allowsGray: false)
        XCTAssertEqual(errors(PlatformChecker.check(odd, path: "o.png", target: .line)), [.size])
        XCTAssertEqual(errors(PlatformChecker.check(PNGEncoder.encode(Image(width: 370, height: 320), effort: .fast, allowsGray: false),
                                                    path: "s.png", target: .line)), [])
    }

    func testTelegramVideoIsAWebMWithAlphaThatPasses() throws {
        let webm = try converted(try movingSquare(frames: 4, ms: 100), for: .telegram)
        let outline = try XCTUnwrap(try WebMOutline.read(webm))
        XCTAssertEqual(outline.codecID, "V_VP9")
        XCTAssertTrue(outline.alphaMode)
        XCTAssertEqual(outline.width, 512)
        XCTAssertEqual(outline.frameTimesMs, [0, 100, 200, 300])
        let r = PlatformChecker.check(webm, path: "v.webm", target: .telegram)
        XCTAssertEqual(errors(r), [], "\(r.findings)")
        XCTAssertEqual(r.facts.format, "WebM")
        // The same file is no Signal sticker.
        XCTAssertEqual(errors(PlatformChecker.check(webm, path: "v.webm", target: .signal)), [.format])
    }

    func testWrongSizeContainerBytesAndDurationAreErrors() throws {
        // A 4 s APNG of 64 px: wrong size for Signal, too long for its 3 s.
        let r = PlatformChecker.check(try movingSquare(frames: 40, ms: 100), path: "a.png", target: .signal)
        XCTAssertEqual(Set(errors(r)), [.size, .animation])
        // A PNG still for WhatsApp: wrong container and size.
        let still = PNGEncoder.encode(Image(width: 512, height: 512), effort: .fast)
        XCTAssertEqual(Set(errors(PlatformChecker.check(still, path: "s.png", target: .whatsapp))), [.format])
        // Over the cap: a 512 px PNG of noise takes about 1 MB, over Signal's 300 KB.
        var noise = Image(width: 512, height: 512)
        var x: UInt32 = 1
        for i in 0..<noise.pixels.count { x = x &* 1_664_525 &+ 1_013_904_223; noise.pixels[i] = UInt8(truncatingIfNeeded: x >> 24) }
        let big = PNGEncoder.encode(noise, effort: .fast)
        XCTAssertGreaterThan(big.count, 300_000)
        XCTAssertEqual(errors(PlatformChecker.check(big, path: "b.png", target: .signal)), [.budget])
    }

    func testBrokenWebMIsUnreadableNotACrash() throws {
        let webm = try converted(try movingSquare(frames: 2, ms: 100), for: .telegram)
        for cut in stride(from: 5, to: webm.count, by: max(1, webm.count / 40)) {
            let r = PlatformChecker.check(Array(webm.prefix(cut)), path: "cut.webm", target: .telegram)
            XCTAssertFalse(r.findings.isEmpty)
        }
    }

    func testPackPicturesAreCheckedAsPackPicturesNotAsStickers() throws {
        var art = Image(width: 300, height: 200)
        for y in 20..<180 { for x in 30..<270 { art[x, y] = RGBA(30, 120, 220, 255) } }
        for target in [StickerTarget.whatsapp, .telegram, .line] {
            for icon in target.packIcons {
                let bytes = try PackIconRenderer.render(art, icon: icon).get()
                let r = PlatformChecker.check(bytes, path: "pack/" + icon.fileName, target: target)
                XCTAssertEqual(errors(r), [], "\(target.name) \(icon.fileName): \(r.findings)")
                // The same picture under a sticker's name is a sticker of the wrong size.
                XCTAssertTrue(errors(PlatformChecker.check(bytes, path: "pack/cat.png", target: target)).contains(.size)
                              || target.name == "line", "\(target.name)")
            }
        }
        // A tray icon of the wrong size, and a sticker saved under the tray icon's name.
        let tray = try XCTUnwrap(StickerTarget.whatsapp.packIcons.first)
        let wrong = try PackIconRenderer.render(art, icon: PackIcon(side: 100, maxBytes: tray.maxBytes, fileName: "x", role: "x")).get()
        XCTAssertEqual(errors(PlatformChecker.check(wrong, path: "tray.png", target: .whatsapp)), [.size])
        let sticker = try converted(try movingSquare(frames: 8, ms: 100), for: .whatsapp)
        XCTAssertEqual(Set(errors(PlatformChecker.check(sticker, path: "tray.png", target: .whatsapp))), [.format, .size])
    }

    /// Telegram's pack thumbnail made from an animation is a video, `thumbnail.webm`, within 32 KB
    /// (a busy one too) and checked as a 100×100 video sticker; a still is `thumbnail.png`; each
    /// name holding the other container is an error. LINE's animated main image keeps its name.
    func testTelegramsThumbnailOfAnAnimationIsAWebMVideoWithinItsCap() throws {
        let icon = try XCTUnwrap(StickerTarget.telegram.packIcons.first)
        XCTAssertEqual(StickerTarget.telegram.fileName(of: icon, animated: true), "thumbnail.webm")
        XCTAssertEqual(StickerTarget.telegram.fileName(of: icon, animated: false), "thumbnail.png")
        XCTAssertEqual(StickerTarget.telegram.fileNames(of: icon), ["thumbnail.png", "thumbnail.webm"])
        XCTAssertEqual(StickerTarget.line.fileNames(of: StickerTarget.line.packIcons[0]), ["main.png"])
        XCTAssertEqual(StickerTarget.whatsapp.fileNames(of: StickerTarget.whatsapp.packIcons[0]), ["tray.png"])

        // 15 frames of opaque noise: at 100 px far over 32 KB as a video at the best quality.
        var state: UInt32 = 12_345
        let noise = (0..<15).map { _ in
            Image(width: 100, height: 100, pixels: (0..<40_000).map { i in
                state = state &* 1_664_525 &+ 1_013_904_223
                return i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: state >> 24)
            })
        }
        let busy = try PNGEncoder.encodeAnimation(frames: noise, delays: Array(repeating: Delay(milliseconds: 100), count: 15),
                                                  loopCount: 0, effort: .fast)
        for animation in [try movingSquare(frames: 12, ms: 100), busy] {
            XCTAssertTrue(PackIconRenderer.isAnimation(file: animation))
            let webm = try PackIconRenderer.render(file: animation, target: .telegram)[0].get()
            XCTAssertTrue(WebMOutline.isEBML(webm))
            XCTAssertLessThanOrEqual(webm.count, 32_000)
            let r = PlatformChecker.check(webm, path: "pack/thumbnail.webm", target: .telegram)
            XCTAssertEqual(errors(r), [], "\(r.findings)")
            XCTAssertEqual([r.facts.width, r.facts.height], [100, 100])
            XCTAssertTrue(r.findings.contains { $0.message.contains("pack thumbnail (thumbnail.webm), animated") }, "\(r.findings)")
            XCTAssertEqual(errors(PlatformChecker.check(webm, path: "pack/thumbnail.png", target: .telegram)), [.format])
        }
        let still = try PackIconRenderer.render(file: TestPNG.still(64, 64), target: .telegram)[0].get()
        XCTAssertEqual(Array(still.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertEqual(errors(PlatformChecker.check(still, path: "pack/thumbnail.png", target: .telegram)), [])
        XCTAssertEqual(errors(PlatformChecker.check(still, path: "pack/thumbnail.webm", target: .telegram)), [.format])
        // A video over 32 KB is over the thumbnail's cap, though within a video sticker's 256 KB.
        var o = ConversionOptions()
        o.target = StickerTarget.telegram.animationTarget(for: icon)
        o.target.animationBytes = 256_000
        let large = try XCTUnwrap(try StickerConverter.convert(busy, options: o).outputs.first?.result.get()).bytes
        XCTAssertGreaterThan(large.count, 32_000)
        XCTAssertEqual(errors(PlatformChecker.check(large, path: "pack/thumbnail.webm", target: .telegram)), [.budget])
    }

    func testAFileThatIsNoImageIsNamedSo() {
        for path in ["a.webp", "tray.png"] {
            let r = PlatformChecker.check(Array("garbage".utf8), path: path, target: .whatsapp)
            XCTAssertEqual(errors(r), [.unreadable])
            XCTAssertTrue(r.findings.contains { $0.message.contains("not an image: unknown format") }, "\(path): \(r.findings)")
            XCTAssertNil(r.facts.format)
        }
    }

    /// A file cut short is named by the format its first bytes say, as `check` without a
    /// platform names it (the table's FORMAT column showed "?").
    func testACutFileKeepsTheFormatItsFirstBytesSay() {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for target in [StickerTarget.whatsapp, .telegram, .signal] {
            let r = PlatformChecker.check(signature, path: "tray.png", target: target)
            XCTAssertEqual(errors(r), [.unreadable], "\(target.name)")
            XCTAssertEqual(r.facts.format, "PNG", "\(target.name)")
            XCTAssertEqual(r.facts.format, StickerChecker.check(signature, path: "tray.png").facts.format)
        }
    }
}
