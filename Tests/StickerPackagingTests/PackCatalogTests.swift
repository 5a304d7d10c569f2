import XCTest
import StickerKit
@testable import StickerPackaging

final class PackCatalogTests: XCTestCase {
    var tmp: URL!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("pack-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    func json(_ url: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: url)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], url.path)
    }

    func assertXcodeInfo(_ contents: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        let info = contents["info"] as? [String: Any]
        XCTAssertEqual(info?["author"] as? String, "xcode", file: file, line: line)
        XCTAssertEqual(info?["version"] as? Int, 1, file: file, line: line)
        XCTAssertEqual(info?.count, 2, file: file, line: line)
    }

    func testCatalogLayoutJSONAndOrder() throws {
        let png = TestPNG.still(300, 300, pixel: TestPNG.discOf(size: 300))
        let catalog = StickerCatalog(gridSize: .large, stickers: [
            CatalogSticker(name: "happy_cat-2", label: "Happy cat 2", content: .file(bytes: png, fileExtension: "png")),
            CatalogSticker(name: "Zebra \"quoted\"", label: "Zebra \"quoted\" — ok", content: .file(bytes: png, fileExtension: "png")),
            CatalogSticker(name: "émoji café", label: "Émoji café", content: .file(bytes: png, fileExtension: "png")),
            CatalogSticker(name: "apple", label: nil, content: .file(bytes: png, fileExtension: "png")),
        ])
        let dest = tmp.appendingPathComponent("My Pack.xcstickers")
        try catalog.write(to: dest.path)

        let root = try json(dest.appendingPathComponent("Contents.json"))
        assertXcodeInfo(root)

        let packDir = dest.appendingPathComponent("Sticker Pack.stickerpack")
        let pack = try json(packDir.appendingPathComponent("Contents.json"))
        XCTAssertEqual(pack["properties"] as? [String: String], ["grid-size": "large"])
        assertXcodeInfo(pack)
        let order = (pack["stickers"] as? [[String: String]])?.compactMap { $0["filename"] }
        // Case-insensitive, then by UTF-8 bytes: "é" (C3 A9) sorts after ASCII letters.
        XCTAssertEqual(order, ["apple.sticker", "happy_cat-2.sticker", "Zebra _quoted_.sticker", "émoji café.sticker"])

        for (folder, label) in [("Zebra _quoted_", "Zebra \"quoted\" — ok"), ("émoji café", "Émoji café"), ("apple", nil)] {
            let dir = packDir.appendingPathComponent(folder + ".sticker")
            let c = try json(dir.appendingPathComponent("Contents.json"))
            let props = try XCTUnwrap(c["properties"] as? [String: String])
            XCTAssertEqual(props["filename"], folder + ".png")
            XCTAssertEqual(props["accessibility-label"], label)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent(folder + ".png")), Data(png))
        }
        // Nothing left beside the catalog.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["My Pack.xcstickers"])
    }

    func testSequenceContents() throws {
        let frames = (0..<3).map { i in TestPNG.still(300, 300) { x, _ in x % 3 == i ? [0, 0, 0, 255] : [0, 0, 0, 0] } }
        let catalog = StickerCatalog(gridSize: .small, stickers: [
            CatalogSticker(name: "wave", label: "Waving hand", content: .sequence(frames: frames, fps: 12, repetitions: 0)),
        ])
        let dest = tmp.appendingPathComponent("S.xcstickers")
        try catalog.write(to: dest.path)
        let dir = dest.appendingPathComponent("Sticker Pack.stickerpack/wave.stickersequence")
        let c = try json(dir.appendingPathComponent("Contents.json"))
        let props = try XCTUnwrap(c["properties"] as? [String: Any])
        XCTAssertEqual(props["duration-type"] as? String, "fps")
        XCTAssertEqual(props["duration"] as? Double, 12)
        XCTAssertEqual(props["repetitions"] as? Int, 0)
        XCTAssertEqual(props["accessibility-label"] as? String, "Waving hand")
        let names = (c["frames"] as? [[String: String]])?.compactMap { $0["filename"] }
        XCTAssertEqual(names, ["wave-001.png", "wave-002.png", "wave-003.png"])
        for (i, n) in names!.enumerated() {
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent(n)), Data(frames[i]))
        }
        let pack = try json(dest.appendingPathComponent("Sticker Pack.stickerpack/Contents.json"))
        XCTAssertEqual((pack["stickers"] as? [[String: String]])?.first?["filename"], "wave.stickersequence")
    }

    func testRewriteReplacesTheWholeCatalog() throws {
        let png = TestPNG.still(300, 300)
        let dest = tmp.appendingPathComponent("P.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [CatalogSticker(name: "old", label: nil, content: .file(bytes: png, fileExtension: "png"))])
            .write(to: dest.path)
        try StickerCatalog(gridSize: .regular, stickers: [CatalogSticker(name: "new", label: nil, content: .file(bytes: png, fileExtension: "png"))])
            .write(to: dest.path)
        let stickers = try FileManager.default.contentsOfDirectory(atPath: dest.appendingPathComponent("Sticker Pack.stickerpack").path).sorted()
        XCTAssertEqual(stickers, ["Contents.json", "new.sticker"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["P.xcstickers"])
    }

    func testNamesThatCollideIgnoringCaseAreMadeUnique() {
        let png: [UInt8] = [1]
        let c = StickerCatalog(gridSize: .regular, stickers: ["Cat", "cat", "a/b", "CAT"].map {
            CatalogSticker(name: $0, label: nil, content: .file(bytes: png, fileExtension: "png"))
        })
        XCTAssertEqual(c.folderNames, ["Cat.sticker", "cat 2.sticker", "a_b.sticker", "CAT 3.sticker"])
    }

    func testSafeName() {
        XCTAssertEqual(StickerNaming.safeName("a/b:c*d?e\"f<g>h|i\\j"), "a_b_c_d_e_f_g_h_i_j")
        XCTAssertEqual(StickerNaming.safeName("  ..hidden. "), "hidden")
        XCTAssertEqual(StickerNaming.safeName("tab\there"), "tab_here")
        XCTAssertEqual(StickerNaming.safeName("It's 日本 ok"), "It's 日本 ok")
        XCTAssertEqual(StickerNaming.safeName("..."), "sticker")
        // Decomposed "é" (e + U+0301) becomes the composed form.
        XCTAssertEqual(Array(StickerNaming.safeName("cafe\u{301}").unicodeScalars).map(\.value), [0x63, 0x61, 0x66, 0xE9])
        XCTAssertLessThanOrEqual(StickerNaming.safeName(String(repeating: "é", count: 300)).utf8.count, 200)
    }

    func testLabelFromFileName() {
        XCTAssertEqual(StickerNaming.label(fromFileName: "happy_cat-2"), "Happy cat 2")
        XCTAssertEqual(StickerNaming.label(fromFileName: "happy_cat-2.png"), "Happy cat 2")
        XCTAssertEqual(StickerNaming.label(fromFileName: "__big__ -- wave.gif"), "Big wave")
        XCTAssertEqual(StickerNaming.label(fromFileName: "élan"), "Élan")
        XCTAssertEqual(StickerNaming.label(fromFileName: "OK"), "OK")
    }

    func testOrderIsCaseInsensitiveThenBytewise() {
        let names = ["b", "B", "a", "A", "é", "z"]
        XCTAssertEqual(names.sorted(by: StickerNaming.precedes), ["A", "a", "B", "b", "z", "é"])
    }

    func testCSVLabels() throws {
        let csv = "file,label\nhappy.png,\"Happy, very \"\"happy\"\"\"\nsad,Sad face\r\n\"multi.png\",\"two\nlines\"\n"
        let l = try StickerLabels(data: Array(csv.utf8), fileName: "labels.csv")
        XCTAssertEqual(l.label(for: "art/happy.png"), "Happy, very \"happy\"")
        XCTAssertEqual(l.label(for: "sad.gif"), "Sad face")
        XCTAssertEqual(l.label(for: "MULTI.PNG"), "two\nlines")
        XCTAssertNil(l.label(for: "other.png"))
        XCTAssertNil(l.entries["file"], "header row is not a label")
        XCTAssertThrowsError(try StickerLabels(data: Array("a.png,\"open".utf8), fileName: "x.csv")) { e in
            XCTAssertEqual(e as? PackError, .labelsUnterminatedQuote(file: "x.csv"))
        }
        XCTAssertThrowsError(try StickerLabels(data: Array("a.png,A\nonlyone\n".utf8), fileName: "x.csv")) { e in
            XCTAssertEqual(e as? PackError, .labelsRowTooShort(file: "x.csv", line: 2, fields: 1))
            XCTAssertEqual("\(e)", "x.csv: line 2 has 1 field; expected file,label")
        }
    }

    func testJSONLabels() throws {
        let obj = try StickerLabels(data: Array(#"{"cat.png": "A cat", "dög": "Ünïcode dog"}"#.utf8), fileName: "l.json")
        XCTAssertEqual(obj.label(for: "x/cat.png"), "A cat")
        XCTAssertEqual(obj.label(for: "dög.jpg"), "Ünïcode dog")
        let arr = try StickerLabels(data: Array(#"[{"file": "cat.png", "label": "A cat"}]"#.utf8), fileName: "l.txt")
        XCTAssertEqual(arr.label(for: "cat.png"), "A cat")
        XCTAssertThrowsError(try StickerLabels(data: Array(#"{"a": 1}"#.utf8), fileName: "l.json")) { e in
            XCTAssertEqual(e as? PackError, .labelsNotAMapping(file: "l.json"))
        }
    }
}
