import Foundation
import XCTest

final class UsageTests: XCTestCase {
    func testUsageErrorsExitWithTwo() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let cases: [[String]] = [
            ["resize", "x.png"],                                   // no -o
            ["resize", "x.png", "-o", tmp.path, "--size", "huge"],
            ["resize", "x.png", "-o", tmp.path, "--inset", "300"],
            ["resize", "x.png", "-o", tmp.path, "--quality", "90-10"],
            ["resize", "x.png", "-o", tmp.path, "--jobs", "0"],
            ["resize", "x.png", "-o", tmp.path, "--max-kb", "0"],
            ["resize", "x.png", "-o", tmp.path, "--max-kb", "1e300"],   // would overflow the bytes
            ["resize", "x.png", "-o", tmp.path, "--max-bytes", "99"],
            ["check", "x.png", "--max-bytes", "99"],                     // one budget rule for every command
            ["check", "x.png", "--max-kb", "0.05"],
        ]
        for args in cases {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.isEmpty, "\(args) printed no reason")
        }
    }

    func testMissingInputIsNamedAndFails() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let r = try CLI.run(["resize", tmp.appendingPathComponent("nope.png").path, "-o", tmp.appendingPathComponent("out").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("nope.png: error: no such file or folder"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("out").path))
    }

    /// An empty path (a shell variable never set: `-o "$OUT"`) named nothing, and the file system
    /// took it for the current folder: `resize art.png -o ""` wrote its sticker there, `preview`
    /// its page, `icons` its set, and `resize ""` converted the whole folder. An empty option
    /// is now a usage error before anything is read; an empty input is named, and the others go on.
    func testAnEmptyPathNamesNothing() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let art = tmp.appendingPathComponent("art.png")
        try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("samples/oc_teddybear.png"), to: art)
        let options: [[String]] = [
            ["resize", "art.png", "-o", ""],
            ["resize", "art.png", "-o", "out", "--report", ""],
            ["preview", "art.png", "-o", ""],
            ["icons", "art.png", "-o", ""],
            ["icons", "", "-o", "icons"],
            ["pack", "art.png", "-o", ""],
            ["pack", "art.png", "-o", "A.xcstickers", "--icon", ""],
            ["pack", "art.png", "-o", "A.xcstickers", "--labels", ""],
            ["pack", "art.png", "-o", "A.xcstickers", "--cache", ""],
        ]
        for args in options {
            let r = try CLI.run(args, in: tmp)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(" is empty: it must name "), "\(args): \(r.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.path), ["art.png"])

        for args in [["resize", "", "art.png", "-o", "out"], ["check", "", "art.png"], ["preview", "", "art.png", "-o", "pv"],
                     ["bench", ""]] {
            let r = try CLI.run(args, in: tmp)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.hasPrefix("\"\": error: no such file or folder (the argument is empty)\n"), "\(args): \(r.stderr)")
        }
        // The other input went on.
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("out/art.png").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("pv/index.html").path))
    }

    /// A labels file past `StickerLabels.maxFileBytes` (sparse: no disk used) is one usage line,
    /// read in no part: a 1.5 GB file named by mistake was parsed until the process passed 24 GB.
    func testALabelsFileTooLargeIsRefusedUnread() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("samples/oc_teddybear.png"),
                                         to: tmp.appendingPathComponent("art.png"))
        let labels = tmp.appendingPathComponent("labels.csv")
        XCTAssertTrue(FileManager.default.createFile(atPath: labels.path, contents: nil))
        let handle = try FileHandle(forWritingTo: labels)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        let r = try CLI.run(["pack", "art.png", "-o", "A.xcstickers", "--labels", "labels.csv"], in: tmp)
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertEqual(r.stderr, "labels.csv: error: 1074 MB: a labels file is at most 4 MB; is this the labels file?\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("A.xcstickers").path))
    }

    /// `check o/b.png` stopped the process (Foundation's `deletingLastPathComponent` applied to
    /// its own one-character result), as did `check o` for a folder `o` holding stickers.
    func testCheckTakesFoldersOfOneCharacter() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let folder = tmp.appendingPathComponent("o/p.stickerpack/s.sticker")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for dest in [tmp.appendingPathComponent("o/b.png"), folder.appendingPathComponent("s.png")] {
            try FileManager.default.copyItem(at: CLI.repositoryRoot.appendingPathComponent("samples/oc_teddybear.png"), to: dest)
        }
        for args in [["check", "o/b.png"], ["check", "o"], ["check", "./o/b.png", "o/p.stickerpack/s.sticker/s.png"]] {
            let r = try CLI.run(args, in: tmp)
            XCTAssertEqual(r.status, 1, "\(args): \(r.stderr)")   // the teddy bear is not square
            XCTAssertTrue(r.stdout.contains("error    square: not square: 744×1052"), "\(args): \(r.stdout)")
        }
    }

    /// A mistyped command was "2 unexpected arguments: 'rezise', 'x'". It is named now, with the
    /// command meant when one is a letter or two away, else the list of commands.
    func testAMistypedCommandNamesTheOneMeant() throws {
        let cases: [([String], String)] = [
            (["rezise", "x.png"], "error: 'rezise' is not a stickerkit command; did you mean 'resize'? (see 'stickerkit --help')\n"),
            (["Check", "x.png"], "error: 'Check' is not a stickerkit command; did you mean 'check'? (see 'stickerkit --help')\n"),
            (["convert", "x.png"], "error: 'convert' is not a stickerkit command; the commands are resize, bench, check, pack, icons, "
                + "preview (see 'stickerkit --help')\n"),
        ]
        for (args, line) in cases {
            let r = try CLI.run(args)
            XCTAssertEqual(r.status, 2, "\(args)")
            XCTAssertEqual(r.stderr, line)
        }
        XCTAssertEqual(try CLI.run(["help", "check"]).status, 0)
        XCTAssertEqual(try CLI.run(["--version"]).status, 0)
    }

    func testHelpListsTheOptions() throws {
        let r = try CLI.run(["resize", "--help"])
        XCTAssertEqual(r.status, 0)
        for option in ["--size", "--fit", "--trim", "--inset", "--linear", "--jobs", "--overwrite", "--report", "--quiet", "--max-kb"] {
            XCTAssertTrue(r.stdout.contains(option), "help lacks \(option)")
        }
    }
}
