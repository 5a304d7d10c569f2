import Foundation
import XCTest
@testable import StickerkitCLI

/// Problems with -o and --report are found before anything is converted: one usage error, exit 2,
/// nothing written; and the option vocabulary every command shares.
final class PathCheckTests: XCTestCase {
    var tmp: URL!
    var art: URL { tmp.appendingPathComponent("art") }
    var out: URL { tmp.appendingPathComponent("out") }

    override func setUpWithError() throws {
        tmp = try CLI.temporaryDirectory()
        try Fixture.sample("oc_saxophone_palette.png", to: art.appendingPathComponent("sax.png"))
        try Fixture.sample("oc_teddybear.png", to: art.appendingPathComponent("cat.png"))
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    /// Exit 2, one line naming the problem, nothing written, inputs unchanged.
    func assertUsageError(_ args: [String], mentions words: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try BatchSafety.snapshot(art)
        let r = try CLI.run(["resize", art.path, "--size", "small"] + args)
        XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)", file: file, line: line)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, "\(args): one line: \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(": error: "), "\(args): \(r.stderr)", file: file, line: line)
        for w in words { XCTAssertTrue(r.stderr.contains(w), "\(args): \(r.stderr) lacks \(w)", file: file, line: line) }
        XCTAssertFalse(r.stderr.contains("Error Domain"), r.stderr, file: file, line: line)
        XCTAssertEqual(try BatchSafety.snapshot(art), before, "\(args): inputs changed", file: file, line: line)
        XCTAssertEqual(try BatchSafety.stickers(tmp).filter { !$0.hasPrefix("art/") }, [], "\(args): converted before failing",
                       file: file, line: line)
    }

    func testAReportThatIsAnInputIsRefused() throws {
        try assertUsageError(["-o", out.path, "--report", art.appendingPathComponent("cat.png").path], mentions: ["--report", "input"])
    }

    func testAReportThatWouldReplaceAnotherFileIsRefused() throws {
        let notes = tmp.appendingPathComponent("notes.json")
        try Data("{\"mine\": true}".utf8).write(to: notes)
        try assertUsageError(["-o", out.path, "--report", notes.path], mentions: ["--report", "not a stickerkit report"])
        XCTAssertEqual(try Data(contentsOf: notes), Data("{\"mine\": true}".utf8))
        // A large file that is no JSON is refused from its first bytes (scripts/check-bombs
        // measures that it is not read whole).
        let large = tmp.appendingPathComponent("large.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: large.path, contents: nil))
        try FileHandle(forWritingTo: large).truncate(atOffset: 100 << 20)
        try assertUsageError(["-o", out.path, "--report", large.path], mentions: ["--report", "not a stickerkit report"])
        // An earlier report is replaced.
        let report = tmp.appendingPathComponent("report.json")
        XCTAssertEqual(try CLI.run(["resize", art.path, "-o", out.path, "--size", "small", "--report", report.path]).status, 0)
        let again = try CLI.run(["resize", art.path, "-o", out.path, "--size", "small", "--report", report.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        // One re-indented by hand is still a report.
        try Data("\n  ".utf8 + Data(contentsOf: report)).write(to: report)
        XCTAssertEqual(try CLI.run(["resize", art.path, "-o", out.path, "--size", "small", "--report", report.path]).status, 0)
    }

    /// `--report -` writes the report to standard output (it wrote a file named "-"); pack's
    /// summary line then goes to stderr, so that standard output is the JSON alone.
    func testAReportToStandardOutput() throws {
        let r = try CLI.run(["resize", art.path, "-o", out.path, "--size", "small", "--report", "-"], in: tmp)
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["summary"] as? [String: Any])?["converted"] as? Int, 2)
        XCTAssertTrue(BatchReport.isReport(Array(r.stdout.utf8)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("-").path))
        let pack = try CLI.run(["pack", art.path, "-o", tmp.appendingPathComponent("A.xcstickers").path, "--report", "-"], in: tmp)
        XCTAssertEqual(pack.status, 0, pack.stderr)
        let packed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(pack.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((packed["summary"] as? [String: Any])?["stickers"] as? Int, 2)
        XCTAssertTrue(pack.stderr.contains("A.xcstickers: 2 stickers (regular): 2 added"), pack.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("-").path))
    }

    func testAReportThatCannotBeWrittenIsFoundFirst() throws {
        let blocker = tmp.appendingPathComponent("blocker")
        try Data("a file".utf8).write(to: blocker)
        try assertUsageError(["-o", out.path, "--report", blocker.appendingPathComponent("report.json").path],
                             mentions: ["--report", "blocker is a file, not a folder"])
        try assertUsageError(["-o", out.path, "--report", tmp.path], mentions: ["--report", "is a folder"])
        try FileManager.default.createSymbolicLink(at: tmp.appendingPathComponent("link.json"), withDestinationURL: blocker)
        try assertUsageError(["-o", out.path, "--report", tmp.appendingPathComponent("link.json").path],
                             mentions: ["symbolic link", "--report - for standard output"])
    }

    func testAnOutputFolderThatIsAFileIsOneError() throws {
        let file = tmp.appendingPathComponent("stickers")
        try Data("a file".utf8).write(to: file)
        try assertUsageError(["-o", file.path], mentions: ["-o", "is a file, not a folder"])
        try assertUsageError(["-o", file.appendingPathComponent("sub").path], mentions: ["-o", "stickers is a file, not a folder"])
        XCTAssertEqual(try Data(contentsOf: file), Data("a file".utf8))
    }

    func testBudgetValuesAreJudgedByOneRuleWithOneMessage() throws {
        for value in ["0", "-5", "0.05"] {
            for command in [["resize", "x.png", "-o", out.path], ["check", "x.png"]] {
                let r = try CLI.run(command + ["--max-kb", value])
                XCTAssertEqual(r.status, 2, "\(command) --max-kb \(value): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("--max-kb takes a budget in KB"), "\(command) \(value): \(r.stderr)")
                XCTAssertFalse(r.stderr.contains("Missing value"), r.stderr)
            }
        }
        for command in ["resize", "check", "pack", "preview", "bench"] {
            let help = try CLI.run([command, "--help"]).stdout
            XCTAssertTrue(help.contains("KB"), "\(command) help")
            XCTAssertFalse(help.contains("kB"), "\(command) help says kB")
        }
    }

    func testShellCompletionOffersFilesAndFolders() throws {
        let zsh = try CLI.run(["--generate-completion-script", "zsh"]).stdout
        let resize = zsh.components(separatedBy: "_stickerkit_resize()").dropFirst().first ?? ""
        XCTAssertTrue(resize.contains("'*:inputs:_files'"), "inputs complete file names")
        XCTAssertTrue(resize.contains("_files -/"), "-o completes folder names")
    }
}
