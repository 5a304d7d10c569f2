import Foundation
import XCTest
import ImageDecoding
import PNGEncoding
import ImageResize
import StickerKit
@testable import StickerPackaging

final class IconsTests: XCTestCase {
    /// Apple's HIG table, written out independently of `IconSlot.messagesAppIcon`:
    /// (idiom, size in points, scale, platform, pixel width, pixel height).
    let expected: [(String, String, String, String?, Int, Int)] = [
        ("iphone", "29x29", "2x", nil, 58, 58), ("iphone", "29x29", "3x", nil, 87, 87),
        ("iphone", "60x45", "2x", nil, 120, 90), ("iphone", "60x45", "3x", nil, 180, 135),
        ("ipad", "29x29", "2x", nil, 58, 58), ("ipad", "67x50", "2x", nil, 134, 100), ("ipad", "74x55", "2x", nil, 148, 110),
        ("ios-marketing", "1024x1024", "1x", nil, 1024, 1024),
        ("universal", "27x20", "2x", "ios", 54, 40), ("universal", "27x20", "3x", "ios", 81, 60),
        ("universal", "32x24", "2x", "ios", 64, 48), ("universal", "32x24", "3x", "ios", 96, 72),
        ("ios-marketing", "1024x768", "1x", "ios", 1024, 768),
    ]

    /// Width, height and colour type from a PNG's IHDR, read here without the code under test.
    func ihdr(_ png: [UInt8]) -> (Int, Int, Int)? {
        guard png.count > 33, Array(png[12..<16]) == Array("IHDR".utf8) else { return nil }
        func be32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
        return (be32(16), be32(20), Int(png[25]))
    }

    func source() -> Image {
        // 300×200: transparent background, an opaque blue square in the middle.
        var img = Image(width: 300, height: 200)
        for y in 50..<150 { for x in 100..<200 { img[x, y] = RGBA(0, 0, 255, 255) } }
        return img
    }

    func testAFileDecodedByRowsGivesTheIconsOfItsWholeImage() throws {
        // A 900×600 PNG with translucent edges, a baseline JPEG, an interlaced PNG (a band of
        // rows at a time; all three decode by rows), an animated GIF (its first frame composed
        // row by row from the regions its frames draw) and a JPEG turned by EXIF (decoded
        // whole): the same files and warnings as from the decoded image, the GIF's first
        // warned of being an animation's first frame.
        var art = Image(width: 900, height: 600)
        for y in 0..<600 {
            for x in 0..<900 {
                let inside = (x - 450) * (x - 450) + (y - 300) * (y - 300) < 280 * 280
                art[x, y] = RGBA(UInt8(x % 256), UInt8(y % 256), UInt8((x + y) % 256), inside ? 255 : UInt8(x % 97))
            }
        }
        let fixtures = IconFixtures.root
        let files: [(String, [UInt8])] = [
            ("png", PNGEncoder.encode(art, effort: .fast)),
            ("jpeg", try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("jpeg/rocket_640x427.jpg")))),
            ("gif", try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("gif/cogs_small_transparent.gif")))),
            ("interlaced", TestPNG.interlaced(64, 48) { x, y in [UInt8(x * 4), UInt8(y * 5), 90, UInt8(128 + x)] }),
            ("turned", try [UInt8](Data(contentsOf: fixtures.appendingPathComponent("jpeg/orient_6.jpg")))),
        ]
        for (name, data) in files {
            XCTAssertEqual(try Artwork.resizedByRows(data, targets: [.rectangle(width: 58, height: 58, fit: .cover, background: nil)]) == nil,
                           name == "turned", "\(name): every first frame but a still that must be decoded whole goes by rows")
            for fit in [FitMode.cover, .contain] {
                let fromFile = try IconSetFiles.render(file: data, background: RGBA(20, 40, 60), fit: fit, effort: .fast)
                let fromImage = try IconSetFiles.render(Artwork.firstFrame(data), background: RGBA(20, 40, 60), fit: fit, effort: .fast)
                XCTAssertEqual(fromFile.pngs, fromImage.pngs, "\(name) \(fit)")
                XCTAssertEqual(fromFile.warnings, (name == "gif" ? [.firstFrame(frames: 5, pictures: "every icon")] : []) + fromImage.warnings,
                               "\(name) \(fit)")
            }
        }
    }

    func testAFileWhoseDecodeWouldPassTheMemoryBudgetIsRefusedBeforeDecoding() throws {
        // An animated GIF's first frame comes back as one image of its whole 3000² screen (36 MB),
        // however tiny its frames: over a 50 MB budget with the process and the icons, not the default.
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var gif = Array("GIF89a".utf8) + le16(3000) + le16(3000) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        for x in [0, 2999] {
            gif += [0x21, 0xF9, 4, 0x04, 4, 0, 0, 0] + [0x2C] + le16(x) + le16(x) + le16(1) + le16(1) + [0] + [2, 2, 0x4C, 0x01, 0]
        }
        gif += [0x3B]
        XCTAssertThrowsError(try IconSetFiles.render(file: gif, effort: .fast, limits: Limits(maxMemory: 50_000_000))) { error in
            guard let e = error as? ImageError, case let .overMemory(estimate, maxMemory)? = e.reason as? LimitsError else {
                return XCTFail("\(error)")
            }
            XCTAssertGreaterThan(estimate, 3000 * 3000 * 4)
            XCTAssertEqual(maxMemory, 50_000_000)
            XCTAssertTrue(e.message.contains("--max-memory"), e.message)
        }
        XCTAssertEqual(try IconSetFiles.render(file: gif, effort: .fast).pngs.count, IconSlot.messagesAppIcon.count)
    }

    func testAllThirteenEntriesWithExactSizesAndJSON() throws {
        let set = try IconSetFiles.render(source())
        XCTAssertEqual(set.slots.count, 13)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("icons-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        try set.write(into: dir.path)

        let data = try Data(contentsOf: dir.appendingPathComponent("Contents.json"))
        let obj = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let info = obj["info"] as? [String: Any]
        XCTAssertEqual(info?["author"] as? String, "xcode")
        XCTAssertEqual(info?["version"] as? Int, 1)
        let images = try XCTUnwrap(obj["images"] as? [[String: String]])
        XCTAssertEqual(images.count, expected.count)
        var files = Set<String>()
        for (entry, want) in zip(images, expected) {
            XCTAssertEqual(entry["idiom"], want.0)
            XCTAssertEqual(entry["size"], want.1)
            XCTAssertEqual(entry["scale"], want.2)
            XCTAssertEqual(entry["platform"], want.3)
            let name = try XCTUnwrap(entry["filename"])
            XCTAssertFalse(name.contains("/"))
            files.insert(name)
            let png = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            let h = try XCTUnwrap(ihdr(png), name)
            XCTAssertEqual(h.0, want.4, name)
            XCTAssertEqual(h.1, want.5, name)
            // Opaque: no alpha channel (gray, RGB) — the encoder drops alpha only when all is opaque.
            XCTAssertTrue([0, 2].contains(h.2) || (h.2 == 3 && !png.contains(subsequence: Array("tRNS".utf8))),
                          "\(name): colour type \(h.2)")
        }
        XCTAssertEqual(files.count, 13, "file names are unique")
    }

    func testEverySlotIsTheSourceCoverResizedOverTheBackground() throws {
        let image = source()
        let set = try IconSetFiles.render(image, background: RGBA(255, 200, 0), effort: .fast)
        for (slot, png) in zip(set.slots, set.pngs) {
            let expected = Resizer.resize(image, width: slot.pixelWidth, height: slot.pixelHeight, fit: .cover, over: RGBA(255, 200, 0))
            XCTAssertEqual(try ImageDecoder.decode(png).animation.frames[0].image, expected, slot.fileName)
        }
    }

    func testContainShowsTheWholeSourcePaddedWithTheBackground() throws {
        let image = source()
        let set = try IconSetFiles.render(image, background: RGBA(0, 0, 0), fit: .contain, effort: .fast)
        for (slot, png) in zip(set.slots, set.pngs) {
            let expected = Resizer.resize(image, width: slot.pixelWidth, height: slot.pixelHeight, fit: .contain, over: RGBA(0, 0, 0))
            XCTAssertEqual(try ImageDecoder.decode(png).animation.frames[0].image, expected, slot.fileName)
        }
        XCTAssertEqual(set.warnings.first, .nonSquare(width: 300, height: 200, fit: .contain))
    }

    func testWarningsForNonSquareSmallAndFlatSources() throws {
        // 300×200: not square, enlarged for the 1024 px icons; the blue square shows in every icon.
        let wide = try IconSetFiles.render(source(), effort: .fast)
        XCTAssertEqual(wide.warnings.count, 2, "\(wide.warnings)")
        XCTAssertEqual(wide.warnings[0], .nonSquare(width: 300, height: 200, fit: .cover))
        guard case let .enlarged(w, h, factor, slot) = wide.warnings[1] else { return XCTFail("\(wide.warnings)") }
        XCTAssertEqual([w, h], [300, 200])
        XCTAssertEqual(factor, 1024.0 / 200, accuracy: 1e-9, "cover: the short side fills 1024")
        XCTAssertEqual(slot, "1024x1024")
        XCTAssertTrue(wide.warnings[1].description.contains("5.1×"), wide.warnings[1].description)

        // A 2048 px white-on-transparent logo over white: big enough, square, but every icon is flat white.
        var white = Image(width: 2048, height: 2048)
        for y in 700..<1300 { for x in 700..<1300 { white[x, y] = RGBA(255, 255, 255, 255) } }
        let flat = try IconSetFiles.render(white, effort: .fast)
        XCTAssertEqual(flat.warnings, [.flat(icons: IconSlot.messagesAppIcon.map(\.fileName), color: RGBA(255, 255, 255), of: 13)])
        XCTAssertTrue(flat.warnings[0].description.hasPrefix("every icon is one flat colour #FFFFFF"), flat.warnings[0].description)
        // Over black it shows: no warning.
        XCTAssertEqual(try IconSetFiles.render(white, background: RGBA(0, 0, 0), effort: .fast).warnings, [])
    }

    /// An animation's icons are stills of its first frame, and the set says so; a still's does not.
    func testAnAnimationsIconsAreStillsOfItsFirstFrameAndSaySo() throws {
        let animation = TestPNG.apng(64, 64, delays: [(1, 10), (1, 10), (1, 10)])
        let set = try IconSetFiles.render(file: animation, effort: .fast)
        XCTAssertEqual(set.warnings.first, .firstFrame(frames: 3, pictures: "every icon"))
        XCTAssertTrue(set.warnings[0].description.hasPrefix("source is an animation of 3 frames: its first frame alone shows in every icon"),
                      set.warnings[0].description)
        XCTAssertEqual(set.pngs, try IconSetFiles.render(Artwork.firstFrame(animation), effort: .fast).pngs)

        let still = TestPNG.still(64, 64)
        XCTAssertFalse(try IconSetFiles.render(file: still, effort: .fast).warnings.contains { if case .firstFrame = $0 { true } else { false } })
    }

    /// A platform's pack pictures of an animation: warned of when every one is a still (WhatsApp's
    /// tray icon), not when one animates (LINE's main image, Telegram's thumbnail) or for a still.
    func testPackPicturesOfAnAnimationSayTheyAreStillsOfItsFirstFrame() {
        let animation = TestPNG.apng(64, 64, delays: [(1, 10), (1, 10)])
        XCTAssertEqual(IconWarning.firstFrame(of: animation, pictures: StickerTarget.whatsapp.packIcons),
                       .firstFrame(frames: 2, pictures: "the tray icon"))
        XCTAssertNil(IconWarning.firstFrame(of: animation, pictures: StickerTarget.telegram.packIcons))
        XCTAssertNil(IconWarning.firstFrame(of: animation, pictures: StickerTarget.line.packIcons))
        let stills = StickerTarget.line.packIcons.map(\.still)
        XCTAssertEqual(IconWarning.firstFrame(of: animation, pictures: stills),
                       .firstFrame(frames: 2, pictures: "the main image and the chat tab image"))
        XCTAssertNil(IconWarning.firstFrame(of: TestPNG.still(64, 64), pictures: StickerTarget.whatsapp.packIcons))
    }

    func testReplaceSwapsTheWholeSetAndKeepsHandMadeIcons() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("iconset-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let set = try IconSetFiles.render(source(), effort: .fast)
        let dest = dir.appendingPathComponent("X.stickersiconset")
        try set.replace(dest.path)
        try set.replace(dest.path) // its own set: replaced
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["X.stickersiconset"], "nothing left beside it")
        try Data([1]).write(to: dest.appendingPathComponent("Hand@2x.png"))
        XCTAssertThrowsError(try set.replace(dest.path)) {
            XCTAssertEqual($0 as? PackError, .iconSetNotStickerkits(path: dest.path, files: ["Hand@2x.png"]))
        }
        try set.replace(dest.path, overwrite: true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dest.appendingPathComponent("Hand@2x.png").path))
    }

    func testEmptySourceIsAParameterError() {
        XCTAssertThrowsError(try IconSetFiles.render(Image(width: 0, height: 0))) { e in
            XCTAssertEqual((e as? ImageError)?.kind, .parameter)
        }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence s: [UInt8]) -> Bool {
        guard s.count <= count else { return false }
        for i in 0...(count - s.count) where Array(self[i..<(i + s.count)]) == s { return true }
        return false
    }
}

/// The repository's test fixtures.
enum IconFixtures {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    }
}
