import XCTest
#if canImport(Glibc)
import Glibc
#endif
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

    /// A distinct still per seed (a disc of its own colour), so that digests tell them apart.
    func png(_ seed: Int = 0) -> [UInt8] {
        TestPNG.still(300, 300) { x, y in
            let d = (x - 150) * (x - 150) + (y - 150) * (y - 150)
            return d < 100 * 100 ? [UInt8(seed * 40 % 256), 90, 200, 255] : [0, 0, 0, 0]
        }
    }

    func sticker(_ name: String, seed: Int = 0, source: String? = nil, label: String? = nil, rank: Int? = nil) -> CatalogSticker {
        CatalogSticker(name: name, label: label, content: .file(bytes: png(seed), fileExtension: "png"),
                       source: source ?? "art/\(name).png", rank: rank)
    }

    /// The pack's Contents.json order.
    func listed(_ catalog: URL) throws -> [String] {
        let pack = try json(catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json"))
        return (pack["stickers"] as? [[String: String]])?.compactMap { $0["filename"] } ?? []
    }

    func folders(_ catalog: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: catalog.appendingPathComponent("Sticker Pack.stickerpack").path)
            .filter { $0 != "Contents.json" }.sorted()
    }

    /// A hand-made sticker folder, as someone adds one in Xcode.
    func handMade(_ name: String, in catalog: URL, list: Bool) throws {
        let dir = catalog.appendingPathComponent("Sticker Pack.stickerpack/\(name).sticker")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(png(9)).write(to: dir.appendingPathComponent("art.png"))
        try Data(#"{"info":{"author":"xcode","version":1},"properties":{"filename":"art.png"}}"#.utf8)
            .write(to: dir.appendingPathComponent("Contents.json"))
        if list {
            let url = catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json")
            var pack = try json(url)
            pack["stickers"] = (pack["stickers"] as! [[String: String]]) + [["filename": "\(name).sticker"]]
            try JSONSerialization.data(withJSONObject: pack).write(to: url)
        }
    }

    func testCatalogLayoutJSONAndOrder() throws {
        let bytes = png()
        let catalog = StickerCatalog(gridSize: .large, stickers: [
            CatalogSticker(name: "happy_cat-2", label: "Happy cat 2", content: .file(bytes: bytes, fileExtension: "png")),
            CatalogSticker(name: "Zebra \"quoted\"", label: "Zebra \"quoted\" — ok", content: .file(bytes: bytes, fileExtension: "png")),
            CatalogSticker(name: "émoji café", label: "Émoji café", content: .file(bytes: bytes, fileExtension: "png")),
            CatalogSticker(name: "apple", label: nil, content: .file(bytes: bytes, fileExtension: "png")),
        ])
        let dest = tmp.appendingPathComponent("My Pack.xcstickers")
        let changes = try catalog.write(to: dest.path)
        XCTAssertEqual(changes.count(.added), 4)
        XCTAssertEqual(changes.renames.map(\.folder), ["Zebra _quoted_.sticker"])
        XCTAssertNil(changes.renames[0].takenBy)
        XCTAssertEqual(changes.warnings, [.noIconSet(catalog: dest.path)])

        assertXcodeInfo(try json(dest.appendingPathComponent("Contents.json")))
        let packDir = dest.appendingPathComponent("Sticker Pack.stickerpack")
        let pack = try json(packDir.appendingPathComponent("Contents.json"))
        XCTAssertEqual(pack["properties"] as? [String: String], ["grid-size": "large"])
        assertXcodeInfo(pack)
        // Natural order: letters ignoring case; "é" (C3 A9) sorts after ASCII letters.
        XCTAssertEqual(try listed(dest), ["apple.sticker", "happy_cat-2.sticker", "Zebra _quoted_.sticker", "émoji café.sticker"])

        for (folder, label) in [("Zebra _quoted_", "Zebra \"quoted\" — ok"), ("émoji café", "Émoji café"), ("apple", nil)] {
            let dir = packDir.appendingPathComponent(folder + ".sticker")
            let c = try json(dir.appendingPathComponent("Contents.json"))
            let props = try XCTUnwrap(c["properties"] as? [String: String])
            XCTAssertEqual(props["filename"], folder + ".png")
            XCTAssertEqual(props["accessibility-label"], label)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent(folder + ".png")), Data(bytes))
        }
        // The record, and nothing left beside the catalog.
        XCTAssertTrue(FileManager.default.fileExists(atPath: dest.appendingPathComponent(".stickerkit.json").path))
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
        XCTAssertEqual(try listed(dest), ["wave.stickersequence"])
    }

    func testUpdateKeepsWhatItDidNotMakeAndPrunesOnlyWhenAsked() throws {
        let dest = tmp.appendingPathComponent("P.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("old"), sticker("keep", seed: 1)]).write(to: dest.path)
        try handMade("Hand", in: dest, list: true)
        try Data("notes\n".utf8).write(to: dest.appendingPathComponent("README.md"))
        try IconSetFiles.render(Image(width: 4, height: 4), effort: .fast).write(into: dest.appendingPathComponent(StickerCatalog.iconSetFolderName).path)
        let handBytes = try Data(contentsOf: dest.appendingPathComponent("Sticker Pack.stickerpack/Hand.sticker/art.png"))

        // Again without "old", with "keep" changed and "new" added, no icon set given.
        let second = try StickerCatalog(gridSize: .regular, stickers: [sticker("keep", seed: 2), sticker("new", seed: 3)]).write(to: dest.path)
        XCTAssertEqual(second.entries.map(\.folder), ["keep.sticker", "new.sticker", "old.sticker", "Hand.sticker"])
        XCTAssertEqual(second.entries.map(\.outcome), [.replaced, .added, .keptWithoutInput, .keptHandMade])
        XCTAssertEqual(second.warnings, [.keptWithoutInput(folders: ["old.sticker"])], "the icon set is there: no warning about it")
        XCTAssertEqual(try listed(dest), ["keep.sticker", "new.sticker", "old.sticker", "Hand.sticker"])
        XCTAssertEqual(try Data(contentsOf: dest.appendingPathComponent("Sticker Pack.stickerpack/keep.sticker/keep.png")), Data(png(2)))
        XCTAssertEqual(try Data(contentsOf: dest.appendingPathComponent("Sticker Pack.stickerpack/Hand.sticker/art.png")), handBytes)
        XCTAssertEqual(try String(contentsOf: dest.appendingPathComponent("README.md"), encoding: .utf8), "notes\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dest.appendingPathComponent(StickerCatalog.iconSetFolderName).path)
            .filter { $0.hasSuffix(".png") }.count, 13)

        // The same inputs again: nothing changes.
        let third = try StickerCatalog(gridSize: .regular, stickers: [sticker("keep", seed: 2), sticker("new", seed: 3)]).write(to: dest.path)
        XCTAssertEqual(third.entries.map(\.outcome), [.unchanged, .unchanged, .keptWithoutInput, .keptHandMade])

        // Pruned: only the sticker stickerkit made from an input no longer given.
        let pruned = try StickerCatalog(gridSize: .regular, stickers: [sticker("keep", seed: 2), sticker("new", seed: 3)])
            .write(to: dest.path, options: .init(prune: true))
        XCTAssertEqual(pruned.entries.map(\.folder), ["keep.sticker", "new.sticker", "Hand.sticker", "old.sticker"])
        XCTAssertEqual(pruned.entries.last?.outcome, .removed)
        XCTAssertEqual(try folders(dest), ["Hand.sticker", "keep.sticker", "new.sticker"])
        XCTAssertEqual(try listed(dest), ["keep.sticker", "new.sticker", "Hand.sticker"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["P.xcstickers"], "nothing left beside it")
    }

    /// The new version of a catalog shares the files it keeps with the old one (hard links: a
    /// catalog holding 1.5 GB of the user's files took about 6 s to copy on every run), and
    /// every file it changes is written anew, never through a shared file: the catalog on disk
    /// stays the old one, whole, until the new one is renamed into place.
    func testKeptFilesAreSharedAndChangedFilesAreWrittenAnew() throws {
        let dest = tmp.appendingPathComponent("P.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a"), sticker("b", seed: 1)]).write(to: dest.path)
        try handMade("Hand", in: dest, list: true)
        let art = dest.appendingPathComponent("Sticker Pack.stickerpack/Hand.sticker/art.png")
        let packJSON = dest.appendingPathComponent("Sticker Pack.stickerpack/Contents.json")
        let kept = dest.appendingPathComponent("Sticker Pack.stickerpack/a.sticker/a.png")
        // Links of our own to the old files: what they hold is what the old catalog held.
        let oldJSON = tmp.appendingPathComponent("old-pack.json"), oldRecord = tmp.appendingPathComponent("old-record.json")
        try FileManager.default.linkItem(at: packJSON, to: oldJSON)
        try FileManager.default.linkItem(at: dest.appendingPathComponent(CatalogRecord.fileName), to: oldRecord)
        let jsonBefore = try Data(contentsOf: oldJSON), recordBefore = try Data(contentsOf: oldRecord)
        func inode(_ url: URL) throws -> Int { try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int) }
        let artInode = try inode(art), keptInode = try inode(kept)

        // "b" changed, "c" added: the pack's list and the record change.
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a"), sticker("b", seed: 2), sticker("c", seed: 3)]).write(to: dest.path)
        XCTAssertEqual(try listed(dest), ["a.sticker", "b.sticker", "c.sticker", "Hand.sticker"])
        XCTAssertEqual(try inode(art), artInode, "the hand-made file was copied")
        XCTAssertEqual(try inode(kept), keptInode, "the unchanged sticker was copied")
        XCTAssertEqual(try Data(contentsOf: oldJSON), jsonBefore, "the old catalog's Contents.json was written through")
        XCTAssertEqual(try Data(contentsOf: oldRecord), recordBefore, "the old catalog's record was written through")
        XCTAssertNotEqual(try Data(contentsOf: packJSON), jsonBefore)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: tmp.path)), ["P.xcstickers", "old-pack.json", "old-record.json"])

        // A folder of the user's made private keeps its permissions (it came out 755), its
        // file too.
        let privateFolder = dest.appendingPathComponent("private"), secret = privateFolder.appendingPathComponent("a.txt")
        try FileManager.default.createDirectory(at: privateFolder, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: privateFolder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a"), sticker("b", seed: 4)]).write(to: dest.path)
        func mode(_ url: URL) throws -> Int? { try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int }
        XCTAssertEqual(try mode(privateFolder), 0o700)
        XCTAssertEqual(try mode(secret), 0o600)
        XCTAssertEqual(try Data(contentsOf: secret), Data("x".utf8))
    }

    /// A pipe someone left in a catalog is kept as it is; copying it read from it, and the write
    /// waited until something wrote into the pipe (forever, for `pack`). Here a writer comes
    /// after 10 s, so the old way ends with an empty file in its place instead of hanging.
    func testAPipeInTheCatalogIsKeptWithoutReadingIt() throws {
        let dest = tmp.appendingPathComponent("P.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a")]).write(to: dest.path)
        let pipe = dest.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(pipe.path, 0o644), 0)
        let unblock = Thread {
            Thread.sleep(forTimeInterval: 10)
            let fd = open(pipe.path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        unblock.start()
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a", seed: 1)]).write(to: dest.path)
        var st = stat()
        XCTAssertEqual(lstat(pipe.path, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the pipe was read and copied as a file")
        XCTAssertEqual(try Data(contentsOf: dest.appendingPathComponent("Sticker Pack.stickerpack/a.sticker/a.png")), Data(png(1)))
    }

    /// A pipe in place of a sticker's image is not opened: the sticker's folder is then not what
    /// stickerkit wrote, so it is kept as edited. Opening the pipe to hash it waited for a writer,
    /// forever (`pack` hung); here the test gives up after 60 s and writes into it itself.
    func testAPipeInPlaceOfAStickersImageIsNotOpened() throws {
        let dest = tmp.appendingPathComponent("P.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a"), sticker("b", seed: 1)]).write(to: dest.path)
        let image = dest.appendingPathComponent("Sticker Pack.stickerpack/a.sticker/a.png")
        try FileManager.default.removeItem(at: image)
        XCTAssertEqual(mkfifo(image.path, 0o644), 0)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var changes: CatalogChanges?
        let catalog = StickerCatalog(gridSize: .regular, stickers: [sticker("a", seed: 2), sticker("b", seed: 1)])
        Thread {
            changes = try? catalog.write(to: dest.path)
            done.signal()
        }.start()
        if done.wait(timeout: .now() + 60) == .timedOut {
            XCTFail("the write waits on the pipe")
            let fd = open(image.path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            done.wait()
        }
        XCTAssertEqual(changes?.entries.map(\.outcome), [.keptEdited, .unchanged])
    }

    /// A folder of the user's made read-only inside the catalog: the version moved aside could
    /// not be removed (its entries stay), and all of it was left beside the catalog as
    /// `.P.xcstickers.old-…`. Root writes into read-only folders anyway, so this runs as another
    /// user only (`runuser -u nobody` on the test binary: fails without the fix, passes with it).
    func testAReadOnlyFolderOfTheUsersLeavesNoOldVersionBeside() throws {
        try XCTSkipIf(geteuid() == 0, "root removes entries of read-only folders: run the tests as another user to see this")
        let dest = tmp.appendingPathComponent("P.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a")]).write(to: dest.path)
        let locked = dest.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        try Data("x".utf8).write(to: locked.appendingPathComponent("a.txt"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked.path) }
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a", seed: 1)]).write(to: dest.path)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["P.xcstickers"], "a version left beside it")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: locked.path)[.posixPermissions] as? Int, 0o555)
        XCTAssertEqual(try Data(contentsOf: locked.appendingPathComponent("a.txt")), Data("x".utf8))
    }

    func testUnlistedHandMadeStickersGetListedAndMissingOnesDropped() throws {
        let dest = tmp.appendingPathComponent("P.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a")]).write(to: dest.path)
        try handMade("Loose", in: dest, list: false)
        try handMade("Gone", in: dest, list: true)
        try FileManager.default.removeItem(at: dest.appendingPathComponent("Sticker Pack.stickerpack/Gone.sticker"))
        let changes = try StickerCatalog(gridSize: .regular, stickers: [sticker("a")]).write(to: dest.path)
        XCTAssertEqual(try listed(dest), ["a.sticker", "Loose.sticker"])
        XCTAssertTrue(changes.warnings.contains(.unlistedNowListed(folders: ["Loose.sticker"])), "\(changes.warnings)")
        XCTAssertTrue(changes.warnings.contains(.missingDropped(folders: ["Gone.sticker"])), "\(changes.warnings)")
    }

    func testAnEditedStickerIsKeptUnlessOverwrite() throws {
        let dest = tmp.appendingPathComponent("E.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("cat"), sticker("dog", seed: 1)]).write(to: dest.path)
        // Someone changes the cat's label in Xcode (and Xcode reformats the file: not an edit by itself).
        let contents = dest.appendingPathComponent("Sticker Pack.stickerpack/cat.sticker/Contents.json")
        try Data(#"{ "info" : { "version" : 1, "author" : "xcode" }, "properties" : { "filename" : "cat.png", "accessibility-label" : "A very good cat" } }"#.utf8)
            .write(to: contents)
        let dogContents = dest.appendingPathComponent("Sticker Pack.stickerpack/dog.sticker/Contents.json")
        let reformatted = try JSONSerialization.data(withJSONObject: try json(dogContents))
        try reformatted.write(to: dogContents)

        let changes = try StickerCatalog(gridSize: .regular, stickers: [sticker("cat", seed: 5), sticker("dog", seed: 1)]).write(to: dest.path)
        XCTAssertEqual(changes.entries.map(\.outcome), [.keptEdited, .unchanged])
        XCTAssertEqual(changes.warnings, [.editedKept(folder: "cat.sticker", source: "art/cat.png"), .noIconSet(catalog: dest.path)])
        XCTAssertTrue(try String(contentsOf: contents, encoding: .utf8).contains("A very good cat"))
        // Pruning leaves it too; overwrite replaces it.
        let pruned = try StickerCatalog(gridSize: .regular, stickers: [sticker("dog", seed: 1)]).write(to: dest.path, options: .init(prune: true))
        XCTAssertEqual(pruned.entries.map(\.outcome), [.keptEdited, .unchanged])
        XCTAssertTrue(pruned.warnings.contains(.editedNotPruned(folder: "cat.sticker")))
        let overwritten = try StickerCatalog(gridSize: .regular, stickers: [sticker("cat", seed: 5), sticker("dog", seed: 1)])
            .write(to: dest.path, options: .init(overwrite: true))
        XCTAssertEqual(overwritten.entries.map(\.outcome), [.replaced, .unchanged])
        XCTAssertFalse(try String(contentsOf: contents, encoding: .utf8).contains("A very good cat"))
    }

    /// The record an earlier version wrote for a one-file sticker folder: FNV-1a 64-bit over the
    /// sorted Contents.json properties and then each file's name, byte count and bytes, every
    /// text followed by 0xFF, as 16 hex digits.
    func legacyDigest(of folder: URL) throws -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 { for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 } }
        func text(_ t: String) { add(Array(t.utf8) + [0xFF]) }
        let properties = try XCTUnwrap(json(folder.appendingPathComponent("Contents.json"))["properties"] as? [String: String])
        let file = try XCTUnwrap(properties["filename"])
        for (key, value) in [("filename", file), ("kind", "sticker"), ("label", properties["accessibility-label"] ?? "\u{0}")] {
            text(key)
            text(value)
        }
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
        text(file)
        text(String(bytes.count))
        add(bytes)
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The record's digests by folder.
    func recordedDigests(_ catalog: URL) throws -> [String: String] {
        let stickers = try XCTUnwrap(json(catalog.appendingPathComponent(".stickerkit.json"))["stickers"] as? [[String: String]])
        return Dictionary(uniqueKeysWithValues: stickers.map { ($0["folder"]!, $0["digest"]!) })
    }

    func testARecordOfAnEarlierVersionStillTellsOurStickersAndIsUpgraded() throws {
        let dest = tmp.appendingPathComponent("L.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("cat"), sticker("dog", seed: 1), sticker("keep", seed: 2),
                                                          sticker("old", seed: 3)]).write(to: dest.path)
        // The record as an earlier version wrote it: FNV-1a digests.
        let recordURL = dest.appendingPathComponent(".stickerkit.json")
        var record = try json(recordURL)
        let pack = dest.appendingPathComponent("Sticker Pack.stickerpack")
        record["stickers"] = try (record["stickers"] as! [[String: String]]).map { entry in
            var e = entry
            e["digest"] = try legacyDigest(of: pack.appendingPathComponent(entry["folder"]!))
            return e
        }
        try JSONSerialization.data(withJSONObject: record).write(to: recordURL)
        XCTAssertEqual(try recordedDigests(dest).values.map(\.count), [16, 16, 16, 16])
        let catDigest = try recordedDigests(dest)["cat.sticker"]
        // Someone changes the cat's label in Xcode: still the user's work under an old record.
        let catContents = pack.appendingPathComponent("cat.sticker/Contents.json")
        try Data(#"{"info":{"author":"xcode","version":1},"properties":{"filename":"cat.png","accessibility-label":"Good cat"}}"#.utf8)
            .write(to: catContents)

        let changes = try StickerCatalog(gridSize: .regular, stickers: [sticker("cat", seed: 5), sticker("dog", seed: 1),
                                                                        sticker("keep", seed: 4)])
            .write(to: dest.path, options: .init(prune: true))
        XCTAssertEqual(changes.entries.map(\.folder), ["cat.sticker", "dog.sticker", "keep.sticker", "old.sticker"])
        XCTAssertEqual(changes.entries.map(\.outcome), [.keptEdited, .unchanged, .replaced, .removed])
        XCTAssertEqual(changes.warnings, [.editedKept(folder: "cat.sticker", source: "art/cat.png"), .noIconSet(catalog: dest.path)])
        XCTAssertTrue(try String(contentsOf: catContents, encoding: .utf8).contains("Good cat"))
        XCTAssertEqual(try Data(contentsOf: pack.appendingPathComponent("keep.sticker/keep.png")), Data(png(4)))
        XCTAssertEqual(try folders(dest), ["cat.sticker", "dog.sticker", "keep.sticker"])
        // Upgraded: SHA-256 for ours as they are; the edited one keeps its old digest and stays edited.
        let digests = try recordedDigests(dest)
        XCTAssertEqual(digests["cat.sticker"], catDigest)
        XCTAssertEqual(digests["dog.sticker"]?.count, 64)
        XCTAssertEqual(digests["keep.sticker"]?.count, 64)
        let again = try StickerCatalog(gridSize: .regular, stickers: [sticker("cat", seed: 5), sticker("dog", seed: 1),
                                                                      sticker("keep", seed: 4)]).write(to: dest.path)
        XCTAssertEqual(again.entries.map(\.outcome), [.keptEdited, .unchanged, .unchanged])
        XCTAssertEqual(try recordedDigests(dest), digests)
    }

    func testNamesThatCollideIgnoringCaseGetANumberAndAreReported() throws {
        let dest = tmp.appendingPathComponent("C.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("first")]).write(to: dest.path)
        try handMade("Cat", in: dest, list: true)
        let changes = try StickerCatalog(gridSize: .regular, stickers: [
            sticker("cat", source: "a/cat.png"), sticker("CAT", source: "b/CAT.png"), sticker("a/b", source: "a:b.png"),
        ]).write(to: dest.path)
        let made = changes.entries.filter { $0.outcome == .added }.map(\.folder)
        XCTAssertEqual(Set(made), ["cat 2.sticker", "CAT 3.sticker", "a_b.sticker"])
        XCTAssertEqual(changes.renames.map(\.folder), ["cat 2.sticker", "CAT 3.sticker", "a_b.sticker"])
        XCTAssertEqual(changes.renames.map(\.takenBy), ["Cat.sticker", "Cat.sticker", nil])
        XCTAssertEqual(changes.renames[0].description, "packed as cat 2.sticker (the name cat is taken by Cat.sticker)")
        XCTAssertEqual(changes.renames[2].description, "packed as a_b.sticker (a folder name cannot hold /)")
        // Originals before their renamed duplicates, in natural order.
        XCTAssertEqual(try listed(dest), ["a_b.sticker", "cat 2.sticker", "CAT 3.sticker", "first.sticker", "Cat.sticker"])
    }

    func testASourceKeepsItsFolderAndAGoneSourceHandsItsNameOver() throws {
        let dest = tmp.appendingPathComponent("S.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("cat", source: "a/cat.png"), sticker("cat", seed: 1, source: "b/cat.png")])
            .write(to: dest.path)
        XCTAssertEqual(try folders(dest), ["cat 2.sticker", "cat.sticker"])
        // b/cat.png alone: it keeps "cat 2"; a/cat.png's sticker stays.
        let second = try StickerCatalog(gridSize: .regular, stickers: [sticker("cat", seed: 1, source: "b/cat.png")]).write(to: dest.path)
        XCTAssertEqual(second.entries.map(\.folder), ["cat.sticker", "cat 2.sticker"])
        XCTAssertEqual(second.entries.map(\.outcome), [.keptWithoutInput, .unchanged])
        XCTAssertEqual(second.renames, [])
        // A moved file (new source, same name) takes over the sticker whose source is gone.
        let moved = try StickerCatalog(gridSize: .regular, stickers: [sticker("cat", seed: 3, source: "c/cat.png"),
                                                                      sticker("cat", seed: 1, source: "b/cat.png")]).write(to: dest.path)
        XCTAssertEqual(moved.entries.map(\.folder), ["cat.sticker", "cat 2.sticker"])
        XCTAssertEqual(moved.entries.map(\.outcome), [.replaced, .unchanged])
        XCTAssertEqual(try folders(dest), ["cat 2.sticker", "cat.sticker"])
    }

    func testFailedSourcesKeepTheirStickersEvenWhenPruning() throws {
        let dest = tmp.appendingPathComponent("F.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a"), sticker("b", seed: 1)]).write(to: dest.path)
        var again = StickerCatalog(gridSize: .regular, stickers: [sticker("a")])
        again.failedSources = ["art/b.png"]
        let changes = try again.write(to: dest.path, options: .init(prune: true))
        XCTAssertEqual(changes.entries.map(\.outcome), [.unchanged, .keptInputFailed])
        XCTAssertEqual(try folders(dest), ["a.sticker", "b.sticker"])
    }

    func testOrderByRankThenNaturalOrder() throws {
        let dest = tmp.appendingPathComponent("O.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [
            sticker("sticker10"), sticker("sticker2", seed: 1), sticker("zeta", seed: 2, rank: 7), sticker("Alpha", seed: 3, rank: 9),
            sticker("sticker1", seed: 4),
        ]).write(to: dest.path)
        XCTAssertEqual(try listed(dest), ["zeta.sticker", "Alpha.sticker", "sticker1.sticker", "sticker2.sticker", "sticker10.sticker"])
    }

    func testAFileOrAFolderThatIsNotACatalogIsNeverReplacedUnlessAsked() throws {
        let file = tmp.appendingPathComponent("F.xcstickers")
        try Data("mine\n".utf8).write(to: file)
        let catalog = StickerCatalog(gridSize: .regular, stickers: [sticker("a")])
        XCTAssertThrowsError(try catalog.write(to: file.path)) { XCTAssertEqual($0 as? PackError, .notACatalog(path: file.path, isFile: true)) }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "mine\n")
        let folder = tmp.appendingPathComponent("D.xcstickers")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        XCTAssertThrowsError(try catalog.write(to: folder.path)) { XCTAssertEqual($0 as? PackError, .notACatalog(path: folder.path, isFile: false)) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["notes.txt"])
        // An empty folder holds nothing to lose; --overwrite replaces the others.
        let empty = tmp.appendingPathComponent("E.xcstickers")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertNoThrow(try catalog.write(to: empty.path))
        XCTAssertNoThrow(try catalog.write(to: file.path, options: .init(overwrite: true)))
        XCTAssertEqual(try folders(file), ["a.sticker"])
    }

    /// Every file of a catalog, by its path inside it.
    func tree(_ catalog: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let root = catalog.standardizedFileURL.path
        for case let url as URL in FileManager.default.enumerator(at: catalog, includingPropertiesForKeys: nil)! {
            let path = url.standardizedFileURL.path
            if !CatalogFiles.isFolder(url) { files[String(path.dropFirst(root.count))] = try Data(contentsOf: url) }
        }
        return files
    }

    func testStoredStickersAreWrittenAsTheSameBytesInMemoryMake() throws {
        let store = tmp.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let frames = (0..<3).map(png)
        let framePaths = try frames.enumerated().map { i, bytes in
            let url = store.appendingPathComponent("frame-\(i).png")
            try Data(bytes).write(to: url)
            return url.path
        }
        let single = store.appendingPathComponent("single.png")
        try Data(png(5)).write(to: single)
        func catalog(stored: Bool) -> StickerCatalog {
            StickerCatalog(gridSize: .regular, stickers: [
                CatalogSticker(name: "cat", label: "Cat", content: stored ? .storedFile(path: single.path, fileExtension: "png")
                                                                        : .file(bytes: png(5), fileExtension: "png"), source: "art/cat.png"),
                CatalogSticker(name: "wave", label: nil, content: stored ? .storedSequence(framePaths: framePaths, fps: 12, repetitions: 2)
                                                                         : .sequence(frames: frames, fps: 12, repetitions: 2), source: "art/wave"),
            ])
        }
        let inMemory = tmp.appendingPathComponent("M.xcstickers"), stored = tmp.appendingPathComponent("S.xcstickers")
        try catalog(stored: false).write(to: inMemory.path)
        let changes = try catalog(stored: true).write(to: stored.path)
        XCTAssertEqual(changes.count(.added), 2)
        XCTAssertEqual(try tree(stored), try tree(inMemory))
        // Written again from the files, the same stickers are unchanged (the same digests).
        let again = try catalog(stored: true).write(to: inMemory.path)
        XCTAssertEqual(again.count(.unchanged), 2)
        XCTAssertEqual(try tree(inMemory), try tree(stored))
    }

    func testAStoredStickerThatDoesNotReadLeavesTheCatalogAsItWas() throws {
        let dest = tmp.appendingPathComponent("R.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a")]).write(to: dest.path)
        let before = try tree(dest)
        let missing = tmp.appendingPathComponent("gone.png").path
        let lost = CatalogSticker(name: "b", label: nil, content: .storedFile(path: missing, fileExtension: "png"), source: "art/b.png")
        XCTAssertThrowsError(try StickerCatalog(gridSize: .regular, stickers: [sticker("a"), lost]).write(to: dest.path)) {
            guard case let .cannotReadSticker(path, _)? = $0 as? PackError else { return XCTFail("\($0)") }
            XCTAssertEqual(path, missing)
        }
        XCTAssertEqual(try tree(dest), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path).sorted(), ["R.xcstickers"])
    }

    func testAnUnreadablePackIsLeftAlone() throws {
        let dest = tmp.appendingPathComponent("U.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a")]).write(to: dest.path)
        let contents = dest.appendingPathComponent("Sticker Pack.stickerpack/Contents.json")
        try Data("{ not json".utf8).write(to: contents)
        XCTAssertThrowsError(try StickerCatalog(gridSize: .regular, stickers: [sticker("b")]).write(to: dest.path)) {
            XCTAssertEqual($0 as? PackError, .unreadableCatalogFile(path: contents.path, reason: "invalid JSON"))
        }
        XCTAssertEqual(try String(contentsOf: contents, encoding: .utf8), "{ not json")
    }

    func testAHandMadeIconSetIsReplacedOnlyWhenAsked() throws {
        let dest = tmp.appendingPathComponent("I.xcstickers")
        let icons = try IconSetFiles.render(Image(width: 8, height: 8), effort: .fast)
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a")], iconSet: icons).write(to: dest.path)
        // stickerkit's own set is replaced freely.
        XCTAssertNoThrow(try StickerCatalog(gridSize: .regular, stickers: [sticker("a")], iconSet: icons).write(to: dest.path))
        let set = dest.appendingPathComponent(StickerCatalog.iconSetFolderName)
        try Data(png()).write(to: set.appendingPathComponent("MyIcon@2x.png"))
        XCTAssertThrowsError(try StickerCatalog(gridSize: .regular, stickers: [sticker("a")], iconSet: icons).write(to: dest.path)) {
            XCTAssertEqual($0 as? PackError, .iconSetNotStickerkits(path: set.path, files: ["MyIcon@2x.png"]))
        }
        // Without an icon set given, it is kept as it is.
        XCTAssertNoThrow(try StickerCatalog(gridSize: .regular, stickers: [sticker("a")]).write(to: dest.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: set.appendingPathComponent("MyIcon@2x.png").path))
        XCTAssertNoThrow(try StickerCatalog(gridSize: .regular, stickers: [sticker("a")], iconSet: icons)
            .write(to: dest.path, options: .init(overwrite: true)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: set.appendingPathComponent("MyIcon@2x.png").path))
    }

    func testLeftoversOfAKilledWriteAreCleared() throws {
        let dest = tmp.appendingPathComponent("K.xcstickers")
        try StickerCatalog(gridSize: .regular, stickers: [sticker("a")]).write(to: dest.path)
        // A write killed between its two renames: the old catalog aside, none in place. PID 2^22+1
        // is above Linux's pid_max default and no running process.
        let aside = tmp.appendingPathComponent(".K.xcstickers.old-4194305-1")
        try FileManager.default.moveItem(at: dest, to: aside)
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent(".K.xcstickers.tmp-4194305-2"), withIntermediateDirectories: true)
        let changes = try StickerCatalog(gridSize: .regular, stickers: [sticker("b", seed: 1)]).write(to: dest.path)
        XCTAssertEqual(changes.entries.map(\.outcome), [.keptWithoutInput, .added], "the old catalog was put back, then updated")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["K.xcstickers"])
    }

    func testSafeName() {
        XCTAssertEqual(StickerNaming.safeName("a/b:c*d?e\"f<g>h|i\\j"), "a_b_c_d_e_f_g_h_i_j")
        XCTAssertEqual(StickerNaming.safeName("  ..hidden. "), "hidden")
        XCTAssertEqual(StickerNaming.safeName("tab\there"), "tab_here")
        XCTAssertEqual(StickerNaming.safeName("It's 日本 ok"), "It's 日本 ok")
        XCTAssertEqual(StickerNaming.safeName("..."), "sticker")
        XCTAssertEqual(StickerNaming.safeName("Teddy Bear \"Big\""), "Teddy Bear _Big_")
        // Decomposed "é" (e + U+0301) becomes the composed form.
        XCTAssertEqual(Array(StickerNaming.safeName("cafe\u{301}").unicodeScalars).map(\.value), [0x63, 0x61, 0x66, 0xE9])
        XCTAssertLessThanOrEqual(StickerNaming.safeName(String(repeating: "é", count: 300)).utf8.count, 200)
        XCTAssertEqual(CatalogRename.unsafe(in: "Teddy Bear \"Big\" a/b"), "\" /")
    }

    func testLabelFromFileName() {
        XCTAssertEqual(StickerNaming.label(fromFileName: "happy_cat-2"), "Happy cat 2")
        XCTAssertEqual(StickerNaming.label(fromFileName: "happy_cat-2.png"), "Happy cat 2")
        XCTAssertEqual(StickerNaming.label(fromFileName: "__big__ -- wave.gif"), "Big wave")
        XCTAssertEqual(StickerNaming.label(fromFileName: "élan"), "Élan")
        XCTAssertEqual(StickerNaming.label(fromFileName: "OK"), "OK")
    }

    func testNaturalOrder() {
        let names = ["sticker10", "b", "sticker2", "B", "a", "A", "é", "z", "cat 2", "cat", "x007", "x7", "x08", "v1.10", "v1.9"]
        XCTAssertEqual(names.sorted(by: StickerNaming.precedes),
                       ["A", "a", "B", "b", "cat", "cat 2", "sticker2", "sticker10", "v1.9", "v1.10", "x007", "x7", "x08", "z", "é"])
        // Runs longer than any integer still compare by value.
        XCTAssertTrue(StickerNaming.precedes("n99999999999999999999999", "n100000000000000000000000"))
    }

    func testCSVLabelsKeepTheirOrderLinesAndDuplicates() throws {
        let csv = "file,label\nhappy.png,\"Happy, very \"\"happy\"\"\"\nsad,Sad face\r\n\"multi.png\",\"two\nlines\"\nempty.png,\nHAPPY.png,again\n"
        let l = try StickerLabels(data: Array(csv.utf8), fileName: "labels.csv")
        XCTAssertEqual(l.rows.map(\.key), ["happy.png", "sad", "multi.png", "empty.png"])
        XCTAssertEqual(l.rows.map(\.line), [2, 3, 4, 6])
        XCTAssertEqual(l.duplicates, [.init(row: .init(key: "HAPPY.png", label: "again", line: 7), firstLine: 2)])
        XCTAssertEqual(l.label(for: "art/happy.png"), "Happy, very \"happy\"")
        XCTAssertEqual(l.label(for: "sad.gif"), "Sad face")
        XCTAssertEqual(l.label(for: "MULTI.PNG"), "two\nlines")
        XCTAssertNil(l.label(for: "empty.png"), "an empty label means the derived one")
        XCTAssertEqual(l.row(for: "empty.png")?.line, 6, "but the row still places the sticker")
        XCTAssertNil(l.label(for: "other.png"))
        XCTAssertTrue(l.matches(l.rows[1], "x/sad.png"))
        XCTAssertThrowsError(try StickerLabels(data: Array("a.png,\"open".utf8), fileName: "x.csv")) { e in
            XCTAssertEqual(e as? PackError, .labelsUnterminatedQuote(file: "x.csv"))
        }
        XCTAssertThrowsError(try StickerLabels(data: Array("a.png,A\nonlyone\n".utf8), fileName: "x.csv")) { e in
            XCTAssertEqual(e as? PackError, .labelsRowTooShort(file: "x.csv", line: 2, fields: 1))
            XCTAssertEqual("\(e)", "x.csv: line 2 has 1 field; expected file,label")
        }
    }

    func testJSONLabelsKeepTheirOrder() throws {
        let obj = try StickerLabels(data: Array(#"{"zeta.png": "Z", "cat.png": "A cat", "dög": "Ünïcode \"dog\" \ud83d\ude00"}"#.utf8), fileName: "l.json")
        XCTAssertEqual(obj.rows.map(\.key), ["zeta.png", "cat.png", "dög"])
        XCTAssertEqual(obj.label(for: "x/cat.png"), "A cat")
        XCTAssertEqual(obj.label(for: "dög.jpg"), "Ünïcode \"dog\" 😀")
        let arr = try StickerLabels(data: Array(#"[{"file": "cat.png", "label": "A cat"}, {"file": "a.png", "label": ""}]"#.utf8), fileName: "l.txt")
        XCTAssertEqual(arr.rows.map(\.key), ["cat.png", "a.png"])
        XCTAssertEqual(arr.label(for: "cat.png"), "A cat")
        for bad in [#"{"a": 1}"#, #"{"a": "x",}"#, #"{"a": "\x"}"#, #"{"a": "x"} tail"#] {
            XCTAssertThrowsError(try StickerLabels(data: Array(bad.utf8), fileName: "l.json"), bad) { e in
                XCTAssertEqual(e as? PackError, .labelsNotAMapping(file: "l.json"))
            }
        }
    }
}
