import Foundation
import StickerKit
import ImageDecoding
import StickerPackaging
@testable import StickerkitCLI
import XCTest

/// `pack --platform whatsapp` end to end: the archive is read back with Python's zipfile (names,
/// sizes, CRCs) and every sticker in it passes WhatsApp's rules (`PlatformChecker`).
final class WastickersCommandTests: XCTestCase {
    var tmp: URL!
    override func setUpWithError() throws { tmp = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func sample(_ name: String) -> String { CLI.repositoryRoot.appendingPathComponent("samples").appendingPathComponent(name).path }
    var stills: [String] { ["oc_teddybear.png", "oc_saxophone_palette.png", "oc_stop_sign_shadow.png"].map(sample) }

    /// `packs/Cats.wastickers`, packed from `stills` with the title "Cats".
    func catsPack() throws -> URL {
        let folder = tmp.appendingPathComponent("packs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent("Cats.wastickers")
        XCTAssertEqual(try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", archive.path, "--title", "Cats"]).status, 0)
        return archive
    }

    func testPackWritesAWastickersArchiveOfCheckedStickers() throws {
        let archive = tmp.appendingPathComponent("Cats.wastickers")
        let r = try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", archive.path, "--author", "Ünï Artist",
                                                                            "--icon", sample("noto_1f600_grinning_face_512.png")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("3 still WhatsApp stickers"), r.stdout)
        XCTAssertFalse(r.stderr.contains("first frame"), r.stderr)
        // A tray given as an animation is a still of its first frame, and says so once.
        let gif = sample("cogs_small_transparent.gif")
        let animated = try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", tmp.appendingPathComponent("Cogs.wastickers").path,
                                                                                 "--icon", gif])
        XCTAssertEqual(animated.status, 0, animated.stderr)
        XCTAssertEqual(animated.stderr.components(separatedBy: "\n").filter {
            $0.hasPrefix("\(gif): warning: source is an animation of 5 frames: its first frame alone shows in the tray icon")
        }.count, 1, animated.stderr)

        let out = tmp.appendingPathComponent("unzipped")
        let names = try CLI.unzip(archive, into: out)
        XCTAssertEqual(names, ["01.webp", "02.webp", "03.webp", "tray.png", "title.txt", "author.txt"])
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("title.txt"), encoding: .utf8), "Cats")
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("author.txt"), encoding: .utf8), "Ünï Artist")
        for name in ["01.webp", "02.webp", "03.webp"] {
            let bytes = [UInt8](try Data(contentsOf: out.appendingPathComponent(name)))
            let report = PlatformChecker.check(bytes, path: name, target: .whatsapp)
            XCTAssertNotEqual(report.verdict, .error, "\(name): \(report.findings)")
            XCTAssertEqual(Array(bytes[8..<12]), Array("WEBP".utf8))
        }
        let tray = [UInt8](try Data(contentsOf: out.appendingPathComponent("tray.png")))
        XCTAssertEqual(Array(tray[1..<4]), Array("PNG".utf8))
        XCTAssertLessThanOrEqual(tray.count, 50_000)
        XCTAssertEqual(Int(tray[16]) << 24 | Int(tray[17]) << 16 | Int(tray[18]) << 8 | Int(tray[19]), 96)

        // A rerun replaces stickerkit's own archive; the same one is left as it is, date too.
        let again = try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", archive.path, "-q"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: archive.path)
        let same = try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", archive.path])
        XCTAssertTrue(same.stdout.hasPrefix(archive.path + ": unchanged, 3 still WhatsApp stickers"), same.stdout)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: archive.path)[.modificationDate] as? Date, old)
        let retitled = try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", archive.path, "--title", "Other"])
        XCTAssertTrue(retitled.stdout.hasPrefix(archive.path + ": 3 still WhatsApp stickers"), retitled.stdout)
        XCTAssertNotEqual(try FileManager.default.attributesOfItem(atPath: archive.path)[.modificationDate] as? Date, old)
    }

    func testPackRulesAndOwnership() throws {
        // All stills or all animations: one line, exit 1, nothing written.
        let mixed = tmp.appendingPathComponent("mixed.wastickers")
        let m = try CLI.run(["pack", "--platform", "whatsapp"] + stills + [sample("ring_200_6f.webp"), "-o", mixed.path])
        XCTAssertEqual(m.status, 1)
        XCTAssertTrue(m.stderr.contains("3 stills and 1 animation: a WhatsApp pack is all stills or all animations; make two packs (animations: "
                                        + sample("ring_200_6f.webp") + ")"), m.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: mixed.path))
        // An animation stays one, even when its frames are all the same (this APNG's three).
        let same = try CLI.run(["pack", "--platform", "whatsapp", sample("ring_200_6f.webp"), sample("cogs_small_transparent.gif"),
                                sample("maneki_neko_palette_3f.apng"), "-o", mixed.path, "-q"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertFalse(same.stderr.contains("came out as one WebP frame"), same.stderr)
        try FileManager.default.removeItem(at: mixed)
        let animated = try CLI.run(["pack", "--platform", "whatsapp", sample("ring_200_6f.webp"), sample("cogs_small_transparent.gif"),
                                    sample("elephant_480x400_34f.png"), "-o", mixed.path, "-q"])
        XCTAssertEqual(animated.status, 0, animated.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: mixed.path))
        try FileManager.default.removeItem(at: mixed)
        // Fewer than 3.
        let few = try CLI.run(["pack", "--platform", "whatsapp", stills[0], "-o", mixed.path])
        XCTAssertEqual(few.status, 1)
        XCTAssertTrue(few.stderr.contains("1 sticker: a WhatsApp pack holds 3 to 30"), few.stderr)
        // Someone else's file is kept unless --overwrite.
        let theirs = tmp.appendingPathComponent("theirs.wastickers")
        try Data("not ours".utf8).write(to: theirs)
        let kept = try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", theirs.path])
        XCTAssertEqual(kept.status, 2)
        XCTAssertTrue(kept.stderr.contains("--overwrite replaces it"), kept.stderr)
        XCTAssertEqual(try Data(contentsOf: theirs), Data("not ours".utf8))
        let replaced = try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", theirs.path, "--overwrite"])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(WastickersPack.isStickerkitArchive([UInt8](try Data(contentsOf: theirs))))
        // Usage errors.
        XCTAssertEqual(try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", tmp.appendingPathComponent("x.zip").path]).status, 2)
        XCTAssertEqual(try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", mixed.path, "--title", "a\nb"]).status, 2)
        // Catalog-only options are refused with one line naming the flag (the tray icon is a
        // transparent PNG: no background, and WhatsApp's own fit).
        for flag in [["--icon-fit", "contain"], ["--icon-background", "black"], ["--prune"]] {
            let r = try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", mixed.path] + flag)
            XCTAssertEqual(r.status, 2, flag[0])
            XCTAssertTrue(r.stderr.contains("\(flag[0]) is for Xcode sticker catalogs, not --platform whatsapp"), r.stderr)
        }
    }

    /// `--dry-run` makes the archive without writing it: one line per entry it would add,
    /// replace or drop, the summary on stderr, the pack's rules as the run applies them; the file
    /// at `-o` stays as it was (or absent), and the run that follows converts nothing.
    func testDryRunSaysWhatTheArchiveWouldHoldAndWritesNothing() throws {
        let fm = FileManager.default
        let art = tmp.appendingPathComponent("art")
        try fm.createDirectory(at: art, withIntermediateDirectories: true)
        for (name, s) in zip(["a.png", "b.png", "c.png"], stills) { try fm.copyItem(atPath: s, toPath: art.appendingPathComponent(name).path) }
        let archive = tmp.appendingPathComponent("Cats.wastickers"), cache = tmp.appendingPathComponent("cache")
        let args = ["pack", "--platform", "whatsapp", art.path, "-o", archive.path, "--cache", cache.path]

        let first = try CLI.run(args + ["--dry-run"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout.split(separator: "\n").map(String.init),
                       ["01.webp: would be added (from \(art.path)/a.png)", "02.webp: would be added (from \(art.path)/b.png)",
                        "03.webp: would be added (from \(art.path)/c.png)", "tray.png: would be added (from \(art.path)/a.png)",
                        "title.txt: would be added", "author.txt: would be added"].map { archive.path + "/" + $0 })
        XCTAssertTrue(first.stderr.contains("dry run: \(archive.path): would be written (new), 3 still WhatsApp stickers, "), first.stderr)
        XCTAssertTrue(first.stderr.hasSuffix("3 converted, 0 up to date; the archive was not changed\n"), first.stderr)
        XCTAssertFalse(fm.fileExists(atPath: archive.path), "a dry run wrote the archive")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: tmp.path).sorted(), ["art", "cache"], "nothing beside the archive")

        let made = try CLI.run(args)
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stdout.contains("0 converted, 3 up to date"), made.stdout)
        let written = try Data(contentsOf: archive)
        let date = try fm.attributesOfItem(atPath: archive.path)[.modificationDate] as? Date

        // Nothing changed: no line, "unchanged". Then c.png redrawn, a new d.png, a new title.
        let same = try CLI.run(args + ["--dry-run"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(same.stdout, "")
        XCTAssertTrue(same.stderr.contains("dry run: \(archive.path): unchanged, 3 still WhatsApp stickers"), same.stderr)
        try fm.removeItem(at: art.appendingPathComponent("c.png"))
        try fm.copyItem(atPath: sample("noto_1f600_grinning_face_512.png"), toPath: art.appendingPathComponent("c.png").path)
        try fm.copyItem(atPath: stills[2], toPath: art.appendingPathComponent("d.png").path)
        let changed = try CLI.run(args + ["--dry-run", "--title", "Dogs"])
        XCTAssertEqual(changed.status, 0, changed.stderr)
        XCTAssertEqual(changed.stdout.split(separator: "\n").map(String.init),
                       ["03.webp: would be replaced (from \(art.path)/c.png)", "04.webp: would be added (from \(art.path)/d.png)",
                        "title.txt: would be replaced"].map { archive.path + "/" + $0 })
        XCTAssertTrue(changed.stderr.contains("would be replaced, 4 still WhatsApp stickers"), changed.stderr)
        // A pack of stills and an animation: the run's own error line, exit 1, nothing written.
        try fm.copyItem(atPath: sample("ring_200_6f.webp"), toPath: art.appendingPathComponent("e.webp").path)
        let mixed = try CLI.run(args + ["--dry-run"])
        XCTAssertEqual(mixed.status, 1, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("4 stills and 1 animation: a WhatsApp pack is all stills or all animations"), mixed.stderr)
        XCTAssertEqual(try Data(contentsOf: archive), written, "a dry run changed the archive")
        XCTAssertEqual(try fm.attributesOfItem(atPath: archive.path)[.modificationDate] as? Date, date)
        XCTAssertEqual(try CLI.run(args + ["--dry-run", "--report", tmp.appendingPathComponent("r.json").path]).status, 2)
    }

    /// Without --icon, the tray comes from the first input packed: an input that is no image,
    /// first in input order, is named once (it was the tray, and its one line stopped the run
    /// with no archive and nothing said of the others), and the stickers that converted still
    /// make the pack.
    func testABrokenFirstInputIsNamedOnceAndTheRestArePacked() throws {
        let art = tmp.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: art.appendingPathComponent("a-words.png"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: art.appendingPathComponent("b-signature.png"))
        for (i, s) in stills.enumerated() {
            try FileManager.default.copyItem(atPath: s, toPath: art.appendingPathComponent("c\(i)-" + (s as NSString).lastPathComponent).path)
        }
        let archive = tmp.appendingPathComponent("Cats.wastickers")
        let r = try CLI.run(["pack", "--platform", "whatsapp", art.path, "-o", archive.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        guard lines.count == 2 else { return XCTFail("not one line per failed input:\n" + r.stderr) }
        XCTAssertTrue(lines[0].hasPrefix(art.appendingPathComponent("a-words.png").path + ": error: not an image"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix(art.appendingPathComponent("b-signature.png").path + ": error: "), lines[1])
        XCTAssertTrue(r.stdout.contains("3 still WhatsApp stickers"), r.stdout)
        XCTAssertTrue(r.stdout.contains("tray icon from " + art.appendingPathComponent("c0-oc_teddybear.png").path), r.stdout)
        XCTAssertTrue(r.stdout.contains("2 inputs failed"), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: archive.path))

        // Too few stickers left: every failed input is named, then the pack's rule, on one line each.
        let few = tmp.appendingPathComponent("few")
        try FileManager.default.createDirectory(at: few, withIntermediateDirectories: true)
        for name in ["a-words.png", "b-signature.png", "c0-oc_teddybear.png"] {
            try FileManager.default.copyItem(at: art.appendingPathComponent(name), to: few.appendingPathComponent(name))
        }
        let small = tmp.appendingPathComponent("Few.wastickers")
        let f = try CLI.run(["pack", "--platform", "whatsapp", few.path, "-o", small.path])
        XCTAssertEqual(f.status, 1, f.stderr)
        let fl = f.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(fl.count, 3, f.stderr)
        XCTAssertEqual(fl.last, small.path + ": error: 1 sticker: a WhatsApp pack holds 3 to 30; 2 inputs failed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: small.path))
    }

    /// The archive may go in the artwork's own folder (one file, never read back as artwork):
    /// it was refused as "-o: is also an input folder".
    func testTheArchiveMayGoInTheArtworksFolder() throws {
        let art = tmp.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        for s in stills { try FileManager.default.copyItem(atPath: s, toPath: art.appendingPathComponent((s as NSString).lastPathComponent).path) }
        let archive = art.appendingPathComponent("Art.wastickers")
        for run in 1...2 {
            let r = try CLI.run(["pack", "--platform", "whatsapp", art.path, "-o", archive.path])
            XCTAssertEqual(r.status, 0, "run \(run): \(r.stderr)")
            XCTAssertTrue(r.stdout.contains("3 still WhatsApp stickers"), r.stdout)
        }
        XCTAssertEqual(try CLI.run(["check", archive.path]).status, 0)
    }

    /// `check` reads the archive `pack` wrote as a WhatsApp pack (named, or found in a folder,
    /// with any `--platform`); `preview` shows its stickers.
    func testCheckReadsTheArchiveAsAPack() throws {
        let archive = try catsPack()
        let folder = archive.deletingLastPathComponent()
        let check = try CLI.run(["check", archive.path])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let lines = check.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "WhatsApp pack \(archive.path): 3 stickers, \u{201C}Cats\u{201D} by stickerkit")
        XCTAssertEqual(lines.filter { $0.hasPrefix("ok     WebP   512×512") }.count, 3, check.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("ok     PNG    96×96") && $0.hasSuffix(archive.path + "/tray.png") }, check.stdout)
        XCTAssertEqual(lines.last, "3 stickers in 1 WhatsApp pack: 0 errors, 0 warnings")

        // Found in a folder beside a sticker, as JSON; and under another app's rules, a warning.
        try FileManager.default.copyItem(atPath: sample("oc_teddybear.png"), toPath: folder.appendingPathComponent("bear.png").path)
        let json = try CLI.run(["check", folder.path, "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let packs = report?["wastickers"] as? [[String: Any]]
        XCTAssertEqual(packs?.count, 1, json.stdout)
        XCTAssertEqual((packs?.first?["stickers"] as? [Any])?.count, 3)
        XCTAssertEqual((report?["stickers"] as? [Any])?.count, 1)
        let telegram = try CLI.run(["check", "--platform", "telegram", folder.path])
        XCTAssertTrue(telegram.stdout.contains("warning  format: a WhatsApp pack: checked by WhatsApp's rules, not Telegram's"),
                      telegram.stdout)
        XCTAssertTrue(telegram.stdout.hasSuffix("3 stickers in 1 WhatsApp pack and 1 file: 1 error, 1 warning\n"), telegram.stdout)

        // A damaged copy: its broken entry is named, exit 1.
        var bytes = [UInt8](try Data(contentsOf: archive))
        bytes[60] ^= 0xFF
        let damaged = tmp.appendingPathComponent("damaged.wastickers")
        try Data(bytes).write(to: damaged)
        let bad = try CLI.run(["check", damaged.path])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stdout.contains("unreadable: 01.webp: CRC-32"), bad.stdout)

        // `preview` shows the pack's stickers and tray, read from the archive, beside the bear;
        // a pack WhatsApp refuses (one sticker, no author) is shown with a warning per rule.
        let pv = tmp.appendingPathComponent("pv")
        let preview = try CLI.run(["preview", folder.path, "-o", pv.path])
        XCTAssertEqual(preview.status, 0, preview.stderr)
        XCTAssertEqual(preview.stderr, "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pv.appendingPathComponent("stickers").path).sorted(),
                       ["001-bear.png", "002-01.webp", "003-02.webp", "004-03.webp", "005-tray.png"])
        let reader = try ZipReader([UInt8](try Data(contentsOf: archive)))
        var unzipped: [String: [UInt8]] = [:]
        for e in reader.entries { unzipped[e.name] = try reader.contents(of: e, limit: 1 << 20) }
        XCTAssertEqual([UInt8](try Data(contentsOf: pv.appendingPathComponent("stickers/003-02.webp"))), unzipped["02.webp"])
        let small = tmp.appendingPathComponent("small.wastickers")
        try Data(StoredZip(entries: [.init(name: "01.webp", bytes: unzipped["01.webp"]!), .init(name: "tray.png", bytes: unzipped["tray.png"]!),
                                     .init(name: "title.txt", bytes: Array("T".utf8))]).bytes()).write(to: small)
        let shown = try CLI.run(["preview", small.path, damaged.path, "-o", tmp.appendingPathComponent("pv2").path])
        XCTAssertEqual(shown.status, 1, shown.stderr)
        let shownLines = shown.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(shownLines.prefix(2)), [
            small.path + ": warning: missing-file: no author.txt: WhatsApp needs the pack's author",
            small.path + ": warning: sticker-count: 1 sticker: a WhatsApp pack holds 3 to 30",
        ])
        XCTAssertEqual(shownLines.count, 3, shown.stderr)
        XCTAssertTrue(shownLines.last!.hasPrefix(damaged.path + "/01.webp: error: 01.webp: CRC-32 "), shown.stderr)
        // An entry name that opens with a combining mark (FuzzCheck made one) joins the "/"
        // before it into one Character: preview read "no longer in the archive" for it.
        let marked = tmp.appendingPathComponent("marked.wastickers")
        try Data(StoredZip(entries: [.init(name: "\u{065B}01.webp", bytes: unzipped["01.webp"]!),
                                     .init(name: "02.webp", bytes: unzipped["02.webp"]!), .init(name: "03.webp", bytes: unzipped["03.webp"]!),
                                     .init(name: "tray.png", bytes: unzipped["tray.png"]!), .init(name: "title.txt", bytes: Array("T".utf8)),
                                     .init(name: "author.txt", bytes: Array("A".utf8))]).bytes()).write(to: marked)
        let markedPreview = try CLI.run(["preview", marked.path, "-o", tmp.appendingPathComponent("pv4").path])
        XCTAssertEqual(markedPreview.status, 0, markedPreview.stderr)
        XCTAssertEqual(markedPreview.stderr, "")
        // A ZIP with no sticker in it is one line, no pack findings.
        let notes = tmp.appendingPathComponent("notes.zip")
        try Data(StoredZip(entries: [.init(name: "readme.txt", bytes: Array("hi".utf8))]).bytes()).write(to: notes)
        let none = try CLI.run(["preview", notes.path, "-o", tmp.appendingPathComponent("pv3").path])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stderr, notes.path + ": error: a ZIP archive with no image in it (stickerkit reads PNG, APNG, GIF, JPEG and WebP)\n")
    }

    /// A pack's stickers pack again: `pack` makes a Messages catalog of a WhatsApp pack (its
    /// record names each sticker's source as `PACK/ENTRY`; a rerun is unchanged), and `pack
    /// --platform whatsapp` a WhatsApp pack of another app's ZIP, its tray from the first
    /// sticker. Both said "a ZIP archive … unzip it first".
    func testPackTakesThePacksOfOtherApps() throws {
        let whatsapp = tmp.appendingPathComponent("Cats.wastickers")
        XCTAssertEqual(try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", whatsapp.path]).status, 0)
        let catalog = tmp.appendingPathComponent("Cats.xcstickers")
        let made = try CLI.run(["pack", whatsapp.path, "-o", catalog.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertTrue(made.stdout.contains("3 stickers (regular): 3 added"), made.stdout)
        let record = try String(contentsOf: catalog.appendingPathComponent(".stickerkit.json"), encoding: .utf8)
        XCTAssertTrue(record.contains("\"source\" : \"Cats.wastickers/02.webp\""), record)
        let again = try CLI.run(["pack", whatsapp.path, "-o", catalog.path])
        XCTAssertTrue(again.stdout.contains("0 added, 0 replaced, 3 unchanged"), again.stdout)
        XCTAssertEqual(try CLI.run(["check", catalog.path]).stdout.components(separatedBy: "\nok ").count - 1, 3)

        let other = tmp.appendingPathComponent("telegram.zip")
        try Data(StoredZip(entries: stills.enumerated().map { i, path in
            .init(name: "stickers/\(i).png", bytes: [UInt8](FileManager.default.contents(atPath: path)!))
        }).bytes()).write(to: other)
        let repacked = tmp.appendingPathComponent("FromTelegram.wastickers")
        let r = try CLI.run(["pack", "--platform", "whatsapp", other.path, "-o", repacked.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("tray icon from \(other.path)/stickers/0.png; 3 converted, 0 up to date\n"), r.stdout)
        XCTAssertEqual(try CLI.run(["check", repacked.path]).status, 0)
        // Another app's ZIP is no WhatsApp pack: check checks each image in it as a sticker (by
        // Messages' rules, or --platform's; it said "0 stickers in 1 WhatsApp pack: 4 errors"),
        // and preview shows them (it said "a ZIP archive with no sticker or tray icon in it").
        let checked = try CLI.run(["check", other.path])
        XCTAssertEqual(checked.status, 1, checked.stderr)
        XCTAssertTrue(checked.stdout.hasSuffix("\n3 files: 3 errors, 0 warnings\n"), checked.stdout)
        XCTAssertTrue(checked.stdout.contains(" \(other.path)/stickers/1.png\n"), checked.stdout)
        XCTAssertFalse(checked.stdout.contains("WhatsApp"), checked.stdout)
        let forTelegram = try CLI.run(["check", "--platform", "telegram", other.path])
        XCTAssertTrue(forTelegram.stdout.contains("Telegram stickers are 512×512"), forTelegram.stdout)
        let shown = try CLI.run(["preview", other.path, "-o", tmp.appendingPathComponent("pv").path])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("pv/stickers").path).sorted(),
                       ["001-0.png", "002-1.png", "003-2.png"])

        // An image entry past the 16 MiB a WhatsApp pack's entry may hold (a PNG with a 17 MiB
        // private chunk), in a ZIP of artwork: check reads it as resize would, and preview shows
        // it (it said "over the 16777216 read from one entry" for what check had read).
        var png = [UInt8](FileManager.default.contents(atPath: stills[0])!)
        let chunk = Array("prIv".utf8) + [UInt8](repeating: 7, count: 17 << 20)
        let length = (0..<4).map { UInt8((chunk.count - 4) >> (24 - 8 * $0) & 0xFF) }
        let crc = StoredZip.crc32(chunk)
        png.insert(contentsOf: length + chunk + (0..<4).map { UInt8(crc >> (24 - 8 * UInt32($0)) & 0xFF) }, at: 33)
        let large = tmp.appendingPathComponent("large.zip")
        try Data(StoredZip(entries: [.init(name: "large.png", bytes: png)]).bytes()).write(to: large)
        XCTAssertTrue(try CLI.run(["check", large.path]).stdout.contains("\(large.path)/large.png\n"))
        let largeShown = try CLI.run(["preview", large.path, "-o", tmp.appendingPathComponent("pv-large").path])
        XCTAssertEqual(largeShown.status, 0, largeShown.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("pv-large/stickers").path), ["001-large.png"])
        // An archive past the 64 MiB resize opens: check names it as resize does, not its images.
        let huge = tmp.appendingPathComponent("huge.zip")
        try Data(StoredZip(entries: (0..<4).map { .init(name: "\($0).png", bytes: png) }).bytes()).write(to: huge)
        let hugeChecked = try CLI.run(["check", huge.path])
        XCTAssertEqual(hugeChecked.status, 1)
        XCTAssertTrue(hugeChecked.stdout.contains("an archive stickerkit converts holds at most"), hugeChecked.stdout)
        let hugeResized = try CLI.run(["resize", huge.path, "-o", tmp.appendingPathComponent("huge").path])
        XCTAssertTrue(hugeResized.stderr.contains("an archive stickerkit converts holds at most"), hugeResized.stderr)

        // The archive read is never the archive written, whatever the flags.
        let before = try Data(contentsOf: repacked)
        for flags in [[String](), ["--overwrite"]] {
            let same = try CLI.run(["pack", "--platform", "whatsapp", repacked.path, "-o", repacked.path] + flags)
            XCTAssertEqual(same.status, 2, same.stderr)
            XCTAssertEqual(same.stderr, "\(repacked.path): error: -o: is an input of this pack; choose another name\n")
        }
        XCTAssertEqual(try Data(contentsOf: repacked), before)
    }

    /// The WebPs `resize --platform whatsapp` wrote, named to `pack --platform whatsapp`: taken as
    /// they are (a second lossy encode would blur them); one past a smaller `--max-kb` is
    /// converted again.
    func testStickersResizeWroteForWhatsAppArePackedAsTheyAre() throws {
        let out = tmp.appendingPathComponent("wa")
        XCTAssertEqual(try CLI.run(["resize"] + stills + ["-o", out.path, "--platform", "whatsapp", "--quiet"]).status, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".webp") }.sorted()
            .map { out.appendingPathComponent($0).path }
        XCTAssertEqual(files.count, 3)
        let archive = tmp.appendingPathComponent("Cats.wastickers")
        let r = try CLI.run(["pack", "--platform", "whatsapp"] + files + ["-o", archive.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("; 0 converted, 0 up to date, 3 kept as stickerkit made them\n"), r.stdout)
        let unzipped = tmp.appendingPathComponent("unzipped")
        let names = try CLI.unzip(archive, into: unzipped).filter { $0.hasSuffix(".webp") }
        XCTAssertEqual(names.count, 3)
        for (name, file) in zip(names, files) {
            XCTAssertEqual(try Data(contentsOf: unzipped.appendingPathComponent(name)), try Data(contentsOf: URL(fileURLWithPath: file)), name)
        }
        // The tray is made from the first sticker's own artwork, not from its lossy WebP.
        let first = try XCTUnwrap(stills.first { ($0 as NSString).lastPathComponent.hasPrefix("oc_saxophone_palette") })
        XCTAssertEqual((files[0] as NSString).lastPathComponent, "oc_saxophone_palette.webp")
        XCTAssertTrue(r.stdout.contains("tray icon from \(first);"), r.stdout)
        let fromArtwork = tmp.appendingPathComponent("FromArtwork.wastickers")
        XCTAssertEqual(try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", fromArtwork.path, "--icon", first]).status, 0)
        let given = tmp.appendingPathComponent("given")
        _ = try CLI.unzip(fromArtwork, into: given)
        XCTAssertEqual(try Data(contentsOf: unzipped.appendingPathComponent("tray.png")), try Data(contentsOf: given.appendingPathComponent("tray.png")))
        // A smaller budget than a sticker's size converts it again.
        let sizes = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)).count }
        let kb = (sizes.max()! - 1) / 1000
        let small = try CLI.run(["pack", "--platform", "whatsapp"] + files + ["-o", tmp.appendingPathComponent("Small.wastickers").path,
                                                                          "--max-kb", String(kb)])
        XCTAssertEqual(small.status, 0, small.stderr)
        let over = sizes.filter { $0 > kb * 1000 }.count
        XCTAssertTrue(small.stdout.hasSuffix("; \(over) converted, 0 up to date, \(3 - over) kept as stickerkit made them\n"), small.stdout)
    }

    /// A pack stickerkit wrote, packed again: its stickers (lossy WebP, which a second encode
    /// would blur further), tray icon, title and author are kept; they were converted again, the
    /// tray made from the first sticker and the title taken from the new archive's name.
    func testAPackPackedAgainKeepsItsStickersTrayAndTitle() throws {
        let old = tmp.appendingPathComponent("Old.wastickers")
        XCTAssertEqual(try CLI.run(["pack", "--platform", "whatsapp"] + stills + ["-o", old.path, "--icon", sample("rocket_640x427.jpg"),
                                                                                 "--title", "Cats", "--author", "Ann"]).status, 0)
        let new = tmp.appendingPathComponent("New.wastickers")
        let r = try CLI.run(["pack", "--platform", "whatsapp", old.path, "-o", new.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasSuffix("tray icon from \(old.path)/tray.png; 0 converted, 0 up to date, 3 kept as stickerkit made them\n"),
                      r.stdout)
        let a = tmp.appendingPathComponent("a"), b = tmp.appendingPathComponent("b")
        let names = try CLI.unzip(old, into: a)
        XCTAssertEqual(try CLI.unzip(new, into: b), names)
        for name in names {
            XCTAssertEqual(try Data(contentsOf: b.appendingPathComponent(name)), try Data(contentsOf: a.appendingPathComponent(name)), name)
        }
        // Given, the title and author are the new ones.
        let titled = tmp.appendingPathComponent("Titled.wastickers")
        XCTAssertEqual(try CLI.run(["pack", "--platform", "whatsapp", old.path, "-o", titled.path, "--title", "Dogs"]).status, 0)
        let c = tmp.appendingPathComponent("c")
        _ = try CLI.unzip(titled, into: c)
        XCTAssertEqual(try String(contentsOf: c.appendingPathComponent("title.txt"), encoding: .utf8), "Dogs")
        XCTAssertEqual(try String(contentsOf: c.appendingPathComponent("author.txt"), encoding: .utf8), "Ann")
    }

    /// `resize` converts a pack's stickers (a pack made for one app, converted for another, as
    /// sticker-convert does): it said "a ZIP archive … unzip it first". Each sticker is an input
    /// of its own, named `PACK/ENTRY`, written into a folder named after the pack; the tray icon,
    /// title and author are not stickers; a rerun is up to date; names in the archive never reach
    /// outside `-o`; a pack stickerkit wrote beside the artwork is left out unless named.
    func testResizeConvertsAPacksStickers() throws {
        let archive = try catsPack()
        let folder = archive.deletingLastPathComponent()
        let before = try Data(contentsOf: archive)

        let tg = tmp.appendingPathComponent("tg")
        let report = tmp.appendingPathComponent("r.json")
        let r = try CLI.run(["resize", archive.path, "--platform", "telegram", "-o", tg.path, "--report", report.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: tg.appendingPathComponent("Cats").path).sorted()
        XCTAssertEqual(written.map { ($0 as NSString).deletingPathExtension }, ["01", "02", "03"])
        for name in written {
            let decoded = try ImageDecoder.decode([UInt8](try Data(contentsOf: tg.appendingPathComponent("Cats/\(name)"))))
            XCTAssertEqual(max(decoded.animation.width, decoded.animation.height), 512, name)
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        let inputs = (json?["files"] as? [[String: Any]])?.compactMap { $0["input"] as? String }
        XCTAssertEqual(inputs, ["01.webp", "02.webp", "03.webp"].map { archive.path + "/" + $0 })
        let again = try CLI.run(["resize", archive.path, "--platform", "telegram", "-o", tg.path, "--report", report.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        let statuses = ((try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])?["files"] as? [[String: Any]])?
            .flatMap { ($0["outputs"] as? [[String: Any]]) ?? [] }.compactMap { $0["reason"] as? String }
        XCTAssertEqual(statuses, ["up to date", "up to date", "up to date"])

        // In a folder: the pack stickerkit wrote there is its output, left out; another app's
        // pack (sticker-convert's cover.png is its tray) is converted, its names kept inside -o.
        let reader = try ZipReader([UInt8](before))
        var unzipped: [String: [UInt8]] = [:]
        for e in reader.entries { unzipped[e.name] = try reader.contents(of: e, limit: 1 << 20) }
        try Data(StoredZip(entries: [.init(name: "../../escape.webp", bytes: unzipped["01.webp"]!),
                                     .init(name: "sub/02.webp", bytes: unzipped["02.webp"]!),
                                     .init(name: "cover.png", bytes: unzipped["tray.png"]!),
                                     .init(name: "title.txt", bytes: Array("Dogs".utf8))]).bytes())
            .write(to: folder.appendingPathComponent("Dogs.wastickers"))
        // An archive rewritten with one entry less (of another size, the others' bytes the same):
        // the others are up to date, found by their own bytes (every one was converted again).
        let edited = tmp.appendingPathComponent("Edited.wastickers")
        try Data(StoredZip(entries: ["01.webp", "02.webp", "03.webp"].map { .init(name: $0, bytes: unzipped[$0]!) }).bytes()).write(to: edited)
        let editedOut = tmp.appendingPathComponent("edited")
        XCTAssertEqual(try CLI.run(["resize", edited.path, "-o", editedOut.path, "--size", "small"]).status, 0)
        try Data(StoredZip(entries: ["01.webp", "03.webp"].map { .init(name: $0, bytes: unzipped[$0]!) }).bytes()).write(to: edited)
        XCTAssertEqual(try CLI.run(["resize", edited.path, "-o", editedOut.path, "--size", "small", "--report", report.path]).status, 0)
        let reasons = ((try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])?["files"] as? [[String: Any]])?
            .flatMap { ($0["outputs"] as? [[String: Any]]) ?? [] }.compactMap { $0["reason"] as? String }
        XCTAssertEqual(reasons, ["up to date", "up to date"])
        // A LINE upload: its main and chat tab images (and a Telegram thumbnail) are not stickers.
        try Data(StoredZip(entries: ["main.png", "tab.png", "thumbnail.png", "01.png", "02.png"].map {
            .init(name: $0, bytes: unzipped["tray.png"]!)
        }).bytes()).write(to: folder.appendingPathComponent("line.zip"))
        let line = try CLI.run(["resize", folder.appendingPathComponent("line.zip").path, "-o", tmp.appendingPathComponent("line").path,
                                "--size", "small"])
        XCTAssertEqual(line.status, 0, line.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("line/line").path).sorted(),
                       ["01.png", "02.png"])
        // Names that differ only in case are two stickers (one renamed, its holder named as
        // PACK/ENTRY); a name given twice in one archive is one, its first entry, and the other
        // is named (it was dropped without a word).
        let cased = tmp.appendingPathComponent("cased.zip")
        try Data(StoredZip(entries: [.init(name: "A.png", bytes: unzipped["tray.png"]!), .init(name: "a.png", bytes: unzipped["tray.png"]!),
                                     .init(name: "a.png", bytes: Array("not an image".utf8))]).bytes()).write(to: cased)
        let renamed = try CLI.run(["resize", cased.path, "-o", tmp.appendingPathComponent("cased").path, "--size", "small"])
        XCTAssertEqual(renamed.status, 0, renamed.stderr)
        XCTAssertEqual(renamed.stderr, "\(cased.path)/a.png: warning: skipped: another entry of the archive has this name; its first is read\n"
                       + "\(cased.path)/a.png: warning: cased/a.png is taken by \(cased.path)/A.png; written as cased/a.png.png\n")
        // Names in code page 437 (a ZIP made by Windows' Explorer: no UTF-8 flag): Café and Cafè
        // are two stickers, named as they were. Read as UTF-8 both were "Caf\u{FFFD}.png", and
        // the second was lost.
        var windows = StoredZip(entries: [.init(name: "Caf1.png", bytes: unzipped["tray.png"]!),
                                          .init(name: "Caf2.png", bytes: unzipped["tray.png"]!)]).bytes()
        for i in 0..<(windows.count - 8) {
            if windows[i..<(i + 4)].elementsEqual([0x50, 0x4B, 3, 4]) { windows[i + 7] &= ~0x08 }       // local header flags
            if windows[i..<(i + 4)].elementsEqual([0x50, 0x4B, 1, 2]) { windows[i + 9] &= ~0x08 }       // central header flags
            if windows[i..<(i + 4)].elementsEqual(Array("Caf1".utf8)) { windows[i + 3] = 0x82 }        // é
            if windows[i..<(i + 4)].elementsEqual(Array("Caf2".utf8)) { windows[i + 3] = 0x8A }        // è
        }
        let cp437 = tmp.appendingPathComponent("windows.zip")
        try Data(windows).write(to: cp437)
        let accented = try CLI.run(["resize", cp437.path, "-o", tmp.appendingPathComponent("cp437").path, "--size", "small"])
        XCTAssertEqual(accented.status, 0, accented.stderr)
        XCTAssertEqual(accented.stderr, "")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("cp437/windows").path)
                        .map { $0.precomposedStringWithCanonicalMapping }.sorted(), ["Cafè.png", "Café.png"])
        // Entries that share their bytes (the second record points at the first entry's data):
        // one small file cannot stand for many inputs.
        var shared = StoredZip(entries: [.init(name: "01.png", bytes: unzipped["tray.png"]!),
                                         .init(name: "02.png", bytes: unzipped["tray.png"]!)]).bytes()
        let u32 = { (at: Int) in Int(shared[at]) | Int(shared[at + 1]) << 8 | Int(shared[at + 2]) << 16 | Int(shared[at + 3]) << 24 }
        let second = u32(shared.count - 22 + 16) + 46 + 6      // the central directory, past its first record ("01.png")
        for k in 0..<4 { shared[second + 42 + k] = 0 }
        let bomb = tmp.appendingPathComponent("shared.zip")
        try Data(shared).write(to: bomb)
        let refused = try CLI.run(["resize", bomb.path, "-o", tmp.appendingPathComponent("bomb").path, "--size", "small"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, bomb.path + ": error: a ZIP archive whose entries share their bytes (a ZIP bomb's trick); not read\n")
        // In a ZIP of artwork (no .wastickers name, no title or author), a PNG beside WebPs is a
        // sticker, not a tray: it was left out without a word.
        let mixed = tmp.appendingPathComponent("mixed.zip")
        try Data(StoredZip(entries: [.init(name: "01.webp", bytes: unzipped["01.webp"]!), .init(name: "logo.png", bytes: unzipped["tray.png"]!)])
            .bytes()).write(to: mixed)
        XCTAssertEqual(try CLI.run(["resize", mixed.path, "-o", tmp.appendingPathComponent("mixed").path, "--size", "small"]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("mixed/mixed").path).sorted(),
                       ["01.png", "logo.png"])
        // More images than one archive may give: one line, nothing converted.
        let many = tmp.appendingPathComponent("many.zip")
        try Data(StoredZip(entries: (0...ArchiveInputs.maxImages).map { .init(name: "\($0).png", bytes: unzipped["tray.png"]!) }).bytes()).write(to: many)
        let tooMany = try CLI.run(["resize", many.path, "-o", tmp.appendingPathComponent("many").path, "--size", "small"])
        XCTAssertEqual(tooMany.status, 1)
        XCTAssertEqual(tooMany.stderr, many.path + ": error: \(ArchiveInputs.maxImages + 1) images in one archive, more than the \(ArchiveInputs.maxImages) "
                       + "stickerkit converts from one; unzip it first\n")
        let msg = tmp.appendingPathComponent("msg")
        let inFolder = try CLI.run(["resize", folder.path, "-o", msg.path, "--size", "small"])
        XCTAssertEqual(inFolder.status, 0, inFolder.stderr)
        let made = FileManager.default.enumerator(atPath: msg.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".png") }.sorted()
        XCTAssertEqual(made, ["Dogs/escape.png", "Dogs/sub/02.png"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("escape.png").path))

        // Damaged: the archive's broken entry is one line naming it; the others convert; exit 1.
        // A ZIP with no image in it is one line. The archives are never changed.
        var bytes = [UInt8](before)
        bytes[60] ^= 0xFF
        let damaged = tmp.appendingPathComponent("damaged.wastickers")
        try Data(bytes).write(to: damaged)
        let notes = tmp.appendingPathComponent("notes.zip")
        try Data(StoredZip(entries: [.init(name: "readme.txt", bytes: Array("hi".utf8))]).bytes()).write(to: notes)
        let bad = try CLI.run(["resize", damaged.path, notes.path, "-o", tmp.appendingPathComponent("bad").path, "--size", "small"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stderr.split(separator: "\n").map(String.init).sorted(), [
            damaged.path + "/01.webp: error: 01.webp: CRC-32 " + (bad.stderr.components(separatedBy: "01.webp: CRC-32 ").last?
                .components(separatedBy: "\n").first ?? ""),
            notes.path + ": error: a ZIP archive with no image in it (stickerkit reads PNG, APNG, GIF, JPEG and WebP)",
        ].sorted())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("bad/damaged").path).sorted(),
                       ["02.png", "03.png"])
        XCTAssertEqual(try Data(contentsOf: archive), before)
    }

    /// A tray.png made by hand beside the artwork (WhatsApp's name for it) is the pack's tray,
    /// fitted to 96×96, never a sticker.
    func testAHandMadeTrayBesideTheArtworkIsTheTray() throws {
        let art = tmp.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        for s in stills { try FileManager.default.copyItem(atPath: s, toPath: art.appendingPathComponent((s as NSString).lastPathComponent).path) }
        try FileManager.default.copyItem(atPath: sample("rocket_640x427.jpg"), toPath: art.appendingPathComponent("tray.png").path)
        let archive = tmp.appendingPathComponent("Tray.wastickers")
        let r = try CLI.run(["pack", "--platform", "whatsapp", art.path, "-o", archive.path, "--cache", tmp.appendingPathComponent("cache").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("3 still WhatsApp stickers") && r.stdout.contains("tray icon from \(art.path)/tray.png;"), r.stdout)
        let names = try CLI.unzip(archive, into: tmp.appendingPathComponent("out"))
        XCTAssertEqual(names, ["01.webp", "02.webp", "03.webp", "tray.png", "title.txt", "author.txt"])
        let tray = [UInt8](try Data(contentsOf: tmp.appendingPathComponent("out/tray.png")))
        XCTAssertEqual(Int(tray[16]) << 24 | Int(tray[17]) << 16 | Int(tray[18]) << 8 | Int(tray[19]), 96)
    }

    /// `resize --prune` keeps the stickers of a pack that no longer reads: their input failed,
    /// it is not gone (the damaged pack, no longer a ZIP, is read as an image and fails).
    func testPruneKeepsTheStickersOfAPackThatNoLongerReads() throws {
        let archive = try catsPack()
        let out = tmp.appendingPathComponent("out")
        XCTAssertEqual(try CLI.run(["resize", archive.path, "-o", out.path, "--size", "small"]).status, 0)
        func stickers() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("Cats").path).sorted() }
        XCTAssertEqual(try stickers(), ["01.png", "02.png", "03.png"])

        let bytes = try Data(contentsOf: archive)
        try Data("garbage".utf8).write(to: archive)
        let broken = try CLI.run(["resize", archive.path, "-o", out.path, "--size", "small", "--prune"])
        XCTAssertEqual(broken.status, 1)
        XCTAssertFalse(broken.stderr.contains("removed"), broken.stderr)
        XCTAssertEqual(try stickers(), ["01.png", "02.png", "03.png"])

        // Whole again: up to date, nothing removed.
        try bytes.write(to: archive)
        let again = try CLI.run(["resize", archive.path, "-o", out.path, "--size", "small", "--prune"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "")
        XCTAssertEqual(try stickers(), ["01.png", "02.png", "03.png"])
    }
}
