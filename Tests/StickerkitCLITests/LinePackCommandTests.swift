import Foundation
import StickerKit
@testable import StickerPackaging
@testable import StickerkitCLI
import XCTest

/// `pack --platform line` end to end: the upload archive is read back with Python's zipfile
/// (names, sizes, CRCs), and every file in it passes LINE's rules (`PlatformChecker`: each
/// sticker, and the main and chat tab images as LINE's pack pictures).
final class LinePackCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws { tmp = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func sample(_ name: String) -> String { CLI.repositoryRoot.appendingPathComponent("samples").appendingPathComponent(name).path }
    /// The eight stills of `samples/`, of every format stickerkit reads.
    var stills: [String] {
        ["oc_teddybear.png", "oc_saxophone_palette.png", "oc_stop_sign_shadow.png", "noto_1f600_grinning_face_512.png",
         "rocket_640x427.jpg", "exif_orientation_6_portrait.jpg", "webp_gallery_dice_alpha.webp", "wine_portrait_2560x3837.jpg"].map(sample)
    }

    /// A folder of eight small animations: the two smallest samples, four copies each.
    func animations() throws -> URL {
        let folder = tmp.appendingPathComponent("animations")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for k in 1...4 {
            try FileManager.default.copyItem(atPath: sample("cogs_small_transparent.gif"), toPath: folder.appendingPathComponent("cogs\(k).gif").path)
            try FileManager.default.copyItem(atPath: sample("ring_200_6f.webp"), toPath: folder.appendingPathComponent("ring\(k).webp").path)
        }
        return folder
    }

    /// The archive's entries, in order, each read by Python's zipfile (`CLI.unzip`).
    func entries(_ archive: URL) throws -> [(name: String, bytes: [UInt8])] {
        let out = tmp.appendingPathComponent("unzipped-\(UUID().uuidString)")
        let names = try CLI.unzip(archive, into: out)
        return try names.map { ($0, [UInt8](try Data(contentsOf: out.appendingPathComponent($0)))) }
    }

    /// Every sticker of `files` passes LINE's rules, and is an animation when `animated`; the
    /// main and chat tab images pass theirs, the main image an APNG when `animatedMain`.
    func assertLineSet(_ files: [(name: String, bytes: [UInt8])], count: Int, animated: Bool, animatedMain: Bool,
                       file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(files.map(\.name), (1...count).map { String(format: "%02d.png", $0) } + ["main.png", "tab.png"], file: file, line: line)
        for f in files.prefix(count) {
            let report = PlatformChecker.check(f.bytes, path: f.name, target: .line)
            XCTAssertNotEqual(report.verdict, .error, "\(f.name): \(report.findings)", file: file, line: line)
            XCTAssertEqual(report.facts.frames > 1, animated, f.name, file: file, line: line)
        }
        for (icon, f) in zip(StickerTarget.line.packIcons, files.suffix(2)) {
            let report = PlatformChecker.check(f.bytes, path: f.name, packIcon: icon, target: .line)
            XCTAssertNotEqual(report.verdict, .error, "\(f.name): \(report.findings)", file: file, line: line)
            XCTAssertEqual(report.facts.width, icon.width, file: file, line: line)
            XCTAssertEqual(report.facts.height, icon.height, file: file, line: line)
        }
        XCTAssertEqual(LinePack.isAnimation(files[count].bytes), animatedMain, "main.png", file: file, line: line)
        XCTAssertFalse(LinePack.isAnimation(files[count + 1].bytes), "tab.png", file: file, line: line)
    }

    func testPackWritesLinesUploadArchiveOfCheckedStickers() throws {
        let archive = tmp.appendingPathComponent("Cats.zip")
        let r = try CLI.run(["pack", "--platform", "line"] + stills + ["-o", archive.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix(archive.path + ": 8 still LINE stickers, "), r.stdout)
        XCTAssertTrue(r.stdout.contains("main and chat tab images from " + stills[0]), r.stdout)
        assertLineSet(try entries(archive), count: 8, animated: false, animatedMain: false)

        // A rerun with nothing changed leaves the archive as it is, date too; a new main image
        // replaces it. A still set's main image is a still, even from an animation.
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: archive.path)
        let same = try CLI.run(["pack", "--platform", "line"] + stills + ["-o", archive.path])
        XCTAssertTrue(same.stdout.hasPrefix(archive.path + ": unchanged, 8 still LINE stickers"), same.stdout)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: archive.path)[.modificationDate] as? Date, old)
        let icon = try CLI.run(["pack", "--platform", "line"] + stills + ["-o", archive.path, "--icon", sample("ring_200_6f.webp")])
        XCTAssertEqual(icon.status, 0, icon.stderr)
        XCTAssertTrue(icon.stdout.contains("main and chat tab images from " + sample("ring_200_6f.webp")), icon.stdout)
        XCTAssertEqual(icon.stderr.components(separatedBy: "\n").filter {
            $0.hasPrefix(sample("ring_200_6f.webp") + ": warning: source is an animation of 6 frames: its first frame alone shows in "
                         + "the main image and the chat tab image")
        }.count, 1, icon.stderr)
        XCTAssertNotEqual(try FileManager.default.attributesOfItem(atPath: archive.path)[.modificationDate] as? Date, old)
        assertLineSet(try entries(archive), count: 8, animated: false, animatedMain: false)
    }

    func testAnAnimatedSetHasAnAnimatedMainImage() throws {
        let folder = try animations()
        let archive = tmp.appendingPathComponent("Moving.zip")
        let r = try CLI.run(["pack", "--platform", "line", folder.path, "-o", archive.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix(archive.path + ": 8 animated LINE stickers, "), r.stdout)
        assertLineSet(try entries(archive), count: 8, animated: true, animatedMain: true)
        // A still given as its main image is written, and said.
        let still = try CLI.run(["pack", "--platform", "line", folder.path, "-o", archive.path, "--icon", stills[0]])
        XCTAssertEqual(still.status, 0, still.stderr)
        XCTAssertTrue(still.stderr.contains(stills[0] + ": warning: the main image is a still: LINE asks for an animated set's main image as an animation (APNG)"),
                      still.stderr)
        assertLineSet(try entries(archive), count: 8, animated: true, animatedMain: false)
    }

    func testTheSetRulesAreOneLineAndNoArchive() throws {
        let archive = tmp.appendingPathComponent("set.zip")
        // A count no set holds, told before anything is converted.
        let nine = try CLI.run(["pack", "--platform", "line"] + stills + [sample("maneki_neko_palette_3f.apng"), sample("elephant_480x400_34f.png"),
                                                                          "-o", archive.path])
        XCTAssertEqual(nine.status, 1)
        XCTAssertTrue(nine.stderr.contains(archive.path + ": error: 10 stickers: a LINE set holds 8, 16, 24, 32 or 40 stills, "
                                           + "or 8, 16 or 24 animations; add 6 or leave out 2"), nine.stderr)
        // Stills and animations.
        let mixed = try CLI.run(["pack", "--platform", "line"] + stills.dropLast() + [sample("ring_200_6f.webp"), "-o", archive.path])
        XCTAssertEqual(mixed.status, 1)
        XCTAssertTrue(mixed.stderr.contains("7 stills and 1 animation: a LINE set is all stills or all animations; make two sets (animations: "
                                            + sample("ring_200_6f.webp") + ")"), mixed.stderr)
        // An input that fails leaves a set LINE does not sell: the failure is said, then the rule.
        let broken = tmp.appendingPathComponent("broken.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0]).write(to: broken)
        let failed = try CLI.run(["pack", "--platform", "line"] + stills.dropLast() + [broken.path, "-o", archive.path])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains(broken.path + ": error: "), failed.stderr)
        XCTAssertTrue(failed.stderr.contains("7 still stickers: a LINE set holds 8, 16, 24, 32 or 40 stills; add 1; 1 input failed"), failed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.path))
    }

    func testOwnershipRerunsAndUsage() throws {
        // Someone else's file is kept unless --overwrite.
        let theirs = tmp.appendingPathComponent("theirs.zip")
        try Data("not ours".utf8).write(to: theirs)
        let kept = try CLI.run(["pack", "--platform", "line"] + stills + ["-o", theirs.path])
        XCTAssertEqual(kept.status, 2)
        XCTAssertTrue(kept.stderr.contains("already exists and is not a LINE archive stickerkit wrote; --overwrite replaces it"), kept.stderr)
        XCTAssertEqual(try Data(contentsOf: theirs), Data("not ours".utf8))
        let replaced = try CLI.run(["pack", "--platform", "line"] + stills + ["-o", theirs.path, "--overwrite", "-q"])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(LinePack.isStickerkitArchive([UInt8](try Data(contentsOf: theirs))))

        // Written into the artwork's folder, the archive is never read back as artwork; the main
        // and chat tab images `icons --platform line` wrote there are the set's, not stickers.
        let art = tmp.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        for s in stills { try FileManager.default.copyItem(atPath: s, toPath: art.appendingPathComponent((s as NSString).lastPathComponent).path) }
        XCTAssertEqual(try CLI.run(["icons", "--platform", "line", sample("elephant_480x400_34f.png"), "-o", art.path, "-q"]).status, 0)
        let archive = art.appendingPathComponent("Art.zip")
        let first = try CLI.run(["pack", "--platform", "line", art.path, "-o", archive.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        let recorded = art.appendingPathComponent("main.png").path
        XCTAssertTrue(first.stdout.contains("8 still LINE stickers") && first.stdout.contains("images from " + recorded), first.stdout)
        XCTAssertTrue(first.stderr.contains(recorded + ": warning: the main image is an animation"), first.stderr)
        let files = try entries(archive)
        XCTAssertEqual(files[8].bytes, [UInt8](try Data(contentsOf: art.appendingPathComponent("main.png"))))
        XCTAssertEqual(files[9].bytes, [UInt8](try Data(contentsOf: art.appendingPathComponent("tab.png"))))
        let again = try CLI.run(["pack", "--platform", "line", art.path, "-o", archive.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.hasPrefix(archive.path + ": unchanged, 8 still LINE stickers"), again.stdout)

        // Usage errors, one line each.
        for (args, words) in [(["-o", tmp.appendingPathComponent("x.wastickers").path], "-o must name the archive, e.g. -o \"My Stickers.zip\""),
                              (["-o", theirs.path, "--title", "Cats"], "--title and --author are for --platform whatsapp"),
                              (["-o", theirs.path, "--labels", "l.csv"], "--labels is for Xcode sticker catalogs, not --platform line")] {
            let r = try CLI.run(["pack", "--platform", "line"] + stills + args)
            XCTAssertEqual(r.status, 2, words)
            XCTAssertTrue(r.stderr.contains(words), r.stderr)
        }
    }

    /// `--dry-run` for a LINE set: the entries it would add or replace, someone else's file at
    /// `-o` left as it is even with --overwrite, and nothing written.
    func testDryRunSaysWhatTheSetWouldHoldAndWritesNothing() throws {
        let archive = tmp.appendingPathComponent("Set.zip"), cache = tmp.appendingPathComponent("cache")
        let args = ["pack", "--platform", "line"] + stills + ["-o", archive.path, "--cache", cache.path]
        let dry = try CLI.run(args + ["--dry-run"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        let names = (1...8).map { String(format: "%02d.png", $0) }
        XCTAssertEqual(dry.stdout.split(separator: "\n").map(String.init),
                       zip(names, stills).map { "\(archive.path)/\($0): would be added (from \($1))" }
                       + ["main.png", "tab.png"].map { "\(archive.path)/\($0): would be added (from \(stills[0]))" })
        XCTAssertTrue(dry.stderr.contains("dry run: \(archive.path): would be written (new), 8 still LINE stickers"), dry.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.path))
        XCTAssertEqual(try CLI.run(args + ["-q"]).status, 0)
        let same = try CLI.run(args + ["--dry-run"])
        XCTAssertEqual(same.stdout, "")
        XCTAssertTrue(same.stderr.contains("dry run: \(archive.path): unchanged, 8 still LINE stickers"), same.stderr)

        let theirs = tmp.appendingPathComponent("theirs.zip")
        try Data("not ours".utf8).write(to: theirs)
        let refused = try CLI.run(["pack", "--platform", "line"] + stills + ["-o", theirs.path, "--dry-run"])
        XCTAssertEqual(refused.status, 2)
        let over = try CLI.run(["pack", "--platform", "line"] + stills + ["-o", theirs.path, "--dry-run", "--overwrite", "--cache", cache.path])
        XCTAssertEqual(over.status, 0, over.stderr)
        XCTAssertTrue(over.stderr.contains("dry run: \(theirs.path): would be replaced, 8 still LINE stickers"), over.stderr)
        XCTAssertEqual(over.stdout.split(separator: "\n").count, 10)
        XCTAssertEqual(try Data(contentsOf: theirs), Data("not ours".utf8))
    }

    func testCheckReadsTheArchiveAsALineSet() throws {
        let archive = tmp.appendingPathComponent("Cats.zip")
        XCTAssertEqual(try CLI.run(["pack", "--platform", "line"] + stills + ["-o", archive.path, "-q"]).status, 0)
        let r = try CLI.run(["check", archive.path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("LINE set \(archive.path): 8 stickers\n"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("8 stickers in 1 LINE set: 0 errors, 0 warnings\n"), r.stdout)
        for name in ["01.png", "08.png", "main.png", "tab.png"] { XCTAssertTrue(r.stdout.contains(archive.path + "/" + name), name) }
        let json = try CLI.run(["check", "--json", "--platform", "discord", archive.path])
        let report = try JSONDecoder().decode(CheckReport.self, from: Data(json.stdout.utf8))
        XCTAssertEqual(report.lineSets.map(\.stickers.count), [8])
        XCTAssertEqual(report.lineSets.first?.pictures.map(\.path), ["main.png", "tab.png"].map { archive.path + "/" + $0 })
        XCTAssertEqual(report.lineSets.first?.findings.map(\.message), ["a LINE set: checked by LINE's rules, not Discord's"])
        // preview shows the set's stickers and pictures, as check lists them.
        let preview = try CLI.run(["preview", archive.path, "-o", tmp.appendingPathComponent("preview").path])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        XCTAssertTrue(preview.stdout.contains("10 stickers"), preview.stdout)

        // Each rule, on sets rebuilt from this one's entries.
        let files = try entries(archive)
        let stickers = files.prefix(8).map { StoredZip.Entry(name: $0.name, bytes: $0.bytes) }
        let main = StoredZip.Entry(name: "main.png", bytes: files[8].bytes), tab = StoredZip.Entry(name: "tab.png", bytes: files[9].bytes)
        func findings(_ entries: [StoredZip.Entry]) -> [String] {
            LineSetChecker.check(StoredZip(entries: entries).bytes(), path: "set.zip").allFindings
                .filter { $0.severity != .info }.map { "\($0.severity.rawValue) \($0.code.rawValue): \($0.message)" }
        }
        XCTAssertEqual(findings(stickers + [main, tab]), [])
        XCTAssertEqual(findings(stickers + [main]), ["error missing-file: no tab.png: a LINE set needs its chat tab image (96×74 PNG)"])
        XCTAssertEqual(findings(stickers.dropLast() + [main, tab]),
                       ["error sticker-count: 7 still stickers: a LINE set holds 8, 16, 24, 32 or 40 stills; add 1"])
        var renamed = stickers
        renamed[2].name = "cat.png"
        XCTAssertEqual(findings(renamed + [main, tab]),
                       ["warning not-a-sticker: LINE takes a set of 8 stickers named 01.png to 08.png; named otherwise: cat.png"])
        let copy = StoredZip.Entry(name: "08.png", bytes: try XCTUnwrap(files.first).bytes)
        XCTAssertEqual(findings(stickers.dropLast() + [copy, main, tab]), [])
        let moving = try CLI.run(["resize", "--platform", "line", sample("ring_200_6f.webp"), "-o", tmp.appendingPathComponent("ring").path, "-q"])
        XCTAssertEqual(moving.status, 0, moving.stderr)
        let apng = [UInt8](try Data(contentsOf: tmp.appendingPathComponent("ring/ring_200_6f.png")))
        XCTAssertEqual(findings(stickers.dropLast() + [.init(name: "08.png", bytes: apng), main, tab]),
                       ["error mixed-kinds: 7 stills and 1 animation: a LINE set is all stills or all animations; make two sets"])
        let wideMain = StoredZip.Entry(name: "main.png", bytes: files[9].bytes)
        XCTAssertEqual(findings(stickers + [wideMain, tab]), ["error size: 96×74 px; LINE's main image is 240×240"])
        // Past 20 MB (two entries no part of a set make it so).
        let filler = (0..<2).map { StoredZip.Entry(name: "filler\($0).bin", bytes: [UInt8](repeating: 0, count: 10_000_000)) }
        let big = findings(stickers + [main, tab] + filler)
        XCTAssertTrue(big.first?.hasPrefix("error budget: ") == true && big.first?.hasSuffix("bytes: LINE takes an archive of at most 20,000,000 in one upload") == true, "\(big)")
        XCTAssertEqual(big.dropFirst().map { String($0.prefix(30)) }, ["warning not-a-sticker: not an ", "warning not-a-sticker: not an "])
    }

    /// The stickers are cached as a catalog's are: a rerun converts only what changed, `--force`
    /// everything, and a cache inside the artwork's folder is never read as artwork.
    func testARerunConvertsOnlyWhatChanged() throws {
        let art = tmp.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        for s in stills { try FileManager.default.copyItem(atPath: s, toPath: art.appendingPathComponent((s as NSString).lastPathComponent).path) }
        let archive = tmp.appendingPathComponent("Cached.zip")
        let args = ["pack", "--platform", "line", art.path, "-o", archive.path, "--cache", art.appendingPathComponent("cache").path]
        func run(_ extra: [String] = []) throws -> String {
            let r = try CLI.run(args + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout
        }
        XCTAssertTrue(try run().hasSuffix("; 8 converted, 0 up to date\n"))
        let again = try run()
        XCTAssertTrue(again.hasPrefix(archive.path + ": unchanged, 8 still LINE stickers") && again.hasSuffix("; 0 converted, 8 up to date\n"), again)
        XCTAssertTrue(try run(["--force"]).hasSuffix("; 8 converted, 0 up to date\n"))
        // One input replaced: that one alone; other settings: all of them.
        let teddy = art.appendingPathComponent("oc_teddybear.png")
        try FileManager.default.removeItem(at: teddy)
        try FileManager.default.copyItem(atPath: sample("noto_1f600_grinning_face_512.png"), toPath: teddy.path)
        let one = try run()
        XCTAssertTrue(one.hasPrefix(archive.path + ": 8 still LINE stickers") && one.hasSuffix("; 1 converted, 7 up to date\n"), one)
        XCTAssertTrue(try run(["--max-kb", "900"]).hasSuffix("; 8 converted, 0 up to date\n"))
        XCTAssertTrue(try CLI.run(["check", archive.path]).stdout.hasSuffix("8 stickers in 1 LINE set: 0 errors, 0 warnings\n"))
    }

    /// Ctrl-C during the conversions leaves no partial file and no archive; the rerun takes the
    /// stickers finished before it from the cache.
    func testAnInterruptLeavesNothingPartialAndARerunContinues() throws {
        let art = tmp.appendingPathComponent("art"), cache = tmp.appendingPathComponent("cache")
        try BatchSafety.stage(BatchSafety.quickInputs.filter { !$0.hasSuffix(".apng") } + ["oc_stop_sign_shadow.png", "rocket_640x427.jpg"],
                              copies: 8, into: art)
        let archive = tmp.appendingPathComponent("Big.zip")
        let args = ["pack", "--platform", "line", art.path, "-o", archive.path, "--cache", cache.path, "--jobs", "1"]
        let logs = tmp.appendingPathComponent("run1")
        let p = try BatchSafety.start(args, logs: logs)
        func cached() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).filter { $0.hasSuffix(".png") } }
        try BatchSafety.interrupt(p, logs: logs, once: { !cached().isEmpty })
        XCTAssertEqual(try BatchSafety.temporaries(cache), [], "temporary files left after SIGINT")
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.path))
        let done = cached().count
        XCTAssertGreaterThanOrEqual(done, 1)
        XCTAssertLessThan(done, 40)

        let r = try CLI.run(args)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("; \(40 - done) converted, \(done) up to date\n"), r.stdout)
        XCTAssertEqual(try BatchSafety.temporaries(tmp), [])
    }

    /// `--report` as `resize` writes it: the archive, each sticker's entry and input, every input's
    /// conversion (with its SSIM when converted this run) and the summary; `-` for standard output
    /// (the summary line then on stderr); never onto the archive or an input.
    func testTheReportSaysWhatEachStickerCameFrom() throws {
        let archive = tmp.appendingPathComponent("Reported.zip"), report = tmp.appendingPathComponent("report.json")
        let args = ["pack", "--platform", "line"] + stills + ["-o", archive.path, "--cache", tmp.appendingPathComponent("cache").path]
        XCTAssertEqual(try CLI.run(args + ["--report", report.path, "-q"]).status, 0)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        XCTAssertEqual(json["archive"] as? String, archive.path)
        XCTAssertEqual(json["platform"] as? String, "line")
        let stickers = try XCTUnwrap(json["stickers"] as? [[String: String]])
        XCTAssertEqual(stickers.map { $0["entry"] }, (1...8).map { String(format: "%02d.png", $0) })
        XCTAssertEqual(stickers.map { $0["input"] }, stills)
        let summary = try XCTUnwrap(json["summary"] as? [String: Any])
        XCTAssertEqual(summary["converted"] as? Int, 8)
        XCTAssertEqual(summary["unchanged"] as? Bool, false)
        let inputs = try XCTUnwrap(json["inputs"] as? [[String: Any]])
        let ssim = inputs.compactMap { (($0["outputs"] as? [[String: Any]])?.first?["details"] as? [String: Any])?["ssim"] as? Double }
        XCTAssertEqual(ssim.count, 8, "every sticker converted this run is measured")

        // A rerun replaces its own report; standard output carries it alone.
        let again = try CLI.run(args + ["--report", "-"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let out = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((out["summary"] as? [String: Any])?["upToDate"] as? Int, 8)
        XCTAssertEqual((out["summary"] as? [String: Any])?["unchanged"] as? Bool, true)
        XCTAssertTrue(again.stderr.contains(archive.path + ": unchanged, 8 still LINE stickers"), again.stderr)
        XCTAssertEqual(try CLI.run(args + ["--report", report.path, "-q"]).status, 0)

        for (path, words) in [(archive.path, "--report: is the archive -o names"), (stills[0], "--report: is an input")] {
            let r = try CLI.run(args + ["--report", path])
            XCTAssertEqual(r.status, 2, words)
            XCTAssertTrue(r.stderr.contains(words), r.stderr)
        }
    }

    /// A main.png and tab.png made by hand beside the artwork (LINE's own names) are the set's
    /// pictures, fitted to LINE's sizes, never stickers; one alone makes both.
    /// A LINE set stickerkit packed, packed again (alone, or with new artwork): its stickers and
    /// pictures are taken as they are. They were converted again from the first sticker, each
    /// sticker given a second margin (8 stills: 257,134 bytes of archive became 223,506) and the
    /// pictures made anew from 01.png instead of the image given to the first pack.
    func testASetPackedAgainKeepsItsStickersAndPictures() throws {
        let old = tmp.appendingPathComponent("Old.zip")
        XCTAssertEqual(try CLI.run(["pack", "--platform", "line"] + stills + ["-o", old.path, "--icon", sample("rocket_640x427.jpg"),
                                                                             "--cache", tmp.appendingPathComponent("c1").path]).status, 0)
        let before = try entries(old)
        let new = tmp.appendingPathComponent("New.zip")
        let r = try CLI.run(["pack", "--platform", "line", old.path, "-o", new.path, "--cache", tmp.appendingPathComponent("c2").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("main and chat tab images from \(old.path)/main.png; 0 converted, 0 up to date, 8 kept as stickerkit made them\n"),
                      r.stdout)
        let after = try entries(new)
        XCTAssertEqual(after.map(\.name), before.map(\.name))
        for (a, b) in zip(after, before) { XCTAssertEqual(a.bytes, b.bytes, a.name) }

        // Under a smaller budget, those past it are converted again.
        let over = before.prefix(8).filter { $0.bytes.count > 30_000 }.count
        XCTAssertGreaterThan(over, 0)
        let small = try CLI.run(["pack", "--platform", "line", old.path, "-o", tmp.appendingPathComponent("Small.zip").path, "--max-kb", "30",
                                 "--cache", tmp.appendingPathComponent("c2").path])
        XCTAssertTrue(small.stdout.hasSuffix("; \(over) converted, 0 up to date, \(8 - over) kept as stickerkit made them\n"), small.stdout)

        // With eight new stills: the old eight as they were, then the new ones converted.
        let more = tmp.appendingPathComponent("more")
        try FileManager.default.createDirectory(at: more, withIntermediateDirectories: true)
        for (k, path) in stills.enumerated() { try FileManager.default.copyItem(atPath: path, toPath: more.appendingPathComponent("\(k)-" + (path as NSString).lastPathComponent).path) }
        let mixed = tmp.appendingPathComponent("Mixed.zip"), report = tmp.appendingPathComponent("report.json")
        let m = try CLI.run(["pack", "--platform", "line", old.path, more.path, "-o", mixed.path, "--cache", tmp.appendingPathComponent("c3").path,
                             "--report", report.path])
        XCTAssertEqual(m.status, 0, m.stderr)
        XCTAssertTrue(m.stdout.hasSuffix("; 8 converted, 0 up to date, 8 kept as stickerkit made them\n"), m.stdout)
        let files = try entries(mixed)
        assertLineSet(files, count: 16, animated: false, animatedMain: false)
        XCTAssertEqual(files.prefix(8).map(\.bytes), before.prefix(8).map(\.bytes))
        XCTAssertEqual(files.suffix(2).map(\.bytes), before.suffix(2).map(\.bytes))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let inputs = try XCTUnwrap(json["inputs"] as? [[String: Any]])
        let outputs = inputs.compactMap { ($0["outputs"] as? [[String: Any]])?.first }
        XCTAssertEqual(outputs.prefix(8).map { $0["reason"] as? String }, Array(repeating: "kept as it is: a LINE sticker stickerkit packed", count: 8))
        XCTAssertEqual(outputs.suffix(8).map { $0["status"] as? String }, Array(repeating: "written", count: 8))

        // Another tool's ZIP of the same stickers is artwork: converted (margin and all).
        let other = tmp.appendingPathComponent("other.zip")
        try Data(StoredZip(entries: before.map { .init(name: $0.name, bytes: $0.bytes) }).bytes()).write(to: other)
        let o = try CLI.run(["pack", "--platform", "line", other.path, "-o", tmp.appendingPathComponent("FromOther.zip").path,
                             "--cache", tmp.appendingPathComponent("c4").path])
        XCTAssertEqual(o.status, 0, o.stderr)
        XCTAssertTrue(o.stdout.hasSuffix("; 8 converted, 0 up to date\n"), o.stdout)
    }

    /// Stickers `resize --platform line` wrote, named to `pack --platform line`: taken as they
    /// are. Each was converted again and given a second margin (the teddy bear's 234×320 with
    /// 34 px on its left came out 240×320 with 42). One edited since, or one made for another
    /// app, is artwork: converted.
    func testStickersResizeWroteForLineArePackedAsTheyAre() throws {
        let line = tmp.appendingPathComponent("line"), messages = tmp.appendingPathComponent("messages")
        for (folder, extra) in [(line, ["--platform", "line"]), (messages, ["--size", "regular"])] {
            let r = try CLI.run(["resize"] + stills + ["-o", folder.path, "--quiet"] + extra)
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        func named(_ folder: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }.sorted()
                .map { folder.appendingPathComponent($0).path }
        }
        let files = try named(line)
        XCTAssertEqual(files.count, 8)
        let archive = tmp.appendingPathComponent("Set.zip")
        let r = try CLI.run(["pack", "--platform", "line"] + files + ["-o", archive.path, "--cache", tmp.appendingPathComponent("c").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("; 0 converted, 0 up to date, 8 kept as stickerkit made them\n"), r.stdout)
        // The pictures are made from the first sticker's own artwork, not from the sticker (whose
        // margin they would hold inside their own).
        let first = try XCTUnwrap(stills.first { ($0 as NSString).lastPathComponent.hasPrefix("exif_orientation_6_portrait") })
        XCTAssertEqual((files[0] as NSString).lastPathComponent, "exif_orientation_6_portrait.png")
        XCTAssertTrue(r.stdout.contains("main and chat tab images from \(first);"), r.stdout)
        let packed = try entries(archive)
        assertLineSet(packed, count: 8, animated: false, animatedMain: false)
        let fromArtwork = tmp.appendingPathComponent("FromArtwork.zip")
        XCTAssertEqual(try CLI.run(["pack", "--platform", "line"] + stills + ["-o", fromArtwork.path, "--cache", tmp.appendingPathComponent("c0").path,
                                                                             "--icon", first]).status, 0)
        XCTAssertEqual(packed.suffix(2).map(\.bytes), try entries(fromArtwork).suffix(2).map(\.bytes), "main.png and tab.png")
        for (entry, file) in zip(packed, files) { XCTAssertEqual(entry.bytes, [UInt8](try Data(contentsOf: URL(fileURLWithPath: file))), file) }

        // Named by a relative path from the folder above, and with a report saying so.
        let report = tmp.appendingPathComponent("report.json")
        let relative = try CLI.run(["pack", "--platform", "line"] + files.map { "line/" + ($0 as NSString).lastPathComponent }
                                   + ["-o", "Relative.zip", "--cache", "c", "--report", report.path], in: tmp)
        XCTAssertEqual(relative.status, 0, relative.stderr)
        XCTAssertTrue(relative.stdout.hasSuffix(", 8 kept as stickerkit made them\n"), relative.stdout)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let reasons = try XCTUnwrap(json["inputs"] as? [[String: Any]]).compactMap { ($0["outputs"] as? [[String: Any]])?.first?["reason"] as? String }
        XCTAssertEqual(reasons, Array(repeating: "kept as it is: a LINE sticker stickerkit wrote", count: 8))

        // One edited since it was written: converted again, the others kept.
        var edited = [UInt8](try Data(contentsOf: URL(fileURLWithPath: files[0])))
        edited += Array("tEXt".utf8)   // trailing bytes after IEND: the same image, not the recorded file
        try Data(edited).write(to: URL(fileURLWithPath: files[0]))
        let e = try CLI.run(["pack", "--platform", "line"] + files + ["-o", tmp.appendingPathComponent("Edited.zip").path,
                                                                      "--cache", tmp.appendingPathComponent("c").path])
        XCTAssertEqual(e.status, 0, e.stderr)
        XCTAssertTrue(e.stdout.hasSuffix("; 1 converted, 0 up to date, 7 kept as stickerkit made them\n"), e.stdout)

        // Messages' stickers are artwork for LINE.
        let m = try CLI.run(["pack", "--platform", "line"] + (try named(messages)) + ["-o", tmp.appendingPathComponent("FromMessages.zip").path,
                                                                                      "--cache", tmp.appendingPathComponent("c").path])
        XCTAssertEqual(m.status, 0, m.stderr)
        XCTAssertTrue(m.stdout.hasSuffix("; 8 converted, 0 up to date\n"), m.stdout)
    }

    func testHandMadePicturesBesideTheArtworkAreTheSetsPictures() throws {
        let art = tmp.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        for s in stills { try FileManager.default.copyItem(atPath: s, toPath: art.appendingPathComponent((s as NSString).lastPathComponent).path) }
        try FileManager.default.copyItem(atPath: sample("oc_saxophone_palette.png"), toPath: art.appendingPathComponent("main.png").path)
        let archive = tmp.appendingPathComponent("HandMade.zip")
        let args = ["pack", "--platform", "line", art.path, "-o", archive.path, "--cache", tmp.appendingPathComponent("cache").path]
        let one = try CLI.run(args)
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdout.contains("8 still LINE stickers") && one.stdout.contains("images from \(art.path)/main.png;"), one.stdout)
        assertLineSet(try entries(archive), count: 8, animated: false, animatedMain: false)
        try FileManager.default.copyItem(atPath: sample("oc_stop_sign_shadow.png"), toPath: art.appendingPathComponent("TAB.png").path)
        let two = try CLI.run(args)
        XCTAssertEqual(two.status, 0, two.stderr)
        XCTAssertTrue(two.stdout.contains("images from \(art.path)/main.png and \(art.path)/TAB.png;"), two.stdout)
        let files = try entries(archive)
        assertLineSet(files, count: 8, animated: false, animatedMain: false)
        XCTAssertNotEqual(files[8].bytes, files[9].bytes)
    }
}
