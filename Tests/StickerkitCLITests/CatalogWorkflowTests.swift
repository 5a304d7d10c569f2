import Foundation
import XCTest

/// What a developer does with a sticker catalog over a week, through the built binary: pack artwork
/// into a new catalog with icons and labels; add a hand-made sticker in the catalog; add artwork and
/// pack again without --icon; rename an input; pack with --prune. After every step the catalog is
/// complete, nothing stickerkit did not make is lost, and `check` on it exits 0.
final class CatalogWorkflowTests: XCTestCase {
    var tmp: URL!
    let fm = FileManager.default
    var samples: URL { CLI.repositoryRoot.appendingPathComponent("samples") }

    override func setUpWithError() throws { tmp = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? fm.removeItem(at: tmp) }

    func copy(_ sample: String, to dest: URL) throws {
        try fm.createDirectory(at: dest.deletingLastPathComponent(), withIntermediateDirectories: true)
        try fm.copyItem(at: samples.appendingPathComponent(sample), to: dest)
    }

    func json(_ url: URL) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any], url.path)
    }

    /// The pack's stickers in Contents.json order.
    func listed(_ catalog: URL) throws -> [String] {
        let pack = try json(catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json"))
        return (pack["stickers"] as? [[String: String]] ?? []).compactMap { $0["filename"] }
    }

    /// `art/` holding `files` (name → sample), packed into `S.xcstickers`; the art folder and
    /// the catalog.
    func packed(_ files: KeyValuePairs<String, String>) throws -> (art: URL, catalog: URL) {
        let art = tmp.appendingPathComponent("art")
        for (name, sample) in files { try copy(sample, to: art.appendingPathComponent(name)) }
        let catalog = tmp.appendingPathComponent("S.xcstickers")
        XCTAssertEqual(try CLI.run(["pack", art.path, "-o", catalog.path, "-q"]).status, 0)
        return (art, catalog)
    }

    /// Writes the pack's Contents.json listing `folders`, as Xcode does after a change.
    func list(_ folders: [String], in catalog: URL) throws {
        let contents = catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json")
        var pack = try json(contents)
        pack["stickers"] = folders.map { ["filename": $0] }
        try JSONSerialization.data(withJSONObject: pack, options: [.prettyPrinted]).write(to: contents)
    }

    func label(_ catalog: URL, _ folder: String) throws -> String? {
        let c = try json(catalog.appendingPathComponent("Sticker Pack.stickerpack/\(folder)/Contents.json"))
        return (c["properties"] as? [String: Any])?["accessibility-label"] as? String
    }

    /// Every file under `dir` with its bytes.
    func snapshot(_ dir: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = fm.enumerator(atPath: dir.path)
        while let rel = walker?.nextObject() as? String {
            var isDir: ObjCBool = false
            let path = dir.appendingPathComponent(rel).path
            if fm.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue { out[rel] = try Data(contentsOf: URL(fileURLWithPath: path)) }
        }
        return out
    }

    /// `check` passes, every listed sticker is there, and the hand-made things are intact.
    func assertComplete(_ catalog: URL, stickers: [String], kept: [String: Data], step: String,
                        file: StaticString = #filePath, line: UInt = #line) throws {
        let c = try CLI.run(["check", catalog.path])
        XCTAssertEqual(c.status, 0, "\(step): check\n\(c.stdout)\(c.stderr)", file: file, line: line)
        XCTAssertEqual(try listed(catalog), stickers, step, file: file, line: line)
        let now = try snapshot(catalog)
        for (rel, bytes) in kept {
            XCTAssertEqual(now[rel], bytes, "\(step): \(rel) changed or lost", file: file, line: line)
        }
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: catalog.deletingLastPathComponent().path).filter { $0.hasPrefix(".") }, [],
                       "\(step): nothing left beside the catalog", file: file, line: line)
    }

    func testDryRunSaysWhatAnUpdateWouldDoAndChangesNothing() throws {
        let cache = tmp.appendingPathComponent("cache")
        let art = tmp.appendingPathComponent("art")
        let catalog = tmp.appendingPathComponent("S.xcstickers")
        try copy("oc_teddybear.png", to: art.appendingPathComponent("teddy.png"))
        try copy("ring_200_6f.webp", to: art.appendingPathComponent("ring.webp"))
        try copy("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let args = ["pack", art.path, "-o", catalog.path, "--cache", cache.path]

        let first = try CLI.run(args + ["--dry-run"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let pack = catalog.path + "/Sticker Pack.stickerpack"
        XCTAssertEqual(first.stdout, ["ring", "sax", "teddy"].map { "\(pack)/\($0).sticker: would be added (from art/\($0).\($0 == "ring" ? "webp" : "png"))\n" }.joined())
        XCTAssertTrue(first.stderr.contains("dry run: \(catalog.path): 3 stickers (regular): 3 added, 0 replaced, 0 unchanged; 3 files (3 converted, 0 up to date); the catalog was not changed"), first.stderr)
        XCTAssertFalse(fm.fileExists(atPath: catalog.path), "a dry run created the catalog")
        // The conversions went to the cache: the run itself converts nothing.
        let made = try CLI.run(args)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stdout.contains("(0 converted, 3 up to date)"), made.stdout)

        // teddy's sticker edited in Xcode, ring's artwork deleted, sax's redrawn, a new one.
        try Data(contentsOf: samples.appendingPathComponent("oc_stop_sign_shadow.png"))
            .write(to: URL(fileURLWithPath: pack + "/teddy.sticker/teddy.png"))
        try fm.removeItem(at: art.appendingPathComponent("ring.webp"))
        try fm.removeItem(at: art.appendingPathComponent("sax.png"))
        try copy("oc_stop_sign_shadow.png", to: art.appendingPathComponent("sax.png"))
        try copy("noto_1f600_grinning_face_512.png", to: art.appendingPathComponent("new.png"))
        try copy("cogs_small_transparent.gif", to: tmp.appendingPathComponent("icon.gif"))
        let before = try snapshot(catalog)
        let dry = try CLI.run(args + ["--prune", "--icon", tmp.appendingPathComponent("icon.gif").path, "--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertEqual(dry.stdout.split(separator: "\n").map(String.init), [
            "\(pack)/new.sticker: would be added (from art/new.png)",
            "\(pack)/sax.sticker: would be replaced (made again from art/sax.png)",
            "\(pack)/teddy.sticker: would be kept: edited since stickerkit made it (--overwrite replaces it)",
            "\(pack)/ring.sticker: would be removed (--prune): made from art/ring.webp, an input not given this time",
            "\(catalog.path)/iMessage App Icon.stickersiconset: would be written",
        ])
        XCTAssertTrue(dry.stderr.contains("3 stickers (regular): 1 added, 1 replaced, 0 unchanged, 1 removed, 1 kept from earlier runs"), dry.stderr)
        XCTAssertEqual(try snapshot(catalog), before, "a dry run changed the catalog")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix(".") }, [], "nothing left beside the catalog")

        // Without --prune ring's sticker stays; the run does what the dry run said.
        let kept = try CLI.run(args + ["--dry-run"])
        XCTAssertTrue(kept.stdout.contains("\(pack)/ring.sticker: would be kept: made from art/ring.webp, an input not given this time (--prune removes it)"),
                      kept.stdout)
        XCTAssertEqual(try CLI.run(args + ["--prune", "--icon", tmp.appendingPathComponent("icon.gif").path]).status, 0)
        XCTAssertEqual(try listed(catalog), ["new.sticker", "sax.sticker", "teddy.sticker"])
        XCTAssertEqual(try CLI.run(args + ["--dry-run", "--report", tmp.appendingPathComponent("r.json").path]).status, 2)
    }

    func testAWeekWithACatalog() throws {
        let project = tmp.appendingPathComponent("App")
        let art = project.appendingPathComponent("art")
        let catalog = project.appendingPathComponent("Stickers.xcstickers")
        let cache = tmp.appendingPathComponent("cache")
        try copy("oc_teddybear.png", to: art.appendingPathComponent("Teddy Bear \"Big\".png"))
        try copy("ring_200_6f.webp", to: art.appendingPathComponent("sticker10.webp"))
        try copy("noto_1f600_grinning_face_512.png", to: art.appendingPathComponent("sticker2.png"))
        try copy("oc_stop_sign_shadow.png", to: art.appendingPathComponent("cat.png"))
        for i in 1...3 { try copy("oc_saxophone_palette.png", to: art.appendingPathComponent("wave.frames/wave_\(i).png")) }
        let labels = project.appendingPathComponent("labels.csv")
        try Data("file,label\ncat.png,A cat that stops\nsticker10.webp,Ring\nwave,\nnobody.png,Nobody\n".utf8).write(to: labels)
        try copy("noto_1f600_grinning_face_512.png", to: tmp.appendingPathComponent("logo.png"))
        let common = ["-o", catalog.path, "--size", "regular", "--labels", labels.path, "--cache", cache.path, "--sequences", "--fps", "12"]

        // Monday: a new catalog with icons and labels.
        let report = tmp.appendingPathComponent("monday.json")
        let monday = try CLI.run(["pack", art.path] + common + ["--icon", tmp.appendingPathComponent("logo.png").path, "--report", report.path])
        XCTAssertEqual(monday.status, 0, monday.stderr)
        // Not a terminal, yet the warnings are on stderr and in the report: the rename, the labels row
        // that matches nothing, the stickers without a row, the small icon source.
        for expected in ["Teddy Bear \"Big\".png: warning: packed as Teddy Bear _Big_.sticker (a folder name cannot hold \")",
                         "labels.csv: warning: line 5: nobody.png matches no input",
                         "labels.csv: warning: no row for Teddy Bear \"Big\".png, sticker2.png",
                         "logo.png: warning: source is 512×512: icons are enlarged up to 2.0×"] {
            XCTAssertTrue(monday.stderr.contains(expected), "stderr lacks \(expected):\n\(monday.stderr)")
        }
        let mondayReport = try json(report)
        XCTAssertEqual((mondayReport["warnings"] as? [String])?.count, monday.stderr.split(separator: "\n").count)
        let summary = try XCTUnwrap(mondayReport["summary"] as? [String: Any])
        XCTAssertEqual(summary["frameFolders"] as? Int, 1)
        XCTAssertEqual(summary["converted"] as? Int, 5, "four files and the frame folder")
        XCTAssertTrue(monday.stdout.contains("5 stickers (regular): 5 added"), monday.stdout)
        // Labels file order first, then natural order; the empty label is the derived one.
        let week1 = ["cat.sticker", "sticker10.sticker", "wave.stickersequence", "sticker2.sticker", "Teddy Bear _Big_.sticker"]
        try assertComplete(catalog, stickers: week1, kept: [:], step: "monday")
        XCTAssertEqual(try label(catalog, "cat.sticker"), "A cat that stops")
        XCTAssertEqual(try label(catalog, "wave.stickersequence"), "Wave")
        XCTAssertEqual(try label(catalog, "Teddy Bear _Big_.sticker"), "Teddy Bear \"Big\"")
        let icons = try snapshot(catalog.appendingPathComponent("iMessage App Icon.stickersiconset"))
        XCTAssertEqual(icons.keys.filter { $0.hasSuffix(".png") }.count, 13)
        XCTAssertTrue(fm.fileExists(atPath: catalog.appendingPathComponent(".stickerkit.json").path))

        // Tuesday: a hand-made sticker, added in Xcode (listed at the end), and a note in the catalog.
        let hand = catalog.appendingPathComponent("Sticker Pack.stickerpack/Hand Made.sticker")
        XCTAssertEqual(try CLI.run(["resize", samples.appendingPathComponent("oc_saxophone_palette.png").path,
                                    "-o", tmp.appendingPathComponent("sax").path]).status, 0)
        try fm.createDirectory(at: hand, withIntermediateDirectories: true)
        try fm.copyItem(at: tmp.appendingPathComponent("sax/oc_saxophone_palette.png"), to: hand.appendingPathComponent("sax.png"))
        try Data(#"{"info":{"author":"xcode","version":1},"properties":{"accessibility-label":"Saxophone","filename":"sax.png"}}"#.utf8)
            .write(to: hand.appendingPathComponent("Contents.json"))
        let packJSON = catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json")
        var pack = try json(packJSON)
        pack["stickers"] = (pack["stickers"] as! [[String: String]]) + [["filename": "Hand Made.sticker"]]
        try JSONSerialization.data(withJSONObject: pack).write(to: packJSON)
        try Data("Ask Sam before changing the stickers.\n".utf8).write(to: catalog.appendingPathComponent("README.md"))
        var kept = try snapshot(hand).reduce(into: [String: Data]()) { $0["Sticker Pack.stickerpack/Hand Made.sticker/" + $1.key] = $1.value }
        kept["README.md"] = try Data(contentsOf: catalog.appendingPathComponent("README.md"))
        for (rel, bytes) in icons { kept["iMessage App Icon.stickersiconset/" + rel] = bytes }
        try assertComplete(catalog, stickers: week1 + ["Hand Made.sticker"], kept: kept, step: "tuesday")

        // Wednesday: more artwork, packed without --icon: added; the hand-made sticker, the note and
        // the icon set stay; only the new file is converted.
        try copy("maneki_neko_palette_3f.apng", to: art.appendingPathComponent("sticker1.png"))
        let wednesday = try CLI.run(["pack", art.path] + common)
        XCTAssertEqual(wednesday.status, 0, wednesday.stderr)
        XCTAssertTrue(wednesday.stdout.contains("7 stickers (regular): 1 added, 0 replaced, 5 unchanged, 1 hand-made kept"), wednesday.stdout)
        XCTAssertTrue(wednesday.stdout.contains("(1 converted, 5 up to date)"), wednesday.stdout)
        let week3 = ["cat.sticker", "sticker10.sticker", "wave.stickersequence", "sticker1.sticker", "sticker2.sticker",
                     "Teddy Bear _Big_.sticker", "Hand Made.sticker"]
        try assertComplete(catalog, stickers: week3, kept: kept, step: "wednesday")

        // Thursday: an input renamed. The new name is packed; the old sticker stays until pruned.
        try fm.moveItem(at: art.appendingPathComponent("sticker2.png"), to: art.appendingPathComponent("grin.png"))
        let thursday = try CLI.run(["pack", art.path] + common)
        XCTAssertEqual(thursday.status, 0, thursday.stderr)
        XCTAssertTrue(thursday.stderr.contains("sticker2.sticker: made by stickerkit from inputs not given this time; kept (--prune removes it)"),
                      thursday.stderr)
        let week4 = ["cat.sticker", "sticker10.sticker", "wave.stickersequence", "grin.sticker", "sticker1.sticker", "sticker2.sticker",
                     "Teddy Bear _Big_.sticker", "Hand Made.sticker"]
        try assertComplete(catalog, stickers: week4, kept: kept, step: "thursday")

        // Friday: pruned. Only the sticker of the renamed input goes.
        let friday = try CLI.run(["pack", art.path] + common + ["--prune"])
        XCTAssertEqual(friday.status, 0, friday.stderr)
        XCTAssertTrue(friday.stdout.contains("1 removed"), friday.stdout)
        XCTAssertFalse(fm.fileExists(atPath: catalog.appendingPathComponent("Sticker Pack.stickerpack/sticker2.sticker").path))
        try assertComplete(catalog, stickers: week4.filter { $0 != "sticker2.sticker" }, kept: kept, step: "friday")
        // The cache holds this week's inputs only; the project holds no cache.
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".png") }.count, 5)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: project.path).sorted(), ["Stickers.xcstickers", "art", "labels.csv"])
    }

    func testTheDefaultCacheIsInTheUsersCacheFolderNotTheProject() throws {
        let project = tmp.appendingPathComponent("App")
        try copy("oc_teddybear.png", to: project.appendingPathComponent("art/bear.png"))
        let home = tmp.appendingPathComponent("home")
        let catalog = project.appendingPathComponent("S.xcstickers")
        let env = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
        XCTAssertEqual(try CLI.run(["pack", project.appendingPathComponent("art").path, "-o", catalog.path, "--quiet"], environment: env).status, 0)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: project.path).sorted(), ["S.xcstickers", "art"])
        let catalogs = home.appendingPathComponent(".cache/stickerkit/catalogs")
        let entries = try fm.contentsOfDirectory(atPath: catalogs.path)
        XCTAssertEqual(entries.count, 1)
        XCTAssertTrue(entries[0].hasPrefix("S.xcstickers-"), entries[0])
        // XDG_CACHE_HOME wins when set.
        let xdg = tmp.appendingPathComponent("xdg")
        var env2 = env
        env2["XDG_CACHE_HOME"] = xdg.path
        XCTAssertEqual(try CLI.run(["pack", project.appendingPathComponent("art").path, "-o", catalog.path, "--quiet"], environment: env2).status, 0)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: xdg.appendingPathComponent("stickerkit/catalogs").path).count, 1)
    }

    func testCatalogsAndTheCacheAreNeverReadAsInput() throws {
        let art = tmp.appendingPathComponent("art")
        try copy("oc_teddybear.png", to: art.appendingPathComponent("bear.png"))
        let catalog = art.appendingPathComponent("Inside.xcstickers")
        let cache = art.appendingPathComponent("cache")
        let args = ["pack", art.path, "-o", catalog.path, "--cache", cache.path, "--frame-folders", "--sequences"]
        XCTAssertEqual(try CLI.run(args).status, 0)
        // A second catalog with a sequence inside the art folder: its frames are numbered files.
        try copy("oc_teddybear.png", to: art.appendingPathComponent("waves/w1.png"))
        try copy("oc_teddybear.png", to: art.appendingPathComponent("waves/w2.png"))
        XCTAssertEqual(try CLI.run(["pack", art.appendingPathComponent("waves").path, "-o", art.appendingPathComponent("Other.xcstickers").path,
                                    "--cache", tmp.appendingPathComponent("c2").path, "--sequences"]).status, 0)
        let again = try CLI.run(args + [art.appendingPathComponent("Other.xcstickers").path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stderr.contains("Other.xcstickers: warning: a sticker catalog is never read as artwork; skipped"), again.stderr)
        XCTAssertEqual(try listed(catalog), ["bear.sticker", "waves.stickersequence"], "nothing from the catalogs or the cache")
    }

    func testAFrameFolderWithAFrameOfAnotherSizeFailsWithOneLine() throws {
        let art = tmp.appendingPathComponent("art")
        try copy("oc_teddybear.png", to: art.appendingPathComponent("waves/w1.png"))
        try copy("oc_teddybear.png", to: art.appendingPathComponent("waves/w2.png"))
        try copy("oc_saxophone_palette.png", to: art.appendingPathComponent("waves/w3.png"))
        try assertFrameFolderFails(art, saying: "waves: error: frame w3.png is 563×1052, the first frame is 744×1052")
    }

    /// `pack` of `art` as frame folders and as sequences: exit 1, `line` on stderr, no sticker.
    func assertFrameFolderFails(_ art: URL, saying line: String, file: StaticString = #filePath, lineNumber: UInt = #line) throws {
        for mode in ["--frame-folders", "--sequences"] {
            let catalog = tmp.appendingPathComponent("P\(mode).xcstickers")
            let r = try CLI.run(["pack", art.path, "-o", catalog.path, "--cache", tmp.appendingPathComponent("c").path, mode])
            XCTAssertEqual(r.status, 1, r.stderr, file: file, line: lineNumber)
            XCTAssertTrue(r.stderr.contains(line), r.stderr, file: file, line: lineNumber)
            XCTAssertEqual(try listed(catalog), [], mode, file: file, line: lineNumber)
        }
    }

    /// A frame too large to hold (a PNG followed by 300 MB of zeros, sparse) is refused from its
    /// size, as any input is, in one line naming it: it was read whole and converted.
    func testAFrameTooLargeToHoldIsRefusedFromItsSize() throws {
        let art = tmp.appendingPathComponent("art")
        try copy("oc_teddybear.png", to: art.appendingPathComponent("waves/w1.png"))
        try copy("oc_teddybear.png", to: art.appendingPathComponent("waves/w2.png"))
        let handle = try FileHandle(forWritingTo: art.appendingPathComponent("waves/w2.png"))
        try handle.truncate(atOffset: 300_000_000)
        try handle.close()
        try assertFrameFolderFails(art, saying: "waves: error: w2.png: PNG: converting this 300 MB file needs at least")
    }

    func testPathErrorsAreOneLineAndTouchNothing() throws {
        try copy("oc_teddybear.png", to: tmp.appendingPathComponent("art/bear.png"))
        let art = tmp.appendingPathComponent("art").path
        let file = tmp.appendingPathComponent("F.xcstickers")
        try Data("mine\n".utf8).write(to: file)
        let folder = tmp.appendingPathComponent("D.xcstickers")
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let bad = tmp.appendingPathComponent("bad.csv")
        try Data("a.png,\"open\n".utf8).write(to: bad)
        // A catalog whose record a merge left conflict markers in: found before any work, exit 2.
        let conflicted = tmp.appendingPathComponent("C.xcstickers")
        try fm.createDirectory(at: conflicted, withIntermediateDirectories: true)
        let record = conflicted.appendingPathComponent(".stickerkit.json")
        try Data("<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> other\n".utf8).write(to: record)
        let cases: [([String], String)] = [
            (["pack", art, "-o", file.path], "\(file.path): error: is a file; pack writes only into catalogs (--overwrite replaces it)"),
            (["pack", art, "-o", folder.path], "\(folder.path): error: is a folder but not a sticker catalog; pack writes only into catalogs (--overwrite replaces it)"),
            (["pack", art, "-o", tmp.appendingPathComponent("N.xcstickers").path, "--labels", tmp.appendingPathComponent("none.csv").path],
             "\(tmp.appendingPathComponent("none.csv").path): error: no such file or folder"),
            (["pack", art, "-o", tmp.appendingPathComponent("N.xcstickers").path, "--labels", bad.path], "\(bad.path): error: unterminated quoted field"),
            (["icons", "\(art)/bear.png", "-o", file.path], "\(file.path): error: -o: is a file, not a folder"),
            (["preview", "\(art)/bear.png", "-o", file.path], "\(file.path): error: -o: is a file, not a folder"),
            (["pack", art, "-o", conflicted.path],
             "\(record.path): error: invalid JSON; fix it, or pack with --overwrite to replace the whole catalog"),
        ]
        for (args, line) in cases {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertEqual(r.stderr, line + "\n", "\(args)")
        }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "mine\n")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: folder.path), ["notes.txt"])
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: conflicted.path), [".stickerkit.json"])
        XCTAssertFalse(fm.fileExists(atPath: tmp.appendingPathComponent("N.xcstickers").path))
        let missing = try CLI.run(["icons", "\(art)/nope.png", "-o", tmp.appendingPathComponent("icons").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "\(art)/nope.png: error: no such file or folder\n")
    }

    /// A sticker folder renamed in Xcode (the folder and its Contents.json listing; the image
    /// inside keeps its name) was taken for a hand-made sticker: the rerun packed the same artwork
    /// again under its own name, and the pack showed the sticker twice. It is stickerkit's sticker
    /// under its new name now, on that rerun and every one after, and follows its artwork; it
    /// stays where it was in the pack (the pack's order is no longer natural order: kept).
    func testAStickerRenamedInXcodeKeepsItsNewName() throws {
        let (art, catalog) = try packed(["teddy.png": "oc_teddybear.png", "sax.png": "oc_saxophone_palette.png",
                                         "stop.png": "oc_stop_sign_shadow.png"])
        let pack = catalog.appendingPathComponent("Sticker Pack.stickerpack")
        try fm.moveItem(at: pack.appendingPathComponent("teddy.sticker"), to: pack.appendingPathComponent("Bear.sticker"))
        try list(["sax.sticker", "stop.sticker", "Bear.sticker"], in: catalog)
        for run in 1...2 {
            let r = try CLI.run(["pack", art.path, "-o", catalog.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("3 stickers (regular): 0 added"), "run \(run): \(r.stdout)")
            XCTAssertEqual(try listed(catalog), ["sax.sticker", "stop.sticker", "Bear.sticker"], "run \(run)")
            XCTAssertFalse(fm.fileExists(atPath: pack.appendingPathComponent("teddy.sticker").path), "run \(run)")
        }
        // New artwork for the source: the renamed folder gets it.
        try fm.removeItem(at: art.appendingPathComponent("teddy.png"))
        try copy("noto_1f600_grinning_face_512.png", to: art.appendingPathComponent("teddy.png"))
        let r = try CLI.run(["pack", art.path, "-o", catalog.path])
        XCTAssertTrue(r.stdout.contains("0 added, 1 replaced"), r.stdout)
        XCTAssertEqual(try listed(catalog), ["sax.sticker", "stop.sticker", "Bear.sticker"])
        XCTAssertEqual(try CLI.run(["check", catalog.path]).status, 0)
    }

    /// A sticker deleted in Xcode came back on the next `pack` from its artwork without a word.
    /// It still comes back (the artwork was given), with a warning saying how to keep it out.
    func testAStickerDeletedInXcodeComesBackWithAWarning() throws {
        let (art, catalog) = try packed(["bear.png": "oc_teddybear.png", "stop.png": "oc_stop_sign_shadow.png"])
        try fm.removeItem(at: catalog.appendingPathComponent("Sticker Pack.stickerpack/bear.sticker"))
        try list(["stop.sticker"], in: catalog)
        let r = try CLI.run(["pack", art.path, "-o", catalog.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: bear.sticker, made from art/bear.png, was removed from the catalog since; added again "
                                        + "(leave art/bear.png out of the inputs to keep it out)"), r.stderr)
        XCTAssertEqual(try listed(catalog), ["bear.sticker", "stop.sticker"])
        let again = try CLI.run(["pack", art.path, "-o", catalog.path])
        XCTAssertFalse(again.stderr.contains("removed"), again.stderr)
    }

    /// Without --size, `pack` made every catalog regular: a large one was converted again at
    /// 408 px with a warning, and a grid size set in Xcode was undone. It keeps the catalog's
    /// grid size now; --size still changes it, and a new catalog is regular.
    func testPackKeepsTheCatalogsGridSizeUnlessToldOtherwise() throws {
        let (art, catalog) = try packed(["bear.png": "oc_teddybear.png", "stop.png": "oc_stop_sign_shadow.png"])
        XCTAssertTrue(try String(contentsOf: catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json"), encoding: .utf8)
            .contains("\"regular\""))
        XCTAssertEqual(try CLI.run(["pack", art.path, "-o", catalog.path, "--size", "large", "-q"]).status, 0)
        let kept = try CLI.run(["pack", art.path, "-o", catalog.path])
        XCTAssertTrue(kept.stdout.contains("2 stickers (large): 0 added, 0 replaced, 2 unchanged"), kept.stdout)
        XCTAssertFalse(kept.stderr.contains("grid size changed"), kept.stderr)
        // Xcode's grid size.
        try list(["bear.sticker", "stop.sticker"], in: catalog)
        let contents = catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json")
        var pack = try json(contents)
        pack["properties"] = ["grid-size": "small"]
        try JSONSerialization.data(withJSONObject: pack, options: [.prettyPrinted]).write(to: contents)
        let small = try CLI.run(["pack", art.path, "-o", catalog.path])
        XCTAssertTrue(small.stdout.contains("2 stickers (small)"), small.stdout)
        XCTAssertEqual(try CLI.run(["check", catalog.path]).status, 0)
        let told = try CLI.run(["pack", art.path, "-o", catalog.path, "--size", "regular"])
        XCTAssertTrue(told.stderr.contains("grid size changed from small to regular"), told.stderr)
    }

    /// Stickers reordered in Xcode went back to natural order on the next `pack`, and its
    /// summary still said every sticker was unchanged. The hand order is kept now, a new sticker
    /// follows it (named in a warning), and `--labels` still sets the order.
    func testAnOrderSetInXcodeIsKept() throws {
        let (art, catalog) = try packed(["b.png": "oc_teddybear.png", "c.png": "oc_saxophone_palette.png", "d.png": "oc_stop_sign_shadow.png"])
        XCTAssertEqual(try listed(catalog), ["b.sticker", "c.sticker", "d.sticker"])
        // Xcode writes the pack's Contents.json in the new order.
        try list(["d.sticker", "b.sticker", "c.sticker"], in: catalog)
        let again = try CLI.run(["pack", art.path, "-o", catalog.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stderr.contains("order"), again.stderr)
        XCTAssertEqual(try listed(catalog), ["d.sticker", "b.sticker", "c.sticker"])
        try copy("noto_1f600_grinning_face_512.png", to: art.appendingPathComponent("a.png"))
        let added = try CLI.run(["pack", art.path, "-o", catalog.path])
        XCTAssertEqual(try listed(catalog), ["d.sticker", "b.sticker", "c.sticker", "a.sticker"])
        XCTAssertTrue(added.stderr.contains("warning: the pack's order was set by hand (in Xcode, or by an earlier --labels): kept, "
                                            + "and a.sticker follows it (--labels sets the order)"), added.stderr)
        let labels = tmp.appendingPathComponent("labels.csv")
        try Data("file,label\nc.png,C\na.png,A\nb.png,B\nd.png,D\n".utf8).write(to: labels)
        XCTAssertEqual(try CLI.run(["pack", art.path, "-o", catalog.path, "--labels", labels.path]).status, 0)
        XCTAssertEqual(try listed(catalog), ["c.sticker", "a.sticker", "b.sticker", "d.sticker"])
    }

    /// A rerun with the same --icon says the icon set is unchanged, as it says the stickers are;
    /// another icon is written.
    func testARerunWithTheSameIconSaysTheIconSetIsUnchanged() throws {
        let art = tmp.appendingPathComponent("art")
        try copy("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let catalog = tmp.appendingPathComponent("S.xcstickers").path
        func pack(_ icon: String) throws -> String {
            let r = try CLI.run(["pack", art.path, "-o", catalog, "--icon", samples.appendingPathComponent(icon).path])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        XCTAssertTrue(try pack("oc_teddybear.png").hasSuffix("; icon set written\n"))
        XCTAssertTrue(try pack("oc_teddybear.png").hasSuffix("1 unchanged; 1 file (0 converted, 1 up to date); icon set unchanged\n"))
        XCTAssertTrue(try pack("oc_stop_sign_shadow.png").hasSuffix("; icon set written\n"))
    }

    /// `icons` again with the same image says the set is unchanged and leaves its files as they
    /// were (not rewritten); another image writes the set anew.
    func testIconsAgainWithTheSameImageLeaveTheSetAsItIs() throws {
        let out = tmp.appendingPathComponent("out")
        let set = out.appendingPathComponent("iMessage App Icon.stickersiconset")
        let icon = samples.appendingPathComponent("oc_teddybear.png").path
        var r = try CLI.run(["icons", icon, "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("13 icons written to"), r.stdout)
        let before = try snapshot(set)
        let inode = try fm.attributesOfItem(atPath: set.appendingPathComponent("Contents.json").path)[.systemFileNumber] as? Int
        r = try CLI.run(["icons", icon, "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "icon set unchanged: \(set.path)\n")
        XCTAssertEqual(try snapshot(set), before)
        XCTAssertEqual(try fm.attributesOfItem(atPath: set.appendingPathComponent("Contents.json").path)[.systemFileNumber] as? Int,
                       inode, "not written again")
        r = try CLI.run(["icons", samples.appendingPathComponent("oc_stop_sign_shadow.png").path, "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("13 icons written to"), r.stdout)
        XCTAssertNotEqual(try snapshot(set), before)
    }

    /// `icons -o New.xcstickers` makes a catalog Xcode opens, built whole beside its place and
    /// renamed into it: its root Contents.json as `pack` writes it, beside the icon set; `pack`
    /// then adds stickers to it, keeping the set, and `check` passes it. A folder that was there before gets no Contents.json it did not have.
    func testIconsIntoANewCatalogMakeACatalog() throws {
        let art = tmp.appendingPathComponent("art")
        try copy("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let catalog = tmp.appendingPathComponent("New.xcstickers")
        let icon = samples.appendingPathComponent("oc_teddybear.png").path
        var r = try CLI.run(["icons", icon, "-o", catalog.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let info = try json(catalog.appendingPathComponent("Contents.json"))["info"] as? [String: Any]
        XCTAssertEqual(info?["author"] as? String, "xcode")
        XCTAssertEqual(info?["version"] as? Int, 1)
        let set = try snapshot(catalog.appendingPathComponent("iMessage App Icon.stickersiconset"))
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp.path).sorted(), ["New.xcstickers", "art"],
                       "nothing left beside the catalog")
        r = try CLI.run(["pack", art.path, "-o", catalog.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try listed(catalog), ["sax.sticker"])
        XCTAssertEqual(try snapshot(catalog.appendingPathComponent("iMessage App Icon.stickersiconset")), set)
        XCTAssertEqual(try CLI.run(["check", catalog.path]).status, 0)

        let existing = tmp.appendingPathComponent("Mine.xcstickers")
        try fm.createDirectory(at: existing, withIntermediateDirectories: false)
        r = try CLI.run(["icons", icon, "-o", existing.path, "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: existing.path), ["iMessage App Icon.stickersiconset"])
    }

    func testPreviewRemovesOnlyItsOwnStaleFiles() throws {
        let stickers = tmp.appendingPathComponent("stickers")
        XCTAssertEqual(try CLI.run(["resize", samples.appendingPathComponent("oc_teddybear.png").path,
                                    samples.appendingPathComponent("ring_200_6f.webp").path, "-o", stickers.path, "--size", "small"]).status, 0)
        let out = tmp.appendingPathComponent("preview")
        XCTAssertEqual(try CLI.run(["preview", stickers.path, "-o", out.path, "--png"]).status, 0)
        try Data("mine\n".utf8).write(to: out.appendingPathComponent("stickers/notes.txt"))
        try fm.removeItem(at: stickers.appendingPathComponent("ring_200_6f.png"))
        let r = try CLI.run(["preview", stickers.path, "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: out.appendingPathComponent("stickers").path).sorted(), ["001-oc_teddybear.png", "notes.txt"])
        XCTAssertFalse(fm.fileExists(atPath: out.appendingPathComponent("contact-sheet.png").path), "not asked for this time")
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<title>Stickers: stickers</title>"))
    }

    /// A catalog sticker that cannot be read is named on one line and shown by its report; the
    /// others are still shown and copied, and the exit status says one failed. (`preview` reads
    /// each sticker when it shows it, not all of them first.)
    func testPreviewShowsTheOthersWhenAStickerCannotBeRead() throws {
        let art = tmp.appendingPathComponent("art")
        try copy("oc_teddybear.png", to: art.appendingPathComponent("oc_teddybear.png"))
        try copy("ring_200_6f.webp", to: art.appendingPathComponent("ring_200_6f.webp"))
        let catalog = tmp.appendingPathComponent("S.xcstickers")
        XCTAssertEqual(try CLI.run(["pack", art.path, "-o", catalog.path, "--quiet"]).status, 0)
        let bear = catalog.appendingPathComponent("Sticker Pack.stickerpack/oc_teddybear.sticker/oc_teddybear.png")
        try fm.removeItem(at: bear)
        try fm.createDirectory(at: bear, withIntermediateDirectories: false)
        let out = tmp.appendingPathComponent("pv")
        let r = try CLI.run(["preview", catalog.path, "-o", out.path, "--png"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stderr, "\(bear.path): error: is a folder, not a file\n")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: out.appendingPathComponent("stickers").path), ["002-ring_200_6f.png"])
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("oc_teddybear.png") && html.contains("ring_200_6f.png"))
        let sheet = try Data(contentsOf: out.appendingPathComponent("contact-sheet.png"))
        XCTAssertEqual(sheet.prefix(4), Data([137, 80, 78, 71]))
    }

    /// A sticker file that is no readable image — no image format, a PNG cut inside its header,
    /// an APNG cut inside its first frame — is named on one line each and shown by its `check`
    /// finding, not copied (and not drawn on the contact sheet, without a second line); the
    /// others are shown and copied, and the exit status says some failed.
    func testPreviewNamesEveryFileThatIsNoReadableImage() throws {
        let art = tmp.appendingPathComponent("art")
        try fm.createDirectory(at: art, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: art.appendingPathComponent("a-words.png"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: art.appendingPathComponent("b-signature.png"))
        let apng = try Data(contentsOf: samples.appendingPathComponent("elephant_480x400_34f.png"))
        try apng.prefix(3000).write(to: art.appendingPathComponent("c-cut.png"))
        try copy("oc_teddybear.png", to: art.appendingPathComponent("d-bear.png"))
        let out = tmp.appendingPathComponent("pv")
        let r = try CLI.run(["preview", art.path, "-o", out.path, "--png"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, r.stderr)
        for (line, name) in zip(lines, ["a-words.png", "b-signature.png", "c-cut.png"]) {
            XCTAssertTrue(line.hasPrefix(art.appendingPathComponent(name).path + ": error: "), line)
        }
        XCTAssertTrue(lines[0].hasSuffix("not an image: unknown format"), lines[0])
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: out.appendingPathComponent("stickers").path), ["004-d-bear.png"])
        let html = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        for name in ["a-words.png", "b-signature.png", "c-cut.png", "d-bear.png"] { XCTAssertTrue(html.contains(name), name) }
        XCTAssertTrue(html.contains("not an image: unknown format"))
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("contact-sheet.png")).prefix(4), Data([137, 80, 78, 71]))

        // The same page again: nothing new to say, the same one line per file.
        let again = try CLI.run(["preview", art.path, "-o", out.path, "--png"])
        XCTAssertEqual(again.status, 1, again.stderr)
        XCTAssertEqual(again.stderr, r.stderr)
    }

    /// A preview stopped half way (here by a folder in the way of its second copy, as an
    /// interruption would stop it) leaves copies the next run knows as its own: the rerun
    /// replaces them without --overwrite.
    func testAPreviewStoppedHalfWayIsContinuedByTheNextRun() throws {
        let out = tmp.appendingPathComponent("pv")
        let blocker = out.appendingPathComponent("stickers/002-ring_200_6f.webp")
        try fm.createDirectory(at: blocker, withIntermediateDirectories: true)
        let inputs = [samples.appendingPathComponent("oc_teddybear.png").path, samples.appendingPathComponent("ring_200_6f.webp").path]
        let stopped = try CLI.run(["preview"] + inputs + ["-o", out.path, "--overwrite"])
        XCTAssertEqual(stopped.status, 1, stopped.stderr)
        XCTAssertEqual(stopped.stderr, "\(blocker.path): error: cannot write: is a folder\n")
        XCTAssertTrue(fm.fileExists(atPath: out.appendingPathComponent("stickers/001-oc_teddybear.png").path))
        try fm.removeItem(at: blocker)
        let rerun = try CLI.run(["preview"] + inputs + ["-o", out.path])
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: out.appendingPathComponent("stickers").path).sorted(),
                       ["001-oc_teddybear.png", "002-ring_200_6f.webp"])
    }
}
