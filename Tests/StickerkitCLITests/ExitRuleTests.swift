import Foundation
import XCTest

/// The one exit-code rule of every command, case by case: 2 for a usage error (an option value,
/// a path in the way — found before any work), 1 when an input failed (named, the others go on),
/// and in both cases exactly one line on stderr, `PATH: error: WHAT` or `error: WHAT`, never
/// followed by usage text.
final class ExitRuleTests: XCTestCase {
    private var tmp: URL!

    override func setUpWithError() throws {
        tmp = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("art"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try Fixture.sample("oc_saxophone_palette.png", to: tmp.appendingPathComponent("art/cat.png"))
        try Data("not a folder".utf8).write(to: tmp.appendingPathComponent("afile"))
        try Data("not a catalog".utf8).write(to: tmp.appendingPathComponent("file.xcstickers"))
        try Data("file,label\ncat.png\n".utf8).write(to: tmp.appendingPathComponent("short.csv"))
        try Data("\"cat.png,Cat\n".utf8).write(to: tmp.appendingPathComponent("quote.csv"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    struct Case {
        var args: [String]
        var status: Int32
        /// The line starts with this (the path at fault and `error:`).
        var prefix: String
        /// …and says this.
        var says: String
    }

    /// Each case of issue 12's "one vocabulary" list, for every command that has the concern.
    var cases: [Case] {
        let pack = ["pack", "-o", "Out.xcstickers"]
        var all: [Case] = []
        // A missing input: 1, named.
        for cmd in [["resize", "-o", "out"], pack, ["check"], ["preview", "-o", "pv"], ["icons", "-o", "ic"]] {
            all.append(Case(args: cmd + ["nope.png"], status: 1, prefix: "nope.png: error: ", says: "no such file or folder"))
        }
        // An empty folder: 1, named.
        for cmd in [["resize", "-o", "out"], pack, ["check"], ["preview", "-o", "pv"]] {
            all.append(Case(args: cmd + ["empty"], status: 1, prefix: "empty: error: ", says: "no images found in this folder"))
        }
        // A budget that cannot be: 2, one rule and one message for every command that takes a budget.
        for cmd in [["resize", "-o", "out", "art"], pack + ["art"], ["check", "art"], ["preview", "-o", "pv", "art"]] {
            for kb in ["0", "-5", "0.05"] {
                all.append(Case(args: cmd + ["--max-kb", kb], status: 2, prefix: "error: --max-kb ",
                                says: "takes a budget in KB (1 KB = 1,000 bytes) from 0.1 to 1,000,000,000 (got \(kb))"))
            }
        }
        // -o in the way: 2, naming the file.
        all.append(Case(args: ["resize", "art", "-o", "afile"], status: 2, prefix: "afile: error: ", says: "is a file, not a folder"))
        all.append(Case(args: ["preview", "art", "-o", "afile"], status: 2, prefix: "afile: error: ", says: "is a file, not a folder"))
        all.append(Case(args: ["icons", "art/cat.png", "-o", "afile"], status: 2, prefix: "afile: error: ", says: "is a file, not a folder"))
        all.append(Case(args: ["pack", "art", "-o", "file.xcstickers"], status: 2, prefix: "file.xcstickers: error: ", says: "is a file"))
        all.append(Case(args: ["resize", "art", "-o", "afile/out"], status: 2, prefix: "afile/out: error: ", says: "afile is a file, not a folder"))
        all.append(Case(args: ["pack", "art", "-o", "afile/Out.xcstickers"], status: 2, prefix: "afile/Out.xcstickers: error: ",
                        says: "afile is a file, not a folder"))
        all.append(Case(args: ["preview", "art", "-o", "art"], status: 2, prefix: "art: error: ", says: "is also an input folder"))
        // --report naming an input: 2, before anything is written (the input stays as it is).
        all.append(Case(args: ["resize", "art", "-o", "out", "--report", "art/cat.png"], status: 2, prefix: "art/cat.png: error: ", says: "is an input"))
        all.append(Case(args: pack + ["art", "--report", "art/cat.png"], status: 2, prefix: "art/cat.png: error: ", says: "is an input"))
        // pack writes one grid size: it does not offer `all`.
        all.append(Case(args: pack + ["art", "--size", "all"], status: 2, prefix: "error: ", says: "'small', 'regular' or 'large'"))
        // Labels files: one line naming the file and the problem.
        all.append(Case(args: pack + ["art", "--labels", "short.csv"], status: 2, prefix: "short.csv: error: ", says: "line 2 has 1 field"))
        all.append(Case(args: pack + ["art", "--labels", "quote.csv"], status: 2, prefix: "quote.csv: error: ", says: "unterminated quoted field"))
        all.append(Case(args: pack + ["art", "--labels", "none.csv"], status: 2, prefix: "none.csv: error: ", says: "no such file"))
        // Options the parser refuses: 2, one line pointing at the command's help.
        for cmd in [["resize", "art", "-o", "out"], pack + ["art"], ["check", "art"], ["preview", "art", "-o", "pv"], ["icons", "art/cat.png", "-o", "ic"]] {
            all.append(Case(args: cmd + ["--no-such-option"], status: 2, prefix: "error: ", says: "--help"))
        }
        all.append(Case(args: ["resize", "-o", "out", "-dash.png"], status: 2, prefix: "-dash.png: error: ", says: "./-dash.png"))
        return all
    }

    func testEveryCommandFollowsTheOneRuleWithOneLine() throws {
        let before = try Data(contentsOf: tmp.appendingPathComponent("art/cat.png"))
        for c in cases {
            let r = try CLI.run(c.args, in: tmp)
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            XCTAssertEqual(r.status, c.status, "\(c.args): \(r.stderr)")
            XCTAssertEqual(lines.count, 1, "\(c.args): not one line:\n\(r.stderr)")
            guard let line = lines.first else { continue }
            XCTAssertTrue(line.hasPrefix(c.prefix), "\(c.args): \(line)")
            XCTAssertTrue(line.contains(c.says), "\(c.args): \(line)")
            XCTAssertFalse(r.stderr.contains("Usage:"), "\(c.args): \(r.stderr)")
        }
        XCTAssertEqual(try Data(contentsOf: tmp.appendingPathComponent("art/cat.png")), before, "an input was modified")
        for made in ["out", "Out.xcstickers", "pv", "ic"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent(made).path), "\(made) was written")
        }
    }

    /// The image pictures or icons are made from is never replaced, whatever the flags: a pack
    /// picture named as the image (`icons --platform` replaced it with --overwrite, or without
    /// when the manifest recorded it), or an image inside the icon set `icons` or `pack --icon`
    /// replaces whole (it was removed with the set). One line, exit 2, nothing written.
    func testAnIconImageIsNeverReplaced() throws {
        let set = "iMessage App Icon.stickersiconset/ios-marketing-1024x1024@1x.png"
        let images = ["tg/thumbnail.png", "set/" + set, "P.xcstickers/" + set]
        for image in images { try Fixture.sample("oc_teddybear.png", to: tmp.appendingPathComponent(image)) }
        let before = try images.map { try Data(contentsOf: tmp.appendingPathComponent($0)) }
        let runs: [([String], String)] = [
            (["icons", "--platform", "telegram", images[0], "-o", "tg", "--overwrite"], "\(images[0]): error: is the image the pictures are made from"),
            (["icons", images[1], "-o", "set"], "\(images[1]): error: the image: is inside the icon set it would replace"),
            (["icons", images[1], "-o", "set/iMessage App Icon.stickersiconset", "--overwrite"],
             "\(images[1]): error: the image: is inside the icon set it would replace"),
            (["pack", "art", "-o", "P.xcstickers", "--overwrite", "--icon", images[2]], "\(images[2]): error: --icon: is inside the icon set it would replace"),
        ]
        for (args, line) in runs {
            let r = try CLI.run(args, in: tmp)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix(line) && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try images.map { try Data(contentsOf: tmp.appendingPathComponent($0)) }, before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("tg").path), ["thumbnail.png"])
    }

    /// A preview shown again into its own folder never removes or replaces what it shows: a copy
    /// an earlier preview wrote was removed as stale ("1 file of the previous preview removed"),
    /// its contact sheet replaced. One line, exit 2, nothing written.
    func testAPreviewNeverReplacesWhatItShows() throws {
        XCTAssertEqual(try CLI.run(["preview", "art/cat.png", "-o", "pv", "--png"], in: tmp).status, 0)
        let before = try BatchSafety.snapshot(tmp.appendingPathComponent("pv"))
        for (shown, flags) in [("pv/stickers/001-cat.png", [String]()), ("pv/contact-sheet.png", ["--overwrite"])] {
            let r = try CLI.run(["preview", shown, "-o", "pv", "--png"] + flags, in: tmp)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertEqual(r.stderr, "\(shown): error: -o: is shown by this preview and is a file it would replace or remove; choose another -o\n")
        }
        XCTAssertEqual(try BatchSafety.snapshot(tmp.appendingPathComponent("pv")), before)
    }

    /// A file name cannot make a second line: every command escapes what it prints.
    func testANameWithANewlineStaysOneLine() throws {
        let name = "two\nlines.png"
        for cmd in [["resize", "-o", "out"], ["pack", "-o", "Out.xcstickers"], ["check"], ["preview", "-o", "pv"], ["icons", "-o", "ic"]] {
            let r = try CLI.run(cmd + [name], in: tmp)
            XCTAssertEqual(r.status, 1, "\(cmd): \(r.stderr)")
            XCTAssertEqual(r.stderr, "two\\nlines.png: error: no such file or folder\n", "\(cmd)")
        }
    }
}
