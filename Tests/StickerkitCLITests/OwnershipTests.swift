import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The ownership model end to end: what the manifest says is ours is the only thing replaced
/// without --overwrite; names are stable; a damaged manifest is named and rebuilt; nothing is
/// written through a link; a killed or starved run leaves nothing a rerun cannot repair.
final class OwnershipTests: XCTestCase {
    var tmp: URL!
    var art: URL { tmp.appendingPathComponent("art") }
    var out: URL { tmp.appendingPathComponent("out") }

    override func setUpWithError() throws { tmp = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws {
        _ = try? BatchSafety.system("/bin/umount", [tmp.appendingPathComponent("full").path])
        try? FileManager.default.removeItem(at: tmp)
    }

    func resize(_ extra: [String] = [], inputs: [String]? = nil) throws -> CLIRun {
        try CLI.run(["resize"] + (inputs ?? [art.path]) + ["-o", out.path, "--size", "small"] + extra)
    }

    // MARK: --force and --overwrite

    func testForceNeverReplacesAFileStickerkitDidNotWrite() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("teddy.png"))
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let mine = Data("the user's own sax.png".utf8)
        try mine.write(to: out.appendingPathComponent("sax.png"))
        let report = tmp.appendingPathComponent("report.json")

        let r = try resize(["--force", "--report", report.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("sax.png")), mine, "--force replaced a file stickerkit did not write")
        let outputs = try BatchSafety.reportOutputs(report)
        XCTAssertEqual(outputs["sax.png"]?.status, "skipped")
        XCTAssertTrue(outputs["sax.png"]?.reason?.contains("--overwrite") == true, "\(outputs)")
        XCTAssertEqual(outputs["teddy.png"]?.status, "written")
        // Said on stderr too, piped or not: a run that left the sticker unwritten said nothing.
        XCTAssertEqual(r.stderr, "\(art.path)/sax.png [small]: warning: not written: \(out.path)/sax.png exists and was not written "
                       + "by stickerkit (--overwrite replaces it)\n")

        let teddy = try Data(contentsOf: out.appendingPathComponent("teddy.png"))
        let again = try resize(["--force", "--report", report.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try BatchSafety.reportOutputs(report)["teddy.png"]?.status, "written", "--force redoes what stickerkit wrote")
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("teddy.png")), teddy)

        let overwrite = try resize(["--overwrite", "--report", report.path])
        XCTAssertEqual(overwrite.status, 0, overwrite.stderr)
        XCTAssertTrue(BatchSafety.isWholePNG(try Data(contentsOf: out.appendingPathComponent("sax.png"))), "--overwrite replaces it")
        XCTAssertEqual(try BatchSafety.reportOutputs(report)["teddy.png"]?.reason, "up to date", "--overwrite alone redoes nothing")
        try Fixture.assertManifestDescribesStickers(out)
    }

    func testAStickerEditedSinceItWasWrittenIsNotReplacedWithoutOverwrite() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        XCTAssertEqual(try resize().status, 0)
        // The user touches up the sticker by hand, then converts again with other settings.
        let edited = try Data(contentsOf: BatchSafety.samples.appendingPathComponent("noto_1f600_grinning_face_512.png"))
        try edited.write(to: out.appendingPathComponent("sax.png"))
        let report = tmp.appendingPathComponent("report.json")
        let r = try resize(["--max-kb", "300", "--report", report.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("sax.png")), edited, "a file changed since stickerkit wrote it was replaced")
        XCTAssertTrue(try BatchSafety.reportOutputs(report)["sax.png"]?.reason?.contains("changed since stickerkit wrote it") == true)
        XCTAssertEqual(r.stderr, "\(art.path)/sax.png [small]: warning: not written: \(out.path)/sax.png changed since stickerkit "
                       + "wrote it (--overwrite replaces it)\n")
        XCTAssertEqual(try resize(["--max-kb", "300", "--quiet"]).stderr, "")
        XCTAssertEqual(try Fixture.recordedOutputs(out), [], "the edited file is no longer recorded as stickerkit's")
    }

    // MARK: stable names

    func testOutputNamesAreStableAcrossRunsAndRenamesAreReported() throws {
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("cat.png"))
        XCTAssertEqual(try resize().status, 0)
        let pngSticker = try Data(contentsOf: out.appendingPathComponent("cat.png"))

        // A GIF of the same name arrives. It sorts first, but cat.png keeps its sticker's name.
        try Fixture.sample("cogs_small_transparent.gif", to: art.appendingPathComponent("cat.gif"))
        let report = tmp.appendingPathComponent("report.json")
        let r = try resize(["--report", report.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("cat.png")), pngSticker, "cat.png's sticker was replaced by another input's")
        XCTAssertTrue(BatchSafety.isWholePNG(try Data(contentsOf: out.appendingPathComponent("cat.gif.png"))))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("cat.png.png").path))
        // Reported on stderr although it is not a terminal, and in the report.
        let lines = r.stderr.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.contains("cat.gif: warning:") && $0.contains("cat.gif.png") }, r.stderr)
        XCTAssertTrue(try Fixture.reportWarnings(report)["cat.gif"]?.contains { $0.contains("cat.gif.png") } == true)
        XCTAssertEqual(try BatchSafety.reportOutputs(report)["cat.png"]?.reason, "up to date")

        // And so it stays.
        let again = try resize(["--report", report.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        let outputs = try BatchSafety.reportOutputs(report)
        XCTAssertEqual(outputs["cat.png"]?.reason, "up to date")
        XCTAssertEqual(outputs["cat.gif.png"]?.reason, "up to date")
        try Fixture.assertManifestDescribesStickers(out)
    }

    /// Telegram's sticker of a still is a PNG and of an animation a WebM: an input that starts
    /// or stops animating gives its sticker under the other name, and the one stickerkit made of
    /// it before goes (both would go into the pack). Never one edited since, nor one another
    /// input of the run is named for.
    func testAnInputThatStartsOrStopsAnimatingLeavesOneSticker() throws {
        let a = art.appendingPathComponent("a.png")
        let report = tmp.appendingPathComponent("report.json")
        func telegram() throws -> CLIRun {
            let r = try CLI.run(["resize", art.path, "-o", out.path, "--platform", "telegram", "--report", report.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r
        }
        func stickers() -> [String] {
            BatchSafety.paths(out).filter { !($0 as NSString).lastPathComponent.hasPrefix(".") }.sorted()
        }
        func assertRecorded(_ file: StaticString = #filePath, line: UInt = #line) throws {
            XCTAssertEqual(try Fixture.recordedOutputs(out).sorted(), stickers(), "manifest vs stickers present", file: file, line: line)
        }
        func put(_ sample: String, at url: URL) throws {
            try? FileManager.default.removeItem(at: url)
            try Fixture.sample(sample, to: url)
        }
        try put("oc_teddybear.png", at: a)
        _ = try telegram()
        XCTAssertEqual(stickers(), ["a.png"])
        // WhatsApp's sticker of it in the same folder is another app's: it stays throughout.
        let whatsapp = try CLI.run(["resize", art.path, "-o", out.path, "--platform", "whatsapp"])
        XCTAssertEqual(whatsapp.status, 0, whatsapp.stderr)
        XCTAssertEqual(stickers(), ["a.png", "a.webp"])

        try put("ring_200_6f.webp", at: a)
        let animated = try telegram()
        XCTAssertEqual(stickers(), ["a.webm", "a.webp"])
        let line = "\(out.path)/a.png removed: the sticker stickerkit made of this input before, now \(out.path)/a.webm"
        XCTAssertTrue(animated.stderr.contains("\(a.path) [512]: note: \(line)\n"), animated.stderr)
        XCTAssertTrue(try Fixture.reportWarnings(report)["a.png"]?.contains(line) == true)
        try assertRecorded()

        // Back to the still: its sticker is made again (its record went with it), the WebM goes.
        try put("oc_teddybear.png", at: a)
        _ = try telegram()
        XCTAssertEqual(stickers(), ["a.png", "a.webp"])
        try assertRecorded()
        // Up to date: nothing to remove, nothing said.
        XCTAssertEqual(try telegram().stderr, "")

        // A sticker touched up by hand is the user's: it stays.
        let edited = Data("the user's own a.png".utf8)
        try edited.write(to: out.appendingPathComponent("a.png"))
        try put("ring_200_6f.webp", at: a)
        let kept = try telegram()
        XCTAssertEqual(stickers(), ["a.png", "a.webm", "a.webp"])
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("a.png")), edited)
        XCTAssertFalse(kept.stderr.contains("removed"), kept.stderr)

        // b.png animated gave b.webm; now b.png is a still and b.gif, an animation, is named
        // b.webm: b.gif's sticker replaces the old one and is not removed for b.png's.
        try FileManager.default.removeItem(at: out.appendingPathComponent("a.png"))
        let b = art.appendingPathComponent("b.png")
        try put("ring_200_6f.webp", at: b)
        _ = try telegram()
        XCTAssertEqual(stickers(), ["a.webm", "a.webp", "b.webm"])
        try put("oc_teddybear.png", at: b)
        try put("ring_200_6f.webp", at: art.appendingPathComponent("b.gif"))
        _ = try telegram()
        XCTAssertEqual(stickers(), ["a.webm", "a.webp", "b.png", "b.webm"])
        try assertRecorded()
        let manifest = try String(contentsOf: out.appendingPathComponent(Fixture.manifestName), encoding: .utf8)
        XCTAssertTrue(manifest.split(separator: "\n").contains { $0.contains("\"output\":\"b.webm\"") && $0.contains("/art/b.gif\"") }, manifest)
    }

    /// `--prune` removes the stickers of inputs not given this time, as written; never one edited
    /// since, one whose input was named but is missing, nor a pack picture in the folder.
    func testPruneRemovesStickersOfInputsNotGivenThisTime() throws {
        for (sample, name) in [("oc_teddybear.png", "a.png"), ("oc_stop_sign_shadow.png", "b.png"),
                               ("oc_saxophone_palette.png", "sub/c.png"), ("noto_1f600_grinning_face_512.png", "d.png")] {
            try Fixture.sample(sample, to: art.appendingPathComponent(name))
        }
        XCTAssertEqual(try resize().status, 0)
        let icons = try CLI.run(["icons", "--platform", "telegram", art.appendingPathComponent("a.png").path, "-o", out.path])
        XCTAssertEqual(icons.status, 0, icons.stderr)
        XCTAssertEqual(try BatchSafety.stickers(out), ["a.png", "b.png", "d.png", "sub/c.png", "thumbnail.png"])

        try FileManager.default.removeItem(at: art.appendingPathComponent("b.png"))
        XCTAssertEqual(try resize().status, 0)
        XCTAssertEqual(try BatchSafety.stickers(out), ["a.png", "b.png", "d.png", "sub/c.png", "thumbnail.png"], "kept without --prune")

        let report = tmp.appendingPathComponent("report.json")
        let r = try resize(["--prune", "--report", report.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let line = "removed (--prune): made from \(art.path)/b.png, an input not given this time"
        XCTAssertEqual(r.stderr, "\(out.path)/b.png: warning: \(line)\n")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let notices = json?["notices"] as? [[String: String]] ?? []
        XCTAssertEqual(notices, [["path": "\(out.path)/b.png", "message": line]])
        XCTAssertEqual(try BatchSafety.stickers(out), ["a.png", "d.png", "sub/c.png", "thumbnail.png"])

        // d.png named but gone: its input failed, its sticker stays. sub/c.png is not given and
        // goes; a.png's sticker, edited by hand, is the user's and stays though a.png is not given.
        try FileManager.default.removeItem(at: art.appendingPathComponent("d.png"))
        let edited = Data("the user's own a.png".utf8)
        try edited.write(to: out.appendingPathComponent("a.png"))
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("e.png"))
        let named = try resize(["--prune"], inputs: [art.appendingPathComponent("d.png").path, art.appendingPathComponent("e.png").path])
        XCTAssertEqual(named.status, 1, named.stderr)
        XCTAssertTrue(named.stderr.contains("\(out.path)/sub/c.png: warning: removed (--prune)"), named.stderr)
        XCTAssertEqual(try BatchSafety.stickers(out), ["a.png", "d.png", "e.png", "thumbnail.png"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("sub").path), "the folder left empty was not removed")
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("a.png")), edited)
        XCTAssertEqual(try Fixture.recordedOutputs(out).sorted(), ["d.png", "e.png", "thumbnail.png"])

        // An edit that keeps the size, the inode and the time (one byte changed in place, the
        // time set back) is told by its bytes: the sticker stays.
        let e = out.appendingPathComponent("e.png")
        var before = stat()
        XCTAssertEqual(stat(e.path, &before), 0)
        let handle = try FileHandle(forUpdating: e)
        try handle.seek(toOffset: 40)
        let old = try handle.read(upToCount: 1)!
        try handle.seek(toOffset: 40)
        try handle.write(contentsOf: Data([old[0] ^ 0xFF]))
        try handle.close()
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, e.path, &times, 0), 0)
        var after = stat()
        XCTAssertEqual(stat(e.path, &after), 0)
        XCTAssertEqual(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec)
        XCTAssertEqual(after.st_ino, before.st_ino)
        try FileManager.default.removeItem(at: art.appendingPathComponent("e.png"))
        let touched = try resize(["--prune"], inputs: [art.appendingPathComponent("sub/c.png").path])
        XCTAssertEqual(touched.status, 0, touched.stderr)
        XCTAssertTrue(touched.stderr.contains("\(out.path)/d.png: warning: removed (--prune)"), touched.stderr)
        XCTAssertFalse(touched.stderr.contains("e.png"), touched.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: e.path))

        let sharded = try resize(["--prune", "--shard", "1/2"])
        XCTAssertEqual(sharded.status, 2)
        XCTAssertTrue(sharded.stderr.contains("--prune"), sharded.stderr)
    }

    /// A folder whose layout changed (`--size small`, then `--size all`) kept the earlier
    /// layout's `a.png` beside `small/a.png`, and `--prune` kept it too (its input is given).
    func testPruneRemovesTheStickersOfAnEarlierLayout() throws {
        for (sample, name) in [("oc_teddybear.png", "a.png"), ("oc_stop_sign_shadow.png", "b.png"),
                               ("oc_saxophone_palette.png", "c.png")] {
            try Fixture.sample(sample, to: art.appendingPathComponent(name))
        }
        XCTAssertEqual(try resize().status, 0)
        func all(_ extra: [String] = []) throws -> CLIRun {
            try CLI.run(["resize", art.path, "-o", out.path, "--size", "all"] + extra)
        }
        let sized = ["large/a.png", "large/b.png", "large/c.png", "regular/a.png", "regular/b.png", "regular/c.png",
                     "small/a.png", "small/b.png", "small/c.png"]
        XCTAssertEqual(try all().status, 0)
        XCTAssertEqual(try BatchSafety.stickers(out), ["a.png", "b.png", "c.png"] + sized, "kept without --prune")

        // b.png's old sticker, edited by hand, is the user's; c.png no longer reads, so its
        // input failed and its old sticker stays.
        let edited = Data("the user's own b.png".utf8)
        try edited.write(to: out.appendingPathComponent("b.png"))
        try Data("not an image".utf8).write(to: art.appendingPathComponent("c.png"))
        let report = tmp.appendingPathComponent("report.json")
        let r = try all(["--prune", "--report", report.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        let line = "removed (--prune): made from \(art.path)/a.png, not one of its stickers this time (another size, layout or app)"
        XCTAssertTrue(r.stderr.contains("\(out.path)/a.png: warning: \(line)\n"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\(out.path)/b.png: warning: removed"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\(out.path)/c.png: warning: removed"), r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let notices = json?["notices"] as? [[String: String]] ?? []
        XCTAssertEqual(notices, [["path": "\(out.path)/a.png", "message": line]])
        XCTAssertEqual(try BatchSafety.stickers(out), ["b.png", "c.png"] + sized)
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("b.png")), edited)
        XCTAssertFalse(try Fixture.recordedOutputs(out).contains("a.png"))

        // Back to one size: the per-size stickers of the inputs that made their sticker go, and
        // the folders left empty with them. b.png's sticker is not written over the user's file,
        // so b.png's per-size stickers stay.
        try FileManager.default.removeItem(at: art.appendingPathComponent("c.png"))
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("c.png"))
        let back = try resize(["--prune"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertTrue(back.stderr.contains("\(art.path)/b.png [small]: warning: not written"), back.stderr)
        XCTAssertEqual(try BatchSafety.stickers(out), ["a.png", "b.png", "c.png", "large/b.png", "regular/b.png", "small/b.png"])
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("b.png")), edited)
        try FileManager.default.removeItem(at: out.appendingPathComponent("b.png"))
        XCTAssertEqual(try resize(["--prune"]).status, 0)
        XCTAssertEqual(try BatchSafety.stickers(out), ["a.png", "b.png", "c.png"])
        for folder in ["small", "regular", "large"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent(folder).path), folder)
        }
        try Fixture.assertManifestDescribesStickers(out)
    }

    /// `--dry-run` lists what a run would write, leave and remove, and changes nothing: no
    /// output folder created, no sticker written or removed, the manifest not rewritten (even a
    /// damaged one). What it lists is what the run then does.
    func testDryRunSaysWhatARunWouldDoAndChangesNothing() throws {
        for (sample, name) in [("oc_teddybear.png", "a.png"), ("oc_stop_sign_shadow.png", "b.png"),
                               ("oc_saxophone_palette.png", "c.png")] {
            try Fixture.sample(sample, to: art.appendingPathComponent(name))
        }
        let first = try resize(["--dry-run"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, ["a", "b", "c"].map { "\(out.path)/\($0).png: would be written (new)\n" }.joined())
        XCTAssertTrue(first.stderr.contains("dry run: 3 stickers would be written, 0 up to date; nothing was changed"), first.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "a dry run created the output folder")

        XCTAssertEqual(try resize().status, 0)
        // b.png's sticker edited by hand, c.png's input deleted, d.png new; the manifest gets a
        // damaged line, which a real run would rewrite.
        try Data("the user's own b.png".utf8).write(to: out.appendingPathComponent("b.png"))
        try FileManager.default.removeItem(at: art.appendingPathComponent("c.png"))
        try Fixture.sample("noto_1f600_grinning_face_512.png", to: art.appendingPathComponent("d.png"))
        let manifest = out.appendingPathComponent(Fixture.manifestName)
        let handle = try FileHandle(forWritingTo: manifest)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"not a record\n".utf8))
        try handle.close()
        let before = try BatchSafety.snapshot(out)
        let manifestTime = try FileManager.default.attributesOfItem(atPath: manifest.path)[.modificationDate] as? Date

        let all = ["--size", "all", "--prune", "--dry-run", "-v"]
        let dry = try CLI.run(["resize", art.path, "-o", out.path] + all)
        XCTAssertEqual(dry.status, 0, dry.stderr)
        var expected = ["a", "b", "d"].flatMap { n in ["small", "regular", "large"].map { "\(out.path)/\($0)/\(n).png: would be written (new)" } }
        expected.append("\(out.path)/a.png: would be removed (--prune): made from \(art.path)/a.png, not one of its stickers this time (another size, layout or app)")
        expected.append("\(out.path)/c.png: would be removed (--prune): made from \(art.path)/c.png, an input not given this time")
        XCTAssertEqual(dry.stdout.split(separator: "\n").map(String.init), expected)
        XCTAssertTrue(dry.stderr.contains("dry run: 9 stickers would be written, 0 up to date, 2 would be removed; nothing was changed"), dry.stderr)
        XCTAssertEqual(try BatchSafety.snapshot(out), before, "a dry run changed the output folder")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: manifest.path)[.modificationDate] as? Date, manifestTime)

        // At one size: a's up to date (listed under -v), b's left to the user, d's new.
        let small = try resize(["--dry-run", "-v", "--prune"])
        XCTAssertEqual(small.status, 0, small.stderr)
        XCTAssertEqual(small.stdout.split(separator: "\n").map(String.init), [
            "\(out.path)/a.png: up to date",
            "\(out.path)/b.png: would not be written: it changed since stickerkit wrote it (--overwrite replaces it)",
            "\(out.path)/d.png: would be written (new)",
            "\(out.path)/c.png: would be removed (--prune): made from \(art.path)/c.png, an input not given this time",
        ])
        let other = try resize(["--dry-run", "--max-kb", "300"])
        XCTAssertTrue(other.stdout.contains("\(out.path)/a.png: would be written again (made with other settings)"), other.stdout)
        XCTAssertEqual(try BatchSafety.snapshot(out), before)

        // The run itself does what the dry run said.
        let real = try CLI.run(["resize", art.path, "-o", out.path] + all.filter { $0 != "--dry-run" && $0 != "-v" })
        XCTAssertEqual(real.status, 0, real.stderr)
        XCTAssertEqual(try BatchSafety.stickers(out), ["b.png"] + ["a", "b", "d"].flatMap { n in ["large", "regular", "small"].map { "\($0)/\(n).png" } }.sorted())

        XCTAssertEqual(try resize(["--dry-run", "--report", tmp.appendingPathComponent("r.json").path]).status, 2)
    }

    func testDryRunNamesTheInputsThatWouldFailBeforeDecoding() throws {
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("a.png"))
        let broken = art.appendingPathComponent("broken.png")
        try Fixture.sample("oc_stop_sign_shadow.png", to: broken)
        XCTAssertEqual(try resize().status, 0)
        // broken.png cut in half since its sticker was made; two files that are no images.
        let intact = try Data(contentsOf: broken)
        try intact.prefix(intact.count / 2).write(to: broken)
        try Data().write(to: art.appendingPathComponent("empty.png"))
        try Data("a shopping list, not a picture".utf8).write(to: art.appendingPathComponent("notes.png"))
        let before = try BatchSafety.snapshot(out)

        let dry = try resize(["--dry-run", "--prune"])
        XCTAssertEqual(dry.status, 1, dry.stderr)
        let lines = dry.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3, dry.stdout)
        XCTAssertTrue(lines[0].hasPrefix("\(art.path)/broken.png: would fail: PNG: IDAT chunk at byte "), lines[0])
        XCTAssertEqual(lines[1], "\(art.path)/empty.png: would fail: empty file (0 bytes)")
        XCTAssertEqual(lines[2], "\(art.path)/notes.png: would fail: not an image: unknown format (first bytes 61 20 73 68 6f 70 70 69)")
        // broken.png's old sticker is kept by --prune, as the run keeps it: its input failed.
        XCTAssertTrue(dry.stderr.contains("dry run: 0 stickers would be written, 1 up to date, 3 could not be written; nothing was changed"),
                      dry.stderr)
        XCTAssertEqual(try BatchSafety.snapshot(out), before)

        // The run fails the same inputs and keeps the same files.
        let real = try resize(["--prune"])
        XCTAssertEqual(real.status, 1, real.stderr)
        for name in ["broken", "empty", "notes"] {
            XCTAssertTrue(real.stderr.contains("\(art.path)/\(name).png: error: "), real.stderr)
        }
        XCTAssertEqual(try BatchSafety.stickers(out), ["a.png", "broken.png"])

        // Lenient: the cut file may be salvaged, so only what no mode reads is named.
        let lenient = try resize(["--dry-run", "--lenient"])
        XCTAssertEqual(lenient.stdout.split(separator: "\n").filter { $0.contains("would fail") }.count, 2, lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("\(out.path)/broken.png: would be written again (made with other settings)"), lenient.stdout)
    }

    // MARK: a damaged manifest

    func testDamagedManifestIsNamedInAWarningAndRebuilt() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("teddy.png"))
        try Fixture.sample("maneki_neko_palette_3f.apng", to: art.appendingPathComponent("neko.png"))
        XCTAssertEqual(try resize().status, 0)
        let manifest = out.appendingPathComponent(Fixture.manifestName)
        let good = try Data(contentsOf: manifest)
        let stickers = try BatchSafety.snapshot(out).filter { !$0.key.hasPrefix(".") }
        let damages: [(String, Data)] = [
            ("truncated mid-line", good.prefix(good.count - 40)),
            ("zeroed", Data(count: good.count)),
            ("garbage", Data((0..<good.count).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })),
            ("records glued together", good.prefix(good.count / 2 + 10) + good),
            ("empty", Data()),
        ]
        for (what, bytes) in damages {
            try bytes.write(to: manifest)
            let r = try resize()
            XCTAssertEqual(r.status, 0, "\(what): \(r.stderr)")
            if !bytes.isEmpty {
                XCTAssertTrue(r.stderr.contains("\(Fixture.manifestName): warning:") && r.stderr.contains("manifest"),
                              "\(what): the damage is not named: \(r.stderr)")
            }
            XCTAssertEqual(try BatchSafety.snapshot(out).filter { !$0.key.hasPrefix(".") }, stickers, "\(what): stickers changed")
            try Fixture.assertManifestDescribesStickers(out)
            // Rebuilt, not ignored: the stickers are ours again, so changed settings redo them.
            let report = tmp.appendingPathComponent("report.json")
            XCTAssertEqual(try resize(["--max-kb", "200", "--report", report.path]).status, 0)
            XCTAssertEqual(Set(try BatchSafety.reportOutputs(report).values.map(\.status)), ["written"], what)
            XCTAssertEqual(try resize(["--force"]).status, 0)
            try Fixture.assertManifestDescribesStickers(out)
        }
    }

    func testRecordsCutByAFailedAppendAreNotLostForever() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("teddy.png"))
        XCTAssertEqual(try resize().status, 0)
        // The last append was cut mid-line (the disk filled up), then a later run appended.
        let manifest = out.appendingPathComponent(Fixture.manifestName)
        let lines = try Data(contentsOf: manifest).split(separator: UInt8(ascii: "\n"))
        try (Data(lines[0]) + Data("\n".utf8) + Data(lines[1].prefix(60))).write(to: manifest)
        try Fixture.sample("cogs_small_transparent.gif", to: art.appendingPathComponent("cogs.gif"))
        let r = try resize()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning:") && r.stderr.contains("cut short"), r.stderr)
        try Fixture.assertManifestDescribesStickers(out)
        let report = tmp.appendingPathComponent("report.json")
        XCTAssertEqual(try resize(["--max-kb", "250", "--report", report.path]).status, 0)
        XCTAssertEqual(try BatchSafety.reportOutputs(report).mapValues(\.status),
                       ["sax.png": "written", "teddy.png": "written", "cogs.png": "written"], "a sticker was lost to the cut record")
    }

    func testManifestThatIsAFolderIsMovedAsideAndRebuilt() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let folder = out.appendingPathComponent(Fixture.manifestName)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let r = try resize()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(Fixture.manifestName): warning: is a folder"), r.stderr)
        try Fixture.assertManifestDescribesStickers(out)
        let kept = try BatchSafety.snapshot(out).filter { $0.key.hasSuffix("notes.txt") }
        XCTAssertEqual(Array(kept.values), [Data("keep me".utf8)], "the folder's content was lost: \(kept.keys)")
    }

    func testSymlinkedManifestIsNeverFollowed() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let victim = tmp.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent(Fixture.manifestName), withDestinationURL: victim)
        let r = try resize()
        XCTAssertEqual(try Data(contentsOf: victim), Data("precious".utf8), "the link's target was written")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("symbolic link"), r.stderr)
        let attributes = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(Fixture.manifestName).path)
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular)
        try Fixture.assertManifestDescribesStickers(out)
    }

    // MARK: links inside the output folder

    func testNothingIsWrittenThroughALinkInTheOutputFolder() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sub/sax.png"))
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("teddy.png"))
        let elsewhere = tmp.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let victim = tmp.appendingPathComponent("victim.png")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("sub"), withDestinationURL: elsewhere)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("teddy.png"), withDestinationURL: victim)

        let r = try resize(["--overwrite"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("sax.png: error:") && r.stderr.contains("symbolic link"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [], "written through a linked folder")
        XCTAssertEqual(try Data(contentsOf: victim), Data("precious".utf8), "written through a linked file")
        // --overwrite replaced the link itself with the sticker.
        let teddy = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent("teddy.png").path)
        XCTAssertEqual(teddy[.type] as? FileAttributeType, .typeRegular)
    }

    // MARK: killed and starved runs

    func testTemporaryFilesOfKilledRunsAreRemovedAndOthersKept() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sub/sax.png"))
        let sub = out.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let dead = try Fixture.deadPID()
        // Left by a run killed between write and rename (this version's names and the earlier form).
        let stale = [sub.appendingPathComponent(".sax.png.stickerkit-\(dead)-3.tmp"), out.appendingPathComponent(".x.png.stickerkit-\(dead)-1.tmp"),
                     tmp.appendingPathComponent(".report.json.stickerkit-\(dead)-2.tmp")]
        // Not ours: kept.
        let others = [out.appendingPathComponent(".stickerkit-notes.tmp"), out.appendingPathComponent("draft.tmp"),
                      sub.appendingPathComponent(".sax.png.stickerkit-abc-1.tmp")]
        for url in stale + others { try Data("partial".utf8).write(to: url) }
        let r = try resize(["--report", tmp.appendingPathComponent("report.json").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        for url in stale { XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "\(url.lastPathComponent) left") }
        for url in others { XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(url.lastPathComponent) removed") }
    }

    func testKilledRunsLeaveNothingARerunCannotRepair() throws {
        try BatchSafety.stage(BatchSafety.quickInputs, copies: 2, into: art)
        let before = try BatchSafety.snapshot(art)
        let reference = tmp.appendingPathComponent("reference")
        XCTAssertEqual(try CLI.run(["resize", art.path, "-o", reference.path, "--size", "small", "--quiet"]).status, 0)
        let expected = try BatchSafety.snapshot(reference).filter { !$0.key.hasPrefix(".") }

        var generator = SystemRandomNumberGenerator()
        for round in 0..<4 {
            let p = try BatchSafety.start(["resize", art.path, "-o", out.path, "--size", "small", "--jobs", "2"],
                                          logs: tmp.appendingPathComponent("run\(round)"))
            usleep(UInt32.random(in: 20_000...600_000, using: &generator))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            for (path, bytes) in try BatchSafety.snapshot(out) where path.hasSuffix(".png") && !(path as NSString).lastPathComponent.hasPrefix(".") {
                XCTAssertTrue(BatchSafety.isWholePNG(bytes), "\(path) is partial after SIGKILL")
            }
        }
        let r = try CLI.run(["resize", art.path, "-o", out.path, "--size", "small"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try BatchSafety.snapshot(out).filter { !$0.key.hasPrefix(".") && !$0.key.contains("/.") }, expected)
        XCTAssertEqual(BatchSafety.paths(out).filter { $0.contains(".stickerkit-tmp") || $0.hasSuffix(".tmp") }, [], "temporary files left")
        try Fixture.assertManifestDescribesStickers(out)
        XCTAssertEqual(try BatchSafety.snapshot(art), before, "inputs changed")
    }

    func testFullDiskWhileRecordingFailsTheOutputAndTheRerunRepairsIt() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let full = tmp.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        guard try BatchSafety.system("/bin/mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", full.path]) == 0 else {
            throw XCTSkip("cannot mount a small tmpfs here (not root, or no CAP_SYS_ADMIN)")
        }
        let target = full.appendingPathComponent("out")
        let args = ["resize", art.path, "-o", target.path, "--size", "small", "--quiet"]
        XCTAssertEqual(try CLI.run(args).status, 0)
        let sticker = try Data(contentsOf: target.appendingPathComponent("sax.png"))
        let manifest = target.appendingPathComponent(Fixture.manifestName)
        // Pad the manifest with blank lines so that the next record needs one more page, then
        // fill the disk leaving exactly the pages of the sticker's temporary file.
        let page = 4096
        let size = try Data(contentsOf: manifest).count
        let padded = (size / page + 1) * page - 8
        let handle = try FileHandle(forWritingTo: manifest)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: 0x0A, count: padded - size))
        try handle.close()
        let filler = full.appendingPathComponent("filler")
        _ = try BatchSafety.system("/bin/dd", ["if=/dev/zero", "of=\(filler.path)", "bs=4096"])
        let stickerPages = (sticker.count + page - 1) / page
        let filled = try FileManager.default.attributesOfItem(atPath: filler.path)[.size] as? Int ?? 0
        XCTAssertEqual(truncate(filler.path, off_t(max(0, filled - stickerPages * page))), 0)

        let r = try CLI.run(args + ["--force"])
        XCTAssertEqual(r.status, 1, "a record that could not be written must fail the run: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("sax.png: error:") && r.stderr.contains("No space left on device"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: target.appendingPathComponent("sax.png")), sticker)
        XCTAssertTrue(try Data(contentsOf: manifest).last == 0x0A, "the cut record was left in the manifest")
        XCTAssertEqual(BatchSafety.paths(target).filter { $0.contains(".stickerkit-tmp") }, [])

        try FileManager.default.removeItem(at: filler)
        let again = try CLI.run(args + ["--force"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try Data(contentsOf: target.appendingPathComponent("sax.png")), sticker)
        try Fixture.assertManifestDescribesStickers(target)
    }
}
