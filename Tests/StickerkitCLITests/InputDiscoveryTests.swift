import Foundation
import StickerPackaging
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Which files a batch takes as inputs: never its own outputs, links followed safely, any bytes in
/// a name, one line per message whatever the name holds.
final class InputDiscoveryTests: XCTestCase {
    var tmp: URL!
    var art: URL { tmp.appendingPathComponent("art") }

    override func setUpWithError() throws { tmp = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func testOutputFolderInsideTheInputFolderIsNeverReadBack() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("sub/teddy.png"))
        let stickers = art.appendingPathComponent("stickers")
        for run in 1...3 {
            let report = tmp.appendingPathComponent("report.json")
            let r = try CLI.run(["resize", art.path, "-o", stickers.path, "--size", "small", "--report", report.path])
            XCTAssertEqual(r.status, 0, "run \(run): \(r.stderr)")
            XCTAssertEqual(try BatchSafety.stickers(stickers), ["sax.png", "sub/teddy.png"], "run \(run)")
            XCTAssertEqual(try BatchSafety.reportOutputs(report).count, 2, "run \(run): its own outputs were taken as inputs")
        }
        // A second output folder inside the artwork: the first one's stickers are not artwork.
        let other = art.appendingPathComponent("other")
        XCTAssertEqual(try CLI.run(["resize", art.path, "-o", other.path, "--size", "regular"]).status, 0)
        XCTAssertEqual(try BatchSafety.stickers(other), ["sax.png", "sub/teddy.png"])
    }

    func testOutputFolderEqualToAnInputFolderIsAUsageError() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.gif"))
        let before = try BatchSafety.snapshot(art)
        let r = try CLI.run(["resize", art.path, "-o", art.path, "--size", "small"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("input folder"), r.stderr)
        XCTAssertEqual(try BatchSafety.snapshot(art), before)
    }

    func testCatalogsAndPreviewFoldersAreNotArtwork() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let sticker = art.appendingPathComponent("Pack.xcstickers/Sticker Pack.stickerpack/sax.sticker/sax.png")
        try Fixture.sample("oc_teddybear.png", to: sticker)
        let preview = art.appendingPathComponent("preview")
        XCTAssertEqual(try CLI.run(["preview", art.appendingPathComponent("sax.png").path, "-o", preview.path]).status, 0)
        // An icon set `icons` wrote beside the artwork: its 13 icons were converted as stickers.
        XCTAssertEqual(try CLI.run(["icons", art.appendingPathComponent("sax.png").path, "-o", art.path, "-q"]).status, 0)
        let out = tmp.appendingPathComponent("out")
        let r = try CLI.run(["resize", art.path, "-o", out.path, "--size", "small"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try BatchSafety.stickers(out), ["sax.png"])
    }

    /// Pack pictures `icons --platform` wrote beside the artwork (recorded in the folder's
    /// manifest) are not artwork: `resize` converted WhatsApp's tray icon as a sticker, and `pack`
    /// packed it.
    func testPackPicturesBesideTheArtworkAreNotArtwork() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("bear.png"))
        try Fixture.sample("rocket_640x427.jpg", to: art.appendingPathComponent("rocket.jpg"))
        for platform in ["whatsapp", "telegram", "line"] {
            let r = try CLI.run(["icons", "--platform", platform, art.appendingPathComponent("sax.png").path, "-o", art.path, "-q"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let before = try BatchSafety.snapshot(art)
        let out = tmp.appendingPathComponent("out")
        let r = try CLI.run(["resize", art.path, "-o", out.path, "--platform", "whatsapp"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }.sorted(),
                       ["bear.webp", "rocket.webp", "sax.webp"])
        let pack = tmp.appendingPathComponent("Cats.wastickers")
        let p = try CLI.run(["pack", "--platform", "whatsapp", art.path, "-o", pack.path, "--title", "Cats", "--author", "Me"])
        XCTAssertEqual(p.status, 0, p.stderr)
        XCTAssertTrue(p.stdout.contains("3 still WhatsApp stickers"), p.stdout)
        // The tray icon made for the pack is its tray (it was the first sticker's artwork).
        XCTAssertTrue(p.stdout.hasSuffix("tray icon from \(art.path)/tray.png; 3 converted, 0 up to date\n"), p.stdout)
        let reader = try ZipReader([UInt8](try Data(contentsOf: pack)))
        let tray = try XCTUnwrap(reader.entries.first { $0.name == "tray.png" })
        XCTAssertEqual(try reader.contents(of: tray, limit: 1 << 20), [UInt8](try Data(contentsOf: art.appendingPathComponent("tray.png"))))
        XCTAssertEqual(try BatchSafety.snapshot(art), before)
    }

    /// A folder holding only stickerkit's outputs yields no input; the error line says why and how
    /// to read them anyway (it said only "no images found in this folder").
    func testAFolderOfOwnOutputsSaysWhyItHoldsNoImages() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let stickers = tmp.appendingPathComponent("stickers")
        XCTAssertEqual(try CLI.run(["resize", art.path, "-o", stickers.path, "--platform", "whatsapp"]).status, 0)
        let pack = try CLI.run(["pack", "--platform", "whatsapp", stickers.path, "-o", tmp.appendingPathComponent("C.wastickers").path])
        XCTAssertEqual(pack.status, 1)
        XCTAssertEqual(pack.stderr, "\(stickers.path): error: no images found in this folder; left out: 1 file stickerkit wrote "
                       + "(its records list it) — name a file to read it anyway\n")
        let named = try CLI.run(["pack", "--platform", "whatsapp", stickers.appendingPathComponent("sax.webp").path,
                                 "-o", tmp.appendingPathComponent("C.wastickers").path])
        XCTAssertNotEqual(named.stderr.contains("no images found"), true, named.stderr)
        let catalogOnly = tmp.appendingPathComponent("catalogs")
        XCTAssertEqual(try CLI.run(["pack", art.path, "-o", catalogOnly.appendingPathComponent("P.xcstickers").path, "-q"]).status, 0)
        let r = try CLI.run(["resize", catalogOnly.path, "-o", tmp.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasSuffix("no images found in this folder; left out: 1 folder stickerkit wrote (catalogs, icon sets, previews)\n"),
                      r.stderr)
    }

    func testANewlineInANameCannotForgeASecondMessage() throws {
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        let name = "evil\nstickerkit: error: forged.png"
        try Data("not an image".utf8).write(to: art.appendingPathComponent(name))
        try Data("not an image".utf8).write(to: art.appendingPathComponent("bell\u{7}\u{1B}[2Kx.png"))
        let r = try CLI.run(["resize", art.path, "-o", tmp.appendingPathComponent("out").path, "--size", "small"])
        XCTAssertEqual(r.status, 1)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, r.stderr)
        XCTAssertTrue(lines.allSatisfy { $0.contains(": error: ") }, r.stderr)
        XCTAssertTrue(r.stderr.contains("evil\\nstickerkit"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\u{1B}"), "an escape sequence reached the terminal")
    }

    func testNamesThatAreNotUTF8AreConvertedInFoldersAndWhenNamed() throws {
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        let png = try Data(contentsOf: BatchSafety.samples.appendingPathComponent("oc_saxophone_palette.png"))
        let latin1 = Array("caf".utf8) + [0xE9] + Array(".png".utf8)     // "café.png" in Latin-1
        try Fixture.createFile(rawPath: Array(art.path.utf8) + [0x2F] + latin1, contents: png)
        let out = tmp.appendingPathComponent("out")
        let r = try CLI.run(["resize", art.path, "-o", out.path, "--size", "small"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Fixture.rawNames(out.path).filter { $0.first != 0x2E }, [latin1], "the sticker keeps the name's bytes")
        XCTAssertTrue(BatchSafety.isWholePNG(Fixture.read(rawPath: Array(out.path.utf8) + [0x2F] + latin1) ?? Data()))

        let named = tmp.appendingPathComponent("named")
        let r2 = try Fixture.run(rawArguments: [Array("resize".utf8), Array(art.path.utf8) + [0x2F] + latin1,
                                                Array("-o".utf8), Array(named.path.utf8), Array("--size".utf8), Array("small".utf8)])
        XCTAssertEqual(r2.status, 0, r2.stderr)
        XCTAssertEqual(Fixture.rawNames(named.path).filter { $0.first != 0x2E }, [latin1])

        // pack too: it rebuilt its inputs from their escaped names ("café.png: No such file").
        let catalog = tmp.appendingPathComponent("Cafe.xcstickers")
        let packed = try CLI.run(["pack", art.path, "-o", catalog.path])
        XCTAssertEqual(packed.status, 0, packed.stderr)
        XCTAssertTrue(packed.stdout.contains("1 added"), packed.stdout)
        for k in 2...3 {
            try Fixture.createFile(rawPath: Array(art.path.utf8) + [0x2F] + Array("caf".utf8) + [0xE9] + Array("\(k).png".utf8), contents: png)
        }
        let whatsapp = try CLI.run(["pack", "--platform", "whatsapp", art.path, "-o", tmp.appendingPathComponent("Cafe.wastickers").path])
        XCTAssertEqual(whatsapp.status, 0, whatsapp.stderr)
        XCTAssertTrue(whatsapp.stdout.contains("3 still WhatsApp stickers"), whatsapp.stdout)
    }

    func testLinksAreFollowedAndLoopsAndBrokenLinksNamed() throws {
        let elsewhere = tmp.appendingPathComponent("elsewhere")
        try Fixture.sample("oc_saxophone_palette.png", to: elsewhere.appendingPathComponent("sax.png"))
        try Fixture.sample("oc_teddybear.png", to: elsewhere.appendingPathComponent("dir/teddy.png"))
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        let fm = FileManager.default
        try fm.createSymbolicLink(at: art.appendingPathComponent("linked.png"), withDestinationURL: elsewhere.appendingPathComponent("sax.png"))
        try fm.createSymbolicLink(at: art.appendingPathComponent("linkeddir"), withDestinationURL: elsewhere.appendingPathComponent("dir"))
        try fm.createSymbolicLink(at: art.appendingPathComponent("loop"), withDestinationURL: art)
        try fm.createSymbolicLink(at: art.appendingPathComponent("gone.png"), withDestinationURL: tmp.appendingPathComponent("nothing.png"))
        let out = tmp.appendingPathComponent("out")
        let r = try CLI.run(["resize", art.path, "-o", out.path, "--size", "small"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try BatchSafety.stickers(out), ["linked.png", "linkeddir/teddy.png"])
        XCTAssertTrue(r.stderr.contains("loop: warning:") && r.stderr.contains("loop"), r.stderr)
        XCTAssertTrue(r.stderr.contains("gone.png: warning:") && r.stderr.contains("broken symbolic link"), r.stderr)

        // A link to a folder named as the input.
        let link = tmp.appendingPathComponent("artlink")
        try fm.createSymbolicLink(at: link, withDestinationURL: elsewhere)
        let out2 = tmp.appendingPathComponent("out2")
        let r2 = try CLI.run(["resize", link.path, "-o", out2.path, "--size", "small"])
        XCTAssertEqual(r2.status, 0, r2.stderr)
        XCTAssertEqual(try BatchSafety.stickers(out2), ["dir/teddy.png", "sax.png"])
    }

    /// `pack` (catalog and WhatsApp archive) names the links it skips, as `resize` does; it
    /// passed over a broken link in silence.
    func testPackNamesTheLinksItSkips() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        try FileManager.default.createSymbolicLink(at: art.appendingPathComponent("gone.png"),
                                                   withDestinationURL: tmp.appendingPathComponent("nothing.png"))
        let line = art.appendingPathComponent("gone.png").path + ": warning: skipped: broken symbolic link (its target does not exist)"
        let r = try CLI.run(["pack", art.path, "-o", tmp.appendingPathComponent("P.xcstickers").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains(line), r.stderr)
        let w = try CLI.run(["pack", "--platform", "whatsapp", art.path, "-o", tmp.appendingPathComponent("P.wastickers").path])
        XCTAssertEqual(w.status, 1, w.stderr)
        XCTAssertTrue(w.stderr.hasPrefix(line + "\n"), w.stderr)
    }

    /// A photo in a format not read (HEIC, from a phone) is named in a folder, not passed over in
    /// silence; the run still succeeds with the rest, and a folder of such files says why it
    /// holds no images before it says so.
    func testArtworkInAFormatNotReadIsNamedInAFolder() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let heic: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        try FileManager.default.createDirectory(at: art.appendingPathComponent("phone"), withIntermediateDirectories: true)
        try Data(heic).write(to: art.appendingPathComponent("phone/IMG_0001.HEIC"))
        try Data("notes\n".utf8).write(to: art.appendingPathComponent("README.txt"))
        let line = art.appendingPathComponent("phone/IMG_0001.HEIC").path
            + ": warning: skipped: a HEIC/HEIF image: not a format stickerkit reads (it reads PNG, APNG, GIF, JPEG and WebP)"
        let r = try CLI.run(["resize", art.path, "-o", tmp.appendingPathComponent("out").path, "--size", "small"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, line + "\n")
        XCTAssertEqual(try BatchSafety.stickers(tmp.appendingPathComponent("out")), ["sax.png"])
        let only = try CLI.run(["resize", art.appendingPathComponent("phone").path, "-o", tmp.appendingPathComponent("out2").path])
        XCTAssertEqual(only.status, 1, only.stderr)
        XCTAssertEqual(only.stderr, line + "\n" + art.appendingPathComponent("phone").path + ": error: no images found in this folder\n")
    }

    /// One file given twice under one name — named and inside its folder, or as `x` and `./x` —
    /// was converted twice (the second as `cat.png.png`, with a warning), listed twice by `check`
    /// and shown twice by `preview`. It is one input now; two hard links stay two.
    func testAFileGivenTwiceIsOneInput() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        try FileManager.default.linkItem(at: art.appendingPathComponent("sax.png"), to: art.appendingPathComponent("linked.png"))
        let twice = ["art/sax.png", "./art/sax.png", "art"]
        let out = tmp.appendingPathComponent("out")
        let r = try CLI.run(["resize"] + twice + ["-o", out.path, "--size", "small"], in: tmp)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(try BatchSafety.stickers(out), ["linked.png", "sax.png"])
        let check = try CLI.run(["check"] + twice, in: tmp)
        XCTAssertTrue(check.stdout.contains("\n2 files: "), check.stdout)
        XCTAssertEqual(check.stdout.components(separatedBy: "  art/sax.png\n").count, 2, check.stdout)
        let preview = try CLI.run(["preview", "art/sax.png", "art/sax.png", "-o", "pv"], in: tmp)
        XCTAssertEqual(preview.status, 0, preview.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("pv/stickers").path), ["001-sax.png"])
    }

    func testFIFOsAndDevicesAreNotRegularFiles() throws {
        let fifo = tmp.appendingPathComponent("pipe.png")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        let r = try CLI.run(["resize", fifo.path, "/dev/zero", "-o", tmp.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("pipe.png: error: not a regular file (a FIFO)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("/dev/zero: error: not a regular file (a character device)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("permission"), r.stderr)
    }

    func testAFileNamedLikeAnOptionIsAUsageErrorNamingTheFix() throws {
        try Fixture.sample("oc_saxophone_palette.png", to: tmp.appendingPathComponent("-dash.png"))
        let r = try CLI.run(["resize", "-dash.png", "-o", "out"], in: tmp)
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertFalse(r.stdout.contains("OVERVIEW"), "printed the help")
        XCTAssertTrue(r.stderr.contains("./-dash.png") && r.stderr.contains("--"), r.stderr)
        let fixed = try CLI.run(["resize", "--size", "small", "-o", "out", "--", "-dash.png"], in: tmp)
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertEqual(try BatchSafety.stickers(tmp.appendingPathComponent("out")), ["-dash.png"])
    }

    func testAMissingInputAndAnEmptyFolderFailWithOne() throws {
        let empty = tmp.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        let out = tmp.appendingPathComponent("out")
        let r = try CLI.run(["resize", art.path, empty.path, "-o", out.path, "--size", "small"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("empty: error: no images"), r.stderr)
        XCTAssertEqual(try BatchSafety.stickers(out), ["sax.png"], "the other input is still converted")
    }
}
