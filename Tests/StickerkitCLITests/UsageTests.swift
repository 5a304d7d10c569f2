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

    func testHelpListsTheOptions() throws {
        let r = try CLI.run(["resize", "--help"])
        XCTAssertEqual(r.status, 0)
        for option in ["--size", "--fit", "--trim", "--inset", "--linear", "--jobs", "--overwrite", "--report", "--quiet", "--max-kb"] {
            XCTAssertTrue(r.stdout.contains(option), "help lacks \(option)")
        }
    }
}
