import XCTest
#if canImport(Glibc)
import Glibc
#endif
import PNGEncoding
import StickerKit
@testable import StickerPackaging

/// `CatalogChecker` on catalogs `StickerCatalog` writes, then on the same with each defect planted.
final class CatalogCheckTests: XCTestCase {
    var tmp: URL!

    override func setUpWithError() throws {
        tmp = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    /// A compressed sticker: a disc of `colour` on transparency, `side` px.
    func sticker(_ side: Int, shade: UInt8 = 0) -> [UInt8] {
        var img = Image(width: side, height: side)
        let c = Double(side) / 2
        for y in 0..<side { for x in 0..<side where (Double(x) - c) * (Double(x) - c) + (Double(y) - c) * (Double(y) - c) < c * c * 0.6 {
            img[x, y] = RGBA(200, shade, 40, 255)
        } }
        return PNGEncoder.encode(img, effort: .fast)
    }

    /// A catalog as pack writes it: two stickers, a three-frame sequence, the icon set.
    func makeCatalog() throws -> URL {
        var logo = Image(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { logo[x, y] = RGBA(UInt8(x * 4), UInt8(y * 4), 128, 255) } }
        let icons = try IconSetFiles.render(logo, effort: .fast)
        let frames = (0..<3).map { sticker(408, shade: UInt8($0 * 60)) }
        let dest = tmp.appendingPathComponent("Good.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [
            CatalogSticker(name: "cat", label: "A cat", content: .file(bytes: sticker(408), fileExtension: "png")),
            CatalogSticker(name: "dog", label: nil, content: .file(bytes: sticker(408, shade: 90), fileExtension: "png")),
            CatalogSticker(name: "wave", label: "Waving", content: .sequence(frames: frames, fps: 12, repetitions: 0)),
        ], iconSet: icons).write(to: dest.path)
        return dest
    }

    func codes(_ r: CatalogCheckReport) -> [StickerFinding.Code] {
        (r.findings + r.stickers.flatMap(\.findings)).filter { $0.severity != .info }.map(\.code)
    }

    func testACatalogPackWroteHasNothingToReport() throws {
        let dest = try makeCatalog()
        let r = CatalogChecker.check(catalog: dest.path)
        XCTAssertEqual(codes(r), [], "\(r.findings) \(r.stickers.flatMap(\.findings))")
        XCTAssertEqual(r.errors, 0)
        XCTAssertEqual(r.gridSize, "regular")
        XCTAssertEqual(r.hasIconSet, true)
        // Three stickers: the sequence is one, with its frames, its timing and its label.
        XCTAssertEqual(r.stickers.map { ($0.path as NSString).lastPathComponent }, ["cat.png", "dog.png", "wave.stickersequence"])
        let wave = r.stickers[2]
        XCTAssertEqual(wave.facts.frames, 3)
        XCTAssertEqual(wave.facts.fps!, 12, accuracy: 1e-9)
        XCTAssertEqual(wave.sequenceFrames?.count, 3)
        XCTAssertEqual(wave.accessibilityLabel, "Waving")
        XCTAssertEqual(r.stickers[0].accessibilityLabel, "A cat")
        XCTAssertNil(r.stickers[1].accessibilityLabel)
        let frameBytes = try (1...3).map { try Data(contentsOf: dest.appendingPathComponent("Sticker Pack.stickerpack/wave.stickersequence/wave-00\($0).png")).count }
        XCTAssertEqual(wave.bytes, frameBytes.reduce(0, +))
    }

    func testEachPlantedDefectIsNamedWithItsPathInsideTheCatalog() throws {
        let dest = try makeCatalog()
        let fm = FileManager.default
        let pack = dest.appendingPathComponent("Sticker Pack.stickerpack")
        let icons = dest.appendingPathComponent(StickerCatalog.iconSetFolderName)
        // A listed sticker removed; an unlisted one added; a Contents.json broken; a sticker naming
        // a missing file; a 300 px sticker in the regular pack; an icon entry gone; an icon of the
        // wrong size; a transparent icon; a sequence frame gone.
        try fm.removeItem(at: pack.appendingPathComponent("dog.sticker"))
        try fm.createDirectory(at: pack.appendingPathComponent("stray.sticker"), withIntermediateDirectories: true)
        try Data(sticker(408)).write(to: pack.appendingPathComponent("stray.sticker/stray.png"))
        try Data(#"{"info":{"author":"xcode","version":1},"properties":{"filename":"stray.png"}}"#.utf8)
            .write(to: pack.appendingPathComponent("stray.sticker/Contents.json"))
        try fm.createDirectory(at: pack.appendingPathComponent("broken.sticker"), withIntermediateDirectories: true)
        try Data(#"{"properties": {"filename": "#.utf8).write(to: pack.appendingPathComponent("broken.sticker/Contents.json"))
        try fm.removeItem(at: pack.appendingPathComponent("cat.sticker/cat.png"))
        try fm.createDirectory(at: pack.appendingPathComponent("small.sticker"), withIntermediateDirectories: true)
        try Data(sticker(300)).write(to: pack.appendingPathComponent("small.sticker/small.png"))
        try Data(#"{"info":{"author":"xcode","version":1},"properties":{"filename":"small.png"}}"#.utf8)
            .write(to: pack.appendingPathComponent("small.sticker/Contents.json"))
        var list = try JSONSerialization.jsonObject(with: Data(contentsOf: pack.appendingPathComponent("Contents.json"))) as! [String: Any]
        list["stickers"] = (list["stickers"] as! [[String: String]]) + [["filename": "broken.sticker"], ["filename": "small.sticker"]]
        try JSONSerialization.data(withJSONObject: list).write(to: pack.appendingPathComponent("Contents.json"))
        var set = try JSONSerialization.jsonObject(with: Data(contentsOf: icons.appendingPathComponent("Contents.json"))) as! [String: Any]
        set["images"] = (set["images"] as! [[String: Any]]).filter { $0["filename"] as? String != "iphone-60x45@3x.png" }
        try JSONSerialization.data(withJSONObject: set).write(to: icons.appendingPathComponent("Contents.json"))
        try fm.removeItem(at: icons.appendingPathComponent("iphone-60x45@3x.png"))
        try Data(PNGEncoder.encode(Image(width: 50, height: 50).opaqueCopy(), effort: .fast)).write(to: icons.appendingPathComponent("ipad-67x50@2x.png"))
        try Data(PNGEncoder.encode(Image(width: 64, height: 48), effort: .fast)).write(to: icons.appendingPathComponent("universal-32x24@2x.png"))
        try fm.removeItem(at: pack.appendingPathComponent("wave.stickersequence/wave-002.png"))

        let r = CatalogChecker.check(catalog: dest.path)
        let all = r.findings + r.stickers.flatMap(\.findings)
        func finding(_ code: StickerFinding.Code, _ rel: String, file: StaticString = #filePath, line: UInt = #line) {
            let path = dest.path + "/" + rel
            XCTAssertTrue(all.contains { $0.code == code && $0.path == path && $0.severity == .error },
                          "no \(code) error at \(rel): \(all.map { "\($0.code) \($0.path ?? "")" })", file: file, line: line)
        }
        finding(.missingFile, "Sticker Pack.stickerpack/dog.sticker")
        finding(.unlisted, "Sticker Pack.stickerpack/stray.sticker")
        finding(.invalidJSON, "Sticker Pack.stickerpack/broken.sticker/Contents.json")
        finding(.missingFile, "Sticker Pack.stickerpack/cat.sticker/cat.png")
        finding(.gridSize, "Sticker Pack.stickerpack/small.sticker/small.png")
        finding(.iconMissing, StickerCatalog.iconSetFolderName)
        XCTAssertTrue(all.contains { $0.code == .iconMissing && $0.message.contains("iPhone 60×45 pt @3x (180×135 px)") })
        finding(.iconSize, StickerCatalog.iconSetFolderName + "/ipad-67x50@2x.png")
        finding(.iconOpaque, StickerCatalog.iconSetFolderName + "/universal-32x24@2x.png")
        finding(.missingFile, "Sticker Pack.stickerpack/wave.stickersequence/wave-002.png")
        XCTAssertEqual(r.errors, 9, "the planted defects and nothing else: \(all.filter { $0.severity == .error }.map(\.message))")
        // Still one sticker per folder: the sequence is one (of its two frames left).
        XCTAssertEqual(r.stickers.filter { $0.path.hasSuffix("wave.stickersequence") }.map(\.facts.frames), [2])
    }

    /// Files of any size put in a catalog are named, not read (sparse files: no disk is used). A
    /// 1.5 GB file in a sticker's folder held 3.1 GB during `check`; `scripts/check-bombs`
    /// measures the CLI's peak.
    func testFilesTooLargeToReadAreNamedNotRead() throws {
        let dest = try makeCatalog()
        let pack = dest.appendingPathComponent("Sticker Pack.stickerpack")
        let icons = dest.appendingPathComponent(StickerCatalog.iconSetFolderName)
        func grow(_ url: URL, to size: UInt64) throws {
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: size)
            try handle.close()
        }
        try grow(pack.appendingPathComponent("cat.sticker/cat.png"), to: 400_000_000)
        try grow(pack.appendingPathComponent("wave.stickersequence/wave-002.png"), to: 400_000_000)
        try grow(icons.appendingPathComponent("ipad-67x50@2x.png"), to: 400_000_000)
        try grow(pack.appendingPathComponent("dog.sticker/Contents.json"), to: UInt64(BoundedRead.maxJSONBytes + 1))

        let r = CatalogChecker.check(catalog: dest.path)
        let all = r.findings + r.stickers.flatMap(\.findings)
        let tooLarge = "not read: 400 MB, more than one file may hold in memory (256 MB)"
        XCTAssertEqual(r.stickers.first { $0.path.hasSuffix("cat.png") }?.findings.map(\.message), [tooLarge])
        for rel in ["Sticker Pack.stickerpack/wave.stickersequence/wave-002.png", StickerCatalog.iconSetFolderName + "/ipad-67x50@2x.png"] {
            XCTAssertTrue(all.contains { $0.code == .unreadable && $0.path == dest.path + "/" + rel && $0.message == tooLarge },
                          "\(rel): \(all.map { "\($0.code) \($0.path ?? "") \($0.message)" })")
        }
        XCTAssertTrue(all.contains { $0.code == .invalidJSON && $0.path == dest.path + "/Sticker Pack.stickerpack/dog.sticker/Contents.json"
                          && $0.message == BoundedRead.jsonTooLarge(BoundedRead.maxJSONBytes + 1) })

        // pack's record and the pack's listing: refused by name, not read.
        try grow(dest.appendingPathComponent(".stickerkit.json"), to: UInt64(BoundedRead.maxJSONBytes + 1))
        XCTAssertThrowsError(try ExistingCatalog(dest)) { error in
            XCTAssertEqual("\(error)", "\(PackError.unreadableCatalogFile(path: dest.appendingPathComponent(".stickerkit.json").path, reason: BoundedRead.jsonTooLarge(BoundedRead.maxJSONBytes + 1)))")
        }
    }

    /// Pipes in place of a sticker's image, a sequence's frame, an icon and a Contents.json are
    /// each named as what they are, never opened (a pipe waits for a writer); the sticker's was
    /// called an "empty file (0 bytes)".
    func testPipesAreNamedNotOpened() throws {
        let dest = try makeCatalog()
        let pipes = ["Sticker Pack.stickerpack/cat.sticker/cat.png", "Sticker Pack.stickerpack/wave.stickersequence/wave-002.png",
                     StickerCatalog.iconSetFolderName + "/ipad-67x50@2x.png", "Sticker Pack.stickerpack/dog.sticker/Contents.json"]
        for rel in pipes {
            try FileManager.default.removeItem(at: dest.appendingPathComponent(rel))
            XCTAssertEqual(mkfifo(dest.appendingPathComponent(rel).path, 0o644), 0)
        }
        let r = CatalogChecker.check(catalog: dest.path)
        let all = r.findings + r.stickers.flatMap(\.findings)
        let message = "not a regular file (a FIFO); not read"
        XCTAssertEqual(r.stickers.first { $0.path.hasSuffix("cat.png") }?.findings.map(\.message), [message])
        for rel in pipes.dropFirst() {
            XCTAssertTrue(all.contains { $0.path == dest.path + "/" + rel && $0.message.hasPrefix(message) },
                          "\(rel): \(all.map { "\($0.code) \($0.path ?? "") \($0.message)" })")
        }
    }

    /// A sticker folder's digest is the same hashed a megabyte at a time as from its bytes in
    /// memory (what `pack` records when it writes the folder), for both hashes.
    func testAFoldersDigestReadInPiecesIsTheRecordedOne() throws {
        let folder = tmp.appendingPathComponent("big.sticker")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let big = (0..<3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11) }
        try Data(big).write(to: folder.appendingPathComponent("big.png"))
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("other.png"))
        let json = #"{"info":{"author":"xcode","version":1},"properties":{"filename":"big.png"}}"#
        try Data(json.utf8).write(to: folder.appendingPathComponent("Contents.json"))
        for hash in [StickerFolderDigest.Hash.sha256, .fnv1a] {
            let properties = StickerFolderDigest.properties(contentsJSON: Data(json.utf8), sequence: false, hash: hash)
            XCTAssertEqual(StickerFolderDigest.of(folder: folder, hash: hash),
                           StickerFolderDigest.of(properties: properties, files: [("other.png", [1, 2, 3]), ("big.png", big)], hash: hash))
        }
    }

    func testAMissingIconSetAndAMissingPackAreReported() throws {
        let dest = tmp.appendingPathComponent("Bare.xcstickers")
        try FileManager.default.createDirectory(at: dest, withIntermediateDirectories: true)
        let r = CatalogChecker.check(catalog: dest.path)
        XCTAssertEqual(Set(r.findings.map(\.code)), [.missingContents, .pack, .noIconSet])
        let noIcons = r.findings.first { $0.code == .noIconSet }!
        XCTAssertEqual(noIcons.severity, .warning)
        XCTAssertTrue(noIcons.message.contains("stickerkit icons LOGO.png -o"), noIcons.message)
    }

    func testBadKeysAreNamed() throws {
        let dest = try makeCatalog()
        let pack = dest.appendingPathComponent("Sticker Pack.stickerpack")
        try Data(#"{"info":{"author":"xcode","version":1},"properties":{"grid-size":"huge"},"stickers":[{"filename":"cat.sticker"},{"filename":"cat.sticker"},{"filename":"wave.stickersequence"},{"filename":"dog.sticker"}]}"#.utf8)
            .write(to: pack.appendingPathComponent("Contents.json"))
        try Data(#"{"properties":{"duration":12,"duration-type":"often","frames":[]},"frames":[{"filename":"wave-001.png"},{"filename":"wave-002.png"},{"filename":"wave-003.png"}]}"#.utf8)
            .write(to: pack.appendingPathComponent("wave.stickersequence/Contents.json"))
        let r = CatalogChecker.check(catalog: dest.path)
        let all = r.findings + r.stickers.flatMap(\.findings)
        let messages = all.map(\.message)
        XCTAssertTrue(messages.contains("grid-size \"huge\" is not small, regular or large"), "\(messages)")
        XCTAssertTrue(messages.contains("lists cat.sticker twice"), "\(messages)")
        XCTAssertTrue(messages.contains("duration-type \"often\" is not fixed or fps"), "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("no \"info\"") }, "\(messages)")
        XCTAssertTrue(all.contains { $0.code == .badKey && $0.severity == .warning && $0.message.contains("repetitions") })
        // The sequence's own findings are in its report.
        XCTAssertTrue(r.stickers[1].findings.contains { $0.message == "duration-type \"often\" is not fixed or fps" })
    }

    func testAPackFolderAloneIsCheckedWithoutCatalogFindings() throws {
        let dest = try makeCatalog()
        let r = CatalogChecker.check(pack: dest.appendingPathComponent("Sticker Pack.stickerpack").path)
        XCTAssertEqual(codes(r), [])
        XCTAssertEqual(r.stickers.count, 3)
        XCTAssertNil(r.hasIconSet)
    }
}

private extension Image {
    /// The same size, every pixel opaque white.
    func opaqueCopy() -> Image {
        var out = self
        for y in 0..<height { for x in 0..<width { out[x, y] = RGBA(255, 255, 255, 255) } }
        return out
    }
}
