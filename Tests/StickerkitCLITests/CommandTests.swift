import Foundation
import ImageCore
import ImageDecoding
import StickerKit
import StickerPackaging
import XCTest

/// The commands end to end, through the built binary, on the bundled samples.
final class CommandTests: XCTestCase {
    var tmp: URL!
    var samples: URL { CLI.repositoryRoot.appendingPathComponent("samples") }

    override func setUpWithError() throws { tmp = try CLI.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

    func testResizeSamplesWritesEveryStickerWithinTheBudget() throws {
        let out = tmp.appendingPathComponent("out")
        let report = tmp.appendingPathComponent("report.json")
        let r = try CLI.run(["resize", samples.path, "-o", out.path, "--size", "small", "--report", report.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "", "not a terminal: nothing but errors")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        let files = json["files"] as! [[String: Any]]
        let images = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { !$0.hasSuffix(".md") }
        XCTAssertEqual(files.count, images.count)
        for f in files {
            let outputs = f["outputs"] as! [[String: Any]]
            XCTAssertEqual(outputs.count, 1)
            XCTAssertEqual(outputs[0]["status"] as? String, "written", "\(f["input"]!)")
            let path = outputs[0]["path"] as! String
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
            XCTAssertLessThanOrEqual(size, 500_000)
            XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        }
        // Every output passes `check`.
        let c = try CLI.run(["check", out.path])
        XCTAssertEqual(c.status, 0, c.stdout + c.stderr)
    }

    /// SSIM and PSNR are measured only for the report (or -v): a run without one writes the
    /// same bytes, and the report gives every lossy sticker its scores.
    func testQualityIsMeasuredForTheReportAndNeverChangesTheBytes() throws {
        let inputs = [sample("elephant_480x400_34f.png"), sample("rocket_640x427.jpg")]
        let plain = tmp.appendingPathComponent("plain"), reported = tmp.appendingPathComponent("reported")
        let report = tmp.appendingPathComponent("report.json")
        let a = try CLI.run(["resize"] + inputs + ["-o", plain.path, "--size", "small", "--max-kb", "60"])
        XCTAssertEqual(a.status, 0, a.stderr)
        let b = try CLI.run(["resize"] + inputs + ["-o", reported.path, "--size", "small", "--max-kb", "60", "--report", report.path])
        XCTAssertEqual(b.status, 0, b.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        var modes: [String] = []
        for f in json["files"] as! [[String: Any]] {
            let output = (f["outputs"] as! [[String: Any]])[0]
            let details = output["details"] as! [String: Any]
            modes.append(details["mode"] as! String)
            let ssim = try XCTUnwrap(details["ssim"] as? Double, "\(f["input"]!)")
            XCTAssertGreaterThan(ssim, 0.9)
            XCTAssertLessThan(ssim, 1)
            XCTAssertNotNil(details["psnr"] as? Double)
            let path = output["path"] as! String
            let name = URL(fileURLWithPath: path).lastPathComponent
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)),
                           try Data(contentsOf: plain.appendingPathComponent(name)), name)
        }
        XCTAssertEqual(modes.sorted(), ["palette", "truecolor-lossy"], "both kinds of lossy sticker")
        XCTAssertFalse(a.stderr.contains("[small]: palette"), a.stderr)
        // -v asks for a line per sticker (and one per animation's search) on a pipe too, where
        // it used to print nothing while still paying for the SSIM; --quiet wins.
        let verbose = tmp.appendingPathComponent("verbose")
        let v = try CLI.run(["resize"] + inputs + ["-o", verbose.path, "--size", "small", "--max-kb", "60", "-v"])
        XCTAssertEqual(v.status, 0, v.stderr)
        XCTAssertTrue(v.stderr.contains("elephant_480x400_34f.png [small]: palette, "), v.stderr)
        XCTAssertTrue(v.stderr.contains("rocket_640x427.jpg [small]: truecolor-lossy"), v.stderr)
        XCTAssertTrue(v.stderr.contains("elephant_480x400_34f.png [small]: searched "), v.stderr)
        XCTAssertTrue(v.stderr.contains("SSIM 0."), v.stderr)
        let quiet = try CLI.run(["resize"] + inputs + ["-o", tmp.appendingPathComponent("quiet").path, "--size", "small",
                                 "--max-kb", "60", "-v", "-q"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stderr, "")
    }

    /// A platform run's report names the platform's side (or the platform, for LINE's shaped
    /// canvas), not Messages' size names; LINE's outputs pass `check --platform line`.
    func testPlatformRunsNameTheirSizeAndLinePassesItsCheck() throws {
        for (platform, label) in [("discord", "320"), ("line", "line")] {
            let out = tmp.appendingPathComponent(platform)
            let report = tmp.appendingPathComponent("\(platform).json")
            let r = try CLI.run(["resize", sample("webp_gallery_dice_alpha.webp"), "-o", out.path, "--platform", platform,
                                 "--report", report.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
            let outputs = (json["files"] as! [[String: Any]])[0]["outputs"] as! [[String: Any]]
            XCTAssertEqual(outputs.map { $0["size"] as? String }, [label])
            let c = try CLI.run(["check", "--platform", platform, out.path])
            XCTAssertEqual(c.status, 0, c.stdout + c.stderr)
        }
    }

    /// An APNG of `count` frames of `side²` opaque noise (every pixel changes from frame to frame),
    /// made by the library itself.
    func noiseAPNG(frames count: Int, side: Int) throws -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let frames = (0..<count).map { _ in
            var pixels = [UInt8](repeating: 255, count: side * side * 4)
            for i in 0..<side * side {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                pixels[i * 4] = UInt8(truncatingIfNeeded: state >> 56)
                pixels[i * 4 + 1] = UInt8(truncatingIfNeeded: state >> 48)
                pixels[i * 4 + 2] = UInt8(truncatingIfNeeded: state >> 40)
            }
            return Frame(image: Image(width: side, height: side, pixels: pixels), delay: Delay(milliseconds: 40))
        }
        let options = ConversionOptions(sizes: [.small], maxBytes: 100_000_000, effort: .fast, maxColors: 256)
        return try StickerConverter.convert(Animation(width: side, height: side, frames: frames), options: options)
            .outputs[0].result.get().bytes
    }

    func testAnAnimationThatChangesTooMuchForOneSizeIsRefusedInOneLineAndTheOthersConvert() throws {
        // 120 frames of 300² noise: at large each frame changes 618² + 45,000 pixels (51 M in
        // all) and its fitted frames do not fit their store (made again on every walk); at small
        // 90,000 + 45,000 (16 M in all), and they do. With a 20 MP limit large is refused, in
        // one line, and small converts.
        let input = tmp.appendingPathComponent("noise.png")
        try Data(try noiseAPNG(frames: 120, side: 300)).write(to: input)
        let out = tmp.appendingPathComponent("out")
        for size in ["small", "large"] {
            let r = try CLI.run(["resize", input.path, "--size", size, "--max-changed-mp", "20", "--max-kb", "100000", "-o", out.path])
            if size == "small" {
                XCTAssertEqual(r.status, 0, r.stderr)
                XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("noise.png").path))
                try FileManager.default.removeItem(at: out)
            } else {
                XCTAssertEqual(r.status, 1)
                let lines = r.stderr.split(separator: "\n")
                XCTAssertEqual(lines.count, 1, r.stderr)
                XCTAssertTrue(lines[0].hasSuffix("noise.png [large]: error: too much change to convert in bounded time: by frame 47 of 120 its frames change more than 20 MP (pixels of the 618×618 sticker, the source's counting half; --max-changed-mp raises the limit)"), r.stderr)
                XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("noise.png").path))
            }
        }
        let bad = try CLI.run(["resize", input.path, "--max-changed-mp", "0", "-o", out.path])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--max-changed-mp takes 1 to 1000000 MP"), bad.stderr)
    }

    /// A sticker that shows practically nothing was said only on a terminal (a note, as what was
    /// adjusted to fit is): a script never saw it. It is a warning in scripts too, unless --quiet.
    func testANearlyEmptyStickerIsAWarningInScriptsToo() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let faint = tmp.appendingPathComponent("faint.png")
        let image = Image(width: 200, height: 200, pixels: [UInt8](repeating: 3, count: 200 * 200 * 4))
        let png = try StickerConverter.convert(Animation(still: image), options: ConversionOptions(sizes: [.large])).outputs[0].result.get().bytes
        try Data(png).write(to: faint)
        let r = try CLI.run(["resize", faint.path, "-o", tmp.appendingPathComponent("out").path, "--size", "small"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stderr, faint.path + " [small]: warning: the sticker is nearly empty: no pixel is more than 3 % opaque "
                       + "(the most opaque has alpha 3 of 255)\n")
        let quiet = try CLI.run(["resize", faint.path, "-o", tmp.appendingPathComponent("q").path, "--size", "small", "-q"])
        XCTAssertEqual(quiet.stderr, "")
        // pack names it once (it shows the other warnings itself when stderr is no terminal).
        let pack = try CLI.run(["pack", faint.path, "-o", tmp.appendingPathComponent("F.xcstickers").path,
                                "--cache", tmp.appendingPathComponent("cache").path])
        XCTAssertEqual(pack.stderr.components(separatedBy: "nearly empty").count, 2, pack.stderr)
    }

    func testBrokenInputsAreNamedAndTheRestStillConverts() throws {
        let input = tmp.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sample("oc_teddybear.png"), toPath: input.appendingPathComponent("good.png").path)
        try Data("not an image at all\n".utf8).write(to: input.appendingPathComponent("text.png"))
        try Data().write(to: input.appendingPathComponent("empty.gif"))
        let out = tmp.appendingPathComponent("out")
        let r = try CLI.run(["resize", input.path, "-o", out.path])
        XCTAssertEqual(r.status, 1)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, r.stderr)
        XCTAssertTrue(lines.contains { $0.hasSuffix("text.png: error: not an image: unknown format (first bytes 6e 6f 74 20 61 6e 20 69)") }, r.stderr)
        XCTAssertTrue(lines.contains { $0.hasSuffix("empty.gif: error: empty file (0 bytes)") }, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("good.png").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("text.png").path), "nothing partial")
    }

    func testCheckFlagsAContractBreak() throws {
        let r = try CLI.run(["check", sample("rocket_640x427.jpg"), "--json"])
        XCTAssertEqual(r.status, 1)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
        XCTAssertTrue(String(describing: json).contains("square"), r.stdout)
    }

    func testPackWritesACatalogXcodeCanOpen() throws {
        let labels = tmp.appendingPathComponent("labels.csv")
        try Data("oc_teddybear.png,Teddy \"the bear\" ünï\n".utf8).write(to: labels)
        let catalog = tmp.appendingPathComponent("My Pack.xcstickers")
        let r = try CLI.run(["pack", sample("oc_teddybear.png"), sample("ring_200_6f.webp"), "-o", catalog.path,
                             "--size", "large", "--labels", labels.path, "--icon", sample("oc_teddybear.png"),
                             "--cache", tmp.appendingPathComponent("cache").path])
        XCTAssertEqual(r.status, 0, r.stderr)
        func json(_ rel: String) throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(contentsOf: catalog.appendingPathComponent(rel))) as! [String: Any]
        }
        XCTAssertEqual((try json("Contents.json")["info"] as! [String: Any])["author"] as? String, "xcode")
        let pack = try json("Sticker Pack.stickerpack/Contents.json")
        XCTAssertEqual((pack["properties"] as! [String: Any])["grid-size"] as? String, "large")
        let names = (pack["stickers"] as! [[String: Any]]).map { $0["filename"] as! String }
        XCTAssertEqual(names, ["oc_teddybear.sticker", "ring_200_6f.sticker"])
        let teddy = try json("Sticker Pack.stickerpack/oc_teddybear.sticker/Contents.json")["properties"] as! [String: Any]
        XCTAssertEqual(teddy["accessibility-label"] as? String, "Teddy \"the bear\" ünï")
        XCTAssertEqual(teddy["filename"] as? String, "oc_teddybear.png")
        let ring = try json("Sticker Pack.stickerpack/ring_200_6f.sticker/Contents.json")["properties"] as! [String: Any]
        XCTAssertEqual(ring["accessibility-label"] as? String, "Ring 200 6f")
        let icons = try json("iMessage App Icon.stickersiconset/Contents.json")["images"] as! [[String: Any]]
        XCTAssertEqual(icons.count, 13)
        let c = try CLI.run(["check", catalog.appendingPathComponent("Sticker Pack.stickerpack").path])
        XCTAssertEqual(c.status, 0, c.stdout)
    }

    func testIconsAndPreview() throws {
        let icons = tmp.appendingPathComponent("icons")
        XCTAssertEqual(try CLI.run(["icons", sample("rocket_640x427.jpg"), "-o", icons.path]).status, 0)
        let set = icons.appendingPathComponent("iMessage App Icon.stickersiconset")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: set.path).filter { $0.hasSuffix(".png") }.count, 13)

        let preview = tmp.appendingPathComponent("preview")
        let r = try CLI.run(["preview", sample("oc_teddybear.png"), sample("ring_200_6f.webp"), "-o", preview.path, "--png"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let html = try String(contentsOf: preview.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("oc_teddybear"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: preview.appendingPathComponent("contact-sheet.png").path))
        XCTAssertTrue(r.stdout.contains("index.html: 2 stickers"), r.stdout)
        // --quiet, as every command that writes takes it: nothing but errors (the one removal
        // of the previous preview's contact sheet included).
        let quiet = try CLI.run(["preview", sample("oc_teddybear.png"), "-o", preview.path, "--quiet"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertEqual(quiet.stdout + quiet.stderr, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: preview.appendingPathComponent("contact-sheet.png").path))
    }

    /// `icons --platform line` writes LINE's main and chat tab images; a run that would make the
    /// same files changes nothing, and a run from another image replaces the pictures stickerkit
    /// wrote (the folder's manifest records them).
    func testLineIconsWriteMainAndTabImages() throws {
        let out = tmp.appendingPathComponent("line")
        let r = try CLI.run(["icons", "--platform", "line", sample("oc_teddybear.png"), "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        func png(_ name: String) throws -> (bytes: Data, width: Int, height: Int) {
            let d = try Data(contentsOf: out.appendingPathComponent(name))
            XCTAssertEqual(Array(d.prefix(4)), [0x89, 0x50, 0x4E, 0x47], name)
            let be = { (at: Int) in d[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            return (d, be(16), be(20))
        }
        let main = try png("main.png"), tab = try png("tab.png")
        XCTAssertEqual([main.width, main.height, tab.width, tab.height], [240, 240, 96, 74])
        XCTAssertLessThanOrEqual(max(main.bytes.count, tab.bytes.count), 300_000)

        let again = try CLI.run(["icons", "--platform", "line", sample("oc_teddybear.png"), "-o", out.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("up to date"), again.stdout)

        let other = try CLI.run(["icons", "--platform", "line", sample("rocket_640x427.jpg"), "-o", out.path])
        XCTAssertEqual(other.status, 0, other.stderr)
        XCTAssertNotEqual(try png("main.png").bytes, main.bytes)
        XCTAssertNotEqual(try png("tab.png").bytes, tab.bytes)

        // --quiet prints nothing, written or up to date (it printed a line per picture).
        for image in ["oc_teddybear.png", "oc_teddybear.png"] {
            let quiet = try CLI.run(["icons", "--platform", "line", sample(image), "-o", out.path, "--quiet"])
            XCTAssertEqual(quiet.status, 0, quiet.stderr)
            XCTAssertEqual(quiet.stdout + quiet.stderr, "")
        }
    }

    /// Icons and pack pictures made from an animation are stills of its first frame: one warning
    /// says so (none under --quiet, none for a still).
    func testIconsOfAnAnimationWarnThatTheyShowItsFirstFrame() throws {
        let gif = sample("cogs_small_transparent.gif")
        for (args, pictures) in [(["icons", gif, "-o", tmp.appendingPathComponent("set").path], "every icon"),
                                 (["icons", "--platform", "whatsapp", gif, "-o", tmp.appendingPathComponent("wa").path], "the tray icon")] {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 0, r.stderr)
            let line = "\(gif): warning: source is an animation of 5 frames: its first frame alone shows in \(pictures)"
            XCTAssertEqual(r.stderr.components(separatedBy: "\n").filter { $0.hasPrefix(line) }.count, 1, r.stderr)
            let quiet = try CLI.run(args + ["--quiet", "--overwrite"])
            XCTAssertEqual(quiet.status, 0, quiet.stderr)
            XCTAssertFalse(quiet.stderr.contains("animation"), quiet.stderr)
        }
        let line = try CLI.run(["icons", "--platform", "line", gif, "-o", tmp.appendingPathComponent("line").path])
        XCTAssertFalse(line.stderr.contains("first frame"), "LINE's main image animates: \(line.stderr)")
        let still = try CLI.run(["icons", "--platform", "whatsapp", sample("oc_teddybear.png"), "-o", tmp.appendingPathComponent("wa2").path])
        XCTAssertFalse(still.stderr.contains("first frame"), still.stderr)
    }

    /// `icons --platform telegram` of an animation writes the pack thumbnail as a WebM video
    /// (thumbnail.webm, within 32 KB), which `check --platform telegram` passes as the thumbnail.
    /// A still's thumbnail.png later supersedes it: the video stickerkit wrote is removed. One the
    /// user edited stays, a warning says Telegram takes one, and `check` warns of each.
    func testTelegramThumbnailOfAnAnimationIsAWebMVideo() throws {
        let out = tmp.appendingPathComponent("tg")
        func thumbnail(_ name: String) throws -> CLIRun {
            try CLI.run(["icons", "--platform", "telegram", sample(name), "-o", out.path])
        }
        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() }
        let r = try thumbnail("cogs_small_transparent.gif")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("first frame"), r.stderr)
        XCTAssertTrue(r.stdout.contains("written to \(out.path)/thumbnail.webm"), r.stdout)
        let webm = try Data(contentsOf: out.appendingPathComponent("thumbnail.webm"))
        XCTAssertEqual(Array(webm.prefix(4)), [0x1A, 0x45, 0xDF, 0xA3])
        XCTAssertLessThanOrEqual(webm.count, 32_000)
        let checked = try CLI.run(["check", "--platform", "telegram", out.path])
        XCTAssertEqual(checked.status, 0, checked.stdout + checked.stderr)
        XCTAssertTrue(checked.stdout.contains("pack thumbnail (thumbnail.webm), animated"), checked.stdout)
        XCTAssertEqual(try thumbnail("cogs_small_transparent.gif").stdout,
                       "Telegram pack thumbnail up to date: \(out.path)/thumbnail.webm\n")

        let still = try thumbnail("oc_teddybear.png")
        XCTAssertEqual(still.status, 0, still.stderr)
        XCTAssertEqual(still.stderr, "")
        XCTAssertTrue(still.stdout.hasSuffix("written to \(out.path)/thumbnail.png\n"
                                             + "\(out.path)/thumbnail.webm removed: thumbnail.png is the Telegram pack thumbnail now\n"), still.stdout)
        XCTAssertEqual(try files(), [".stickerkit-manifest.jsonl", "thumbnail.png"])
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent(".stickerkit-manifest.jsonl"), encoding: .utf8)
            .split(separator: "\n").count, 1, "the video's record went with it")

        // Back to the animation, then the video touched by hand: it is the user's, and stays.
        XCTAssertEqual(try thumbnail("cogs_small_transparent.gif").status, 0)
        XCTAssertEqual(try files(), [".stickerkit-manifest.jsonl", "thumbnail.webm"])
        let edited = webm + Data([0xEC, 0x81, 0x80])
        try edited.write(to: out.appendingPathComponent("thumbnail.webm"))
        let kept = try thumbnail("oc_teddybear.png")
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertEqual(kept.stderr, "\(out.path)/thumbnail.webm: warning: stays beside thumbnail.png; Telegram takes one pack thumbnail: "
                       + "remove the one you do not want\n")
        XCTAssertEqual(try files(), [".stickerkit-manifest.jsonl", "thumbnail.png", "thumbnail.webm"])
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("thumbnail.webm")), edited, "the user's video stays as it was")
        // check says each has the other beside it.
        let both = try CLI.run(["check", "--platform", "telegram", out.path])
        XCTAssertEqual(both.status, 0, both.stdout + both.stderr)
        for (name, other) in [("thumbnail.png", "thumbnail.webm"), ("thumbnail.webm", "thumbnail.png")] {
            XCTAssertTrue(both.stdout.contains("\(other) is beside it: Telegram takes one pack thumbnail"), "\(name): \(both.stdout)")
        }
        XCTAssertTrue(both.stdout.contains("0 errors, 2 warnings"), both.stdout)
    }

    /// Pack pictures stickerkit did not write, or that were edited since, are replaced only with
    /// --overwrite (one error line per file, nothing written); the same picture is taken as ours.
    func testIconsKeepAPackPictureTheUserMade() throws {
        let out = tmp.appendingPathComponent("tray")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let tray = out.appendingPathComponent("tray.png")
        let users = try Data(contentsOf: URL(fileURLWithPath: sample("oc_teddybear.png")))
        try users.write(to: tray)
        let kept = try CLI.run(["icons", "--platform", "whatsapp", sample("oc_saxophone_palette.png"), "-o", out.path])
        XCTAssertEqual(kept.status, 2)
        XCTAssertEqual(kept.stderr, "\(tray.path): error: already exists and holds another picture; --overwrite replaces it\n")
        XCTAssertEqual(try Data(contentsOf: tray), users)

        let replaced = try CLI.run(["icons", "--platform", "whatsapp", sample("oc_saxophone_palette.png"), "-o", out.path, "--overwrite"])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        let ours = try Data(contentsOf: tray)
        XCTAssertNotEqual(ours, users)
        // Edited after stickerkit wrote it: the user's now.
        var edited = ours
        edited[edited.count - 1] ^= 1
        try edited.write(to: tray)
        let changed = try CLI.run(["icons", "--platform", "whatsapp", sample("oc_teddybear.png"), "-o", out.path])
        XCTAssertEqual(changed.status, 2)
        XCTAssertTrue(changed.stderr.contains("tray.png: error: was written by stickerkit and has changed since; --overwrite replaces it"),
                      changed.stderr)
        XCTAssertEqual(try Data(contentsOf: tray), edited)
        // The same picture, made elsewhere and copied here, is recorded as ours: the next image replaces it.
        try ours.write(to: tray)
        let same = try CLI.run(["icons", "--platform", "whatsapp", sample("oc_saxophone_palette.png"), "-o", out.path])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertTrue(same.stdout.contains("up to date"), same.stdout)
        let next = try CLI.run(["icons", "--platform", "whatsapp", sample("oc_teddybear.png"), "-o", out.path])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertNotEqual(try Data(contentsOf: tray), ours)
    }

    /// From an animation, LINE's main image is an APNG under LINE's animation rules (5–20 frames,
    /// 1–4 plays within 4 s), 240×240 within 300 KB, that `check --platform line` accepts; the chat
    /// tab image stays a still. From a still, the main image is a still.
    func testLineMainImageOfAnAnimationIsAnAPNG() throws {
        let out = tmp.appendingPathComponent("line-animated")
        let r = try CLI.run(["icons", "--platform", "line", sample("elephant_480x400_34f.png"), "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let main = try Data(contentsOf: out.appendingPathComponent("main.png"))
        let decoded = try ImageDecoder.decode([UInt8](main))
        XCTAssertEqual(decoded.format, .apng)
        XCTAssertTrue((5...20).contains(decoded.animation.frames.count), "\(decoded.animation.frames.count) frames")
        XCTAssertEqual([decoded.animation.width, decoded.animation.height], [240, 240])
        let seconds = decoded.animation.duration.seconds
        let plays = max(1, decoded.animation.loopCount)
        XCTAssertTrue((1...4).contains(decoded.animation.loopCount), "loops \(decoded.animation.loopCount)")
        XCTAssertLessThanOrEqual(seconds * Double(plays), 4.0005)
        XCTAssertLessThanOrEqual(main.count, 300_000)
        let tab = try ImageDecoder.decode([UInt8](try Data(contentsOf: out.appendingPathComponent("tab.png"))))
        XCTAssertEqual(tab.format, .png)
        let c = try CLI.run(["check", "--platform", "line", out.path])
        XCTAssertEqual(c.status, 0, c.stdout + c.stderr)
        XCTAssertTrue(c.stdout.contains("main image (main.png), animated"), c.stdout)

        let still = tmp.appendingPathComponent("line-still")
        XCTAssertEqual(try CLI.run(["icons", "--platform", "line", sample("oc_teddybear.png"), "-o", still.path]).status, 0)
        XCTAssertEqual(try ImageDecoder.decode([UInt8](try Data(contentsOf: still.appendingPathComponent("main.png")))).format, .png)
    }
}

final class ShardTests: XCTestCase {
    func testShardsSplitTheInputsExactlyOnce() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let samples = CLI.repositoryRoot.appendingPathComponent("samples")
        var seen: [String: Int] = [:]
        for k in 1...3 {
            let out = tmp.appendingPathComponent("shard\(k)")
            let r = try CLI.run(["resize", samples.path, "-o", out.path, "--size", "small", "--shard", "\(k)/3"])
            XCTAssertEqual(r.status, 0, r.stderr)
            for f in (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? [] where f.hasSuffix(".png") {
                seen[f, default: 0] += 1
            }
        }
        let images = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { !$0.hasSuffix(".md") }
        XCTAssertEqual(seen.count, images.count, "every input in some shard")
        XCTAssertTrue(seen.values.allSatisfy { $0 == 1 }, "no input in two shards")
        XCTAssertEqual(try CLI.run(["resize", samples.path, "-o", tmp.path, "--shard", "4/3"]).status, 2)
    }

    /// Shards writing into one folder each record only what they wrote, in their own manifest:
    /// the second shard copied the first one's records into its own file (every append after
    /// the first read the file's last byte through a write-only descriptor, took the file for
    /// cut short, and the run then rewrote its manifest with every record it had read).
    func testShardsIntoOneFolderKeepTheirOwnRecords() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let samples = CLI.repositoryRoot.appendingPathComponent("samples")
        var recorded: [String] = []
        for k in 1...2 {
            let r = try CLI.run(["resize", samples.path, "-o", tmp.path, "--size", "small", "--shard", "\(k)/2", "--jobs", "1"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let text = try String(contentsOf: tmp.appendingPathComponent(".stickerkit-manifest-shard-\(k)-of-2.jsonl"), encoding: .utf8)
            XCTAssertFalse(text.contains("\n\n"), "a blank line: an append took the file for cut short")
            recorded += try text.split(separator: "\n").map { line in
                try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["output"] as? String)
            }
        }
        let stickers = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(recorded.sorted(), stickers.sorted(), "every sticker recorded once, by the shard that wrote it")
        // A shard whose manifest must be rewritten (a damaged line; --force redoing its records)
        // writes back its own records only.
        let second = tmp.appendingPathComponent(".stickerkit-manifest-shard-2-of-2.jsonl")
        let own = try String(contentsOf: second, encoding: .utf8)
        try Data((own + "garbage\n").utf8).write(to: second)
        for flags in [[String](), ["--force"]] {
            let r = try CLI.run(["resize", samples.path, "-o", tmp.path, "--size", "small", "--shard", "2/2", "--jobs", "1"] + flags)
            XCTAssertEqual(r.status, 0, r.stderr)
            let outputs = { (text: String) in text.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["output"] as? String }.sorted() }
            XCTAssertEqual(outputs(try String(contentsOf: second, encoding: .utf8)), outputs(own), "\(flags)")
        }
    }
}

final class BenchCommandTests: XCTestCase {
    /// `bench` names the platform it measures, and `--platform` measures that app's conversion:
    /// its side and its caps, one sticker per input.
    func testBenchNamesThePlatform() throws {
        let still = CLI.repositoryRoot.appendingPathComponent("samples/webp_gallery_dice_alpha.webp").path
        let messages = try CLI.run(["bench", still, "--size", "small", "--jobs", "1", "--json"])
        XCTAssertEqual(messages.status, 0, messages.stderr)
        let m = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(messages.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(m["platform"] as? String, "imessage")
        XCTAssertEqual(m["sizes"] as? [String], ["small"])
        XCTAssertEqual(m["maxBytes"] as? Int, 500_000)
        let discord = try CLI.run(["bench", still, "--platform", "discord", "--jobs", "1", "--json"])
        XCTAssertEqual(discord.status, 0, discord.stderr)
        let d = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(discord.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(d["platform"] as? String, "discord")
        XCTAssertEqual(d["sizes"] as? [String], ["320"])
        XCTAssertEqual(d["maxBytes"] as? Int, 512_000)
        let table = try CLI.run(["bench", still, "--platform", "signal", "--jobs", "1"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.hasPrefix("stickerkit bench: signal, 1 inputs × sizes 512, budget 300000 bytes"), table.stdout)
    }

    /// `bench` measures a pack's images as `resize` converts them (it read the ZIP as one file
    /// and failed it); a damaged entry is named as resize names it.
    func testBenchTakesPacks() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let teddy = [UInt8](try Data(contentsOf: CLI.repositoryRoot.appendingPathComponent("samples/oc_teddybear.png")))
        let zip = tmp.appendingPathComponent("art.zip")
        try Data(StoredZip(entries: [.init(name: "a.png", bytes: teddy), .init(name: "sub/b.png", bytes: teddy),
                                     .init(name: "c.png", bytes: Array(teddy.prefix(200)))]).bytes()).write(to: zip)
        let r = try CLI.run(["bench", zip.path, "--size", "small", "--jobs", "1", "--json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.hasPrefix(zip.path + "/c.png: error: PNG: data ends"), r.stderr)
        let out = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(out["inputs"] as? Int, 3)
        XCTAssertEqual((out["runs"] as? [[String: Any]])?.first?["stickers"] as? Int, 2)
    }

    /// For animations `bench` says what the budget searches did; a still prints no such line.
    func testBenchReportsTheAnimationSearches() throws {
        let elephant = CLI.repositoryRoot.appendingPathComponent("samples/elephant_480x400_34f.png").path
        let json = try CLI.run(["bench", elephant, "--size", "small", "--jobs", "1", "--json", "--colors", "64"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let out = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let run = try XCTUnwrap((out["runs"] as? [[String: Any]])?.first)
        let search = try XCTUnwrap((run["stageSeconds"] as? [String: Any])?["search"] as? [String: Any])
        XCTAssertGreaterThanOrEqual(search["encodes"] as? Int ?? 0, 1)
        XCTAssertEqual(search["chosen"] as? Int, 1)
        let table = try CLI.run(["bench", elephant, "--size", "small", "--jobs", "1", "--colors", "64"])
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdout.contains("animation searches: "), table.stdout)
        let still = CLI.repositoryRoot.appendingPathComponent("samples/oc_teddybear.png").path
        let plain = try CLI.run(["bench", still, "--size", "small", "--jobs", "1"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertFalse(plain.stdout.contains("animation searches"), plain.stdout)
    }

    /// A file or size that fails in `bench` is named on one line, as `resize` names it, once
    /// whatever the runs (here two jobs counts, twice each), and the exit status is 1; the
    /// figures are still printed.
    func testBenchNamesEachFailureOnceAsResizeDoes() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        func sample(_ name: String) -> String { CLI.repositoryRoot.appendingPathComponent("samples").appendingPathComponent(name).path }
        let art = tmp.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: art.appendingPathComponent("a-words.png"))
        for name in ["elephant_480x400_34f.png", "oc_teddybear.png"] {
            try FileManager.default.copyItem(atPath: sample(name), toPath: art.appendingPathComponent(name).path)
        }
        let args = ["bench", art.path, "--size", "small", "--jobs", "2", "--repeats", "2", "--max-bytes", "3000"]
        let r = try CLI.run(args)
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, r.stderr)
        XCTAssertTrue(lines.first?.hasPrefix(art.appendingPathComponent("a-words.png").path + ": error: not an image") ?? false, r.stderr)
        XCTAssertTrue(lines.last?.hasPrefix(art.appendingPathComponent("elephant_480x400_34f.png").path + " [small]: error: does not fit") ?? false,
                      r.stderr)
        XCTAssertTrue(r.stdout.contains("(1 sticker, 2 failed)"), r.stdout)
        let resize = try CLI.run(["resize", art.appendingPathComponent("elephant_480x400_34f.png").path, "-o", tmp.appendingPathComponent("o").path,
                                  "--size", "small", "--max-bytes", "3000"])
        XCTAssertEqual(resize.stderr, (lines.last ?? "") + "\n")
        // Nothing converted at all: no speed-up of one job count over the other (it printed the
        // ratio of two runs of nothing, 6–7×).
        let none = try CLI.run(["bench", art.appendingPathComponent("a-words.png").path, "--jobs", "2", "--json"])
        XCTAssertEqual(none.status, 1, none.stderr)
        let out = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [String: Any])
        XCTAssertNil(out["speedup"], none.stdout)
        XCTAssertFalse(try CLI.run(["bench", art.appendingPathComponent("a-words.png").path, "--jobs", "2"]).stdout.contains("speed-up"))
    }
}
