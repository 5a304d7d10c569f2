import PNGEncoding
import XCTest
import StickerKit
@testable import StickerPackaging

final class PreviewTests: XCTestCase {
    func entry(_ name: String, side: Int, bytes: [UInt8]? = nil) -> PreviewPage.Entry {
        let png = bytes ?? TestPNG.still(side, side, pixel: TestPNG.discOf(size: side))
        let report = StickerChecker.check(png, path: name, rules: CheckRules(maxBytes: 4_000_000, decodePixels: false))
        return PreviewPage.Entry(name: name, href: "stickers/\(name)", report: report)
    }

    func count(_ s: String, _ needle: String) -> Int { s.components(separatedBy: needle).count - 1 }

    func testEveryStickerOverEveryBackgroundAtGridSize() {
        let page = PreviewPage(title: "T", entries: [entry("a.png", side: 300), entry("b.png", side: 618)], maxBytes: 500_000)
        let html = page.html
        XCTAssertEqual(count(html, "<img "), 2 * 7)
        XCTAssertEqual(count(html, "src=\"stickers/a.png\" width=\"100\" height=\"100\""), 7)
        XCTAssertEqual(count(html, "src=\"stickers/b.png\" width=\"206\" height=\"206\""), 7)
        for bg in ["white", "black", "red", "yellow", "grey", "checkerboard", "photo"] {
            XCTAssertEqual(count(html, ".bg-\(bg) {"), 1, bg)
            XCTAssertEqual(count(html, "<span>\(bg)</span>"), 2, bg)
        }
        XCTAssertEqual(count(html, "data:image/jpeg;base64,/9j/"), 1, "the photo is embedded once, not per cell")
        XCTAssertEqual(count(html, "class=\"cell bg-photo\""), 2)
        XCTAssertTrue(html.contains("<title>T</title>"), "a normal title")
        XCTAssertTrue(html.contains("setAttribute(\"data-images\""), "the page reports loaded images")
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "nothing is fetched from the network")
    }

    func testFactsAndVerdictAreShown() {
        let big = entry("big.png", side: 408)
        let page = PreviewPage(title: "T", entries: [big], maxBytes: 1000)
        let html = page.html
        XCTAssertTrue(html.contains("408×408 px"))
        XCTAssertTrue(html.contains("(over budget)"))
        XCTAssertTrue(html.contains("1 frame "))
        let apng = entry("anim.png", side: 300, bytes: TestPNG.apng(300, 300, delays: [(1, 10), (1, 10), (1, 10)]))
        let html2 = PreviewPage(title: "T", entries: [apng], maxBytes: 4_000_000).html
        XCTAssertTrue(html2.contains("3 frames"))
        XCTAssertTrue(html2.contains("0.30 s"))
        XCTAssertTrue(html2.contains("v-ok"))
    }

    func testCatalogStickersShowTheirAccessibilityLabel() {
        var labelled = entry("a.png", side: 300)
        labelled.report.accessibilityLabel = "A <happy> cat"
        labelled.inCatalog = true
        var unlabelled = entry("b.png", side: 300)
        unlabelled.inCatalog = true
        let plain = entry("c.png", side: 300)
        let html = PreviewPage(title: "T", entries: [labelled, unlabelled, plain], maxBytes: 500_000).html
        XCTAssertTrue(html.contains("Accessibility label: “A &lt;happy&gt; cat”"))
        XCTAssertEqual(count(html, "alt=\"A &lt;happy&gt; cat\""), 7, "the label is the images' alt text")
        XCTAssertEqual(count(html, "No accessibility label: VoiceOver reads the sticker's name"), 1, "only for the catalog sticker")
    }

    func testNamesAreEscaped() {
        let e = entry("<b>\"x\" & 'y'.png", side: 300)
        let html = PreviewPage(title: "a<b", entries: [e], maxBytes: 500_000).html
        XCTAssertFalse(html.contains("<b>\"x\""))
        XCTAssertTrue(html.contains("&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;.png"))
        XCTAssertTrue(html.contains("<h1>a&lt;b</h1>"))
    }

    func testContactSheetLayoutAndBackgrounds() {
        // One opaque-centre 300 px sticker: cell = 100 + 2·8 = 116, 7 columns.
        var img = Image(width: 300, height: 300)
        for y in 0..<300 { for x in 0..<300 where x >= 100 && x < 200 && y >= 100 && y < 200 { img[x, y] = RGBA(0, 0, 255) } }
        let sheet = ContactSheet([img, img]).render()
        XCTAssertEqual(sheet.width, 7 * 116 + 8 * 4)
        XCTAssertEqual(sheet.height, 2 * 116 + 3 * 4)
        XCTAssertTrue(sheet.isOpaque)
        // Column origins: 4 + col·120. A corner of each cell shows its background…
        XCTAssertEqual(sheet[4 + 1, 4 + 1], RGBA(255, 255, 255))
        XCTAssertEqual(sheet[124 + 1, 4 + 1], RGBA(0, 0, 0))
        XCTAssertEqual(sheet[484 + 1, 4 + 1], RGBA(128, 128, 128))
        XCTAssertEqual(sheet[604 + 4, 4 + 4], RGBA(200, 200, 200), "checkerboard")
        XCTAssertEqual(sheet[604 + 12, 4 + 4], RGBA(255, 255, 255), "checkerboard")
        // …and the centre the sticker: its blue square covers the middle third (33×33 at 100 px).
        for col in 0..<7 {
            XCTAssertEqual(sheet[4 + col * 120 + 58, 4 + 58], RGBA(0, 0, 255), "column \(col)")
            XCTAssertEqual(sheet[4 + col * 120 + 58, 124 + 58], RGBA(0, 0, 255), "row 2, column \(col)")
        }
    }

    /// The sheet written band by band is the sheet: stickers of several sizes, an empty frame
    /// (its row shows the backgrounds alone) and translucent pixels.
    func testContactSheetPNGIsTheRenderedSheet() throws {
        var sheet = ContactSheet()
        for (side, tint) in [(300, 40), (618, 120), (0, 0), (408, 200), (90, 250)] {
            var img = Image(width: side, height: side == 0 ? 0 : side * 2 / 3)
            for y in 0..<img.height { for x in 0..<img.width { img[x, y] = RGBA(UInt8(x % 256), UInt8(tint), UInt8(y % 256), UInt8((x + y) % 256)) } }
            sheet.add(img)
        }
        let whole = sheet.render()
        XCTAssertEqual(whole.width, sheet.width)
        XCTAssertEqual(whole.height, 5 * (206 + 16 + 4) + 4)
        XCTAssertEqual(try Artwork.firstFrame(sheet.png()), whole)
    }

    /// A sticker on the sheet keeps its picture at grid size, compressed, not its full frame.
    func testContactSheetKeepsPicturesAtGridSize() {
        var sheet = ContactSheet()
        var img = Image(width: 618, height: 618)
        for y in 0..<618 { for x in 0..<618 { img[x, y] = RGBA(UInt8(x / 3), UInt8(y / 3), 90) } }
        for _ in 0..<20 { sheet.add(img) }
        XCTAssertEqual(sheet.count, 20)
        XCTAssertLessThan(sheet.heldBytes, 20 * 206 * 206 * 4, "below the pictures' own RGBA")
    }

    /// A sequence's APNG, made from frames decoded again on each walk, is the file the frames
    /// held whole give; frames of another size or that do not decode still fail.
    func testSequencePreviewIsTheWholeFramesAnimation() throws {
        let images = (0..<5).map { i -> Image in
            var img = Image(width: 60, height: 40)
            for y in 0..<40 { for x in 0..<60 where (x + 3 * i) % 20 < 10 { img[x, y] = RGBA(UInt8(40 * i), 90, 200, UInt8(100 + 30 * i)) } }
            return img
        }
        let files = images.map { PNGEncoder.encode($0, effort: .fast) }
        let each = Delay(numerator: 500, denominator: 1000 * 5)
        XCTAssertEqual(try SequencePreview.apng(frames: files, durationMs: 500, loopCount: 2),
                       try PNGEncoder.encodeAnimation(frames: images, delays: Array(repeating: each, count: 5), loopCount: 2,
                                                      effort: .fast, alwaysAnimated: true))
        let odd = files + [PNGEncoder.encode(Image(width: 61, height: 40), effort: .fast)]
        XCTAssertThrowsError(try SequencePreview.apng(frames: odd, durationMs: 600, loopCount: 0)) {
            XCTAssertTrue("\($0)".contains("sequence frames differ in size: 60×40 and 61×40"), "\($0)")
        }
        XCTAssertThrowsError(try SequencePreview.apng(frames: files + [Array("not a frame".utf8)], durationMs: 600, loopCount: 0))
    }

    /// A sticker added from its file is the sticker added from its first frame: a still that
    /// decodes by rows (resized as its rows arrive), an APNG (decoded), and artwork larger than
    /// the large sticker, shown at the large grid size.
    func testContactSheetFromFilesIsTheSheetOfTheirFrames() throws {
        func picture(_ w: Int, _ h: Int, _ seed: Int) -> Image {
            var img = Image(width: w, height: h)
            for y in 0..<h { for x in 0..<w where (x * seed + y) % 7 != 0 { img[x, y] = RGBA(UInt8((x * seed) % 256), UInt8(y % 256), 120, UInt8(60 + (x + y) % 196)) } }
            return img
        }
        let still = picture(300, 300, 3), wide = picture(1200, 600, 5)
        let frames = [picture(408, 408, 7), picture(408, 408, 11)]
        let apng = try PNGEncoder.encodeAnimation(frames: frames, delays: [Delay(milliseconds: 100), Delay(milliseconds: 100)], effort: .fast)
        var fromFiles = ContactSheet(), fromFrames = ContactSheet()
        for file in [PNGEncoder.encode(still, effort: .fast), apng, PNGEncoder.encode(wide, effort: .fast)] { try fromFiles.add(file: file) }
        for frame in [still, frames[0], wide] { fromFrames.add(frame) }
        XCTAssertEqual(fromFiles.render(), fromFrames.render())
        XCTAssertTrue(ContactSheet.pictureSize(1200, 600) == (206, 103))
        XCTAssertTrue(ContactSheet.pictureSize(618, 618) == (206, 206))
        XCTAssertTrue(ContactSheet.pictureSize(300, 150) == (100, 50))
        XCTAssertEqual(fromFiles.width, 7 * (206 + 16 + 4) + 4, "the cell holds the large grid size")
    }

    /// An animation whose frames draw a little of a large canvas is drawn on the sheet from
    /// the regions its frames draw, row by row: within a budget its whole canvas would pass,
    /// and the same picture as from the whole first frame.
    func testContactSheetDrawsALargeCanvasFromItsFrames() throws {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8)] }
        // A 4000² GIF screen (64 MB as RGBA) with two 1×1 white frames near its middle.
        var gif = Array("GIF89a".utf8) + le16(4000) + le16(4000) + [0x80, 0, 0, 0, 0, 0, 255, 255, 255]
        gif += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        for x in [2000, 2001] {
            gif += [0x21, 0xF9, 4, 0x04, 4, 0, 0, 0, 0x2C] + le16(x) + le16(2000) + le16(1) + le16(1) + [0x00, 2, 2, 0x4C, 0x01, 0]
        }
        gif += [0x3B]
        var fromFile = ContactSheet()
        try fromFile.add(file: gif, limits: Limits(maxMemory: 60_000_000))
        XCTAssertThrowsError(try Artwork.firstFrame(gif, forPictures: (206, 206), fit: .cover, limits: Limits(maxMemory: 60_000_000)),
                             "the whole canvas does not fit that budget")
        var fromFrame = ContactSheet()
        fromFrame.add(try Artwork.firstFrame(gif))
        XCTAssertEqual(fromFile.render(), fromFrame.render())
    }
}
