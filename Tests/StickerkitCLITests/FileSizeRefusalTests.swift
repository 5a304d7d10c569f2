import Foundation
import XCTest

/// A file whose bytes alone pass `--max-memory` (they are held whole through a conversion) is
/// refused from its size before it is read, with one line naming the size and the limit; the
/// batch goes on. `check` and `preview` judge one past the default budget from its size.
final class FileSizeRefusalTests: XCTestCase {
    /// A sparse file of `bytes` that starts with a PNG signature (no disk used, nothing else in it).
    static func sparsePNG(_ url: URL, bytes: UInt64) throws {
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: bytes)
        try handle.close()
    }

    func testAFileLargerThanTheBudgetIsRefusedBeforeItIsRead() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        // Reading it would hold 100 MB.
        try Self.sparsePNG(tmp.appendingPathComponent("big.png"), bytes: 100_000_000)
        try Fixture.sample("oc_saxophone_palette.png", to: tmp.appendingPathComponent("cat.png"))
        let r = try CLI.run(["resize", "big.png", "cat.png", "-o", "out", "--max-memory", "64"], in: tmp)
        XCTAssertEqual(r.status, 1)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, r.stderr)
        XCTAssertEqual(lines.first.map(String.init),
                       "big.png: error: PNG: converting this 100 MB file needs at least 126 MB of memory, over the 64 MB limit (--max-memory raises it)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("out/cat.png").path), "the batch goes on")
    }

    /// `check` judges such a file from its size and first bytes, without reading it.
    func testCheckJudgesAFileLargerThanOneFileMayHoldFromItsSize() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        try Self.sparsePNG(tmp.appendingPathComponent("big.png"), bytes: 300_000_000)
        let r = try CLI.run(["check", "big.png"], in: tmp)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stdout.contains("ERROR  PNG"), r.stdout)
        XCTAssertTrue(r.stdout.contains("unreadable: not read: 300 MB, more than one file may hold in memory (256 MB)"), r.stdout)
    }

    /// An input its budget will not let be read, touched without being changed since its sticker
    /// was made, is still found up to date: its digest is taken as it is read, not from its bytes
    /// held whole.
    func testAnUnchangedInputPastTheBudgetIsStillUpToDate() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let cat = tmp.appendingPathComponent("cat.png")
        try Fixture.sample("oc_saxophone_palette.png", to: cat)
        XCTAssertEqual(try CLI.run(["resize", "cat.png", "-o", "out"], in: tmp).status, 0)
        let sticker = try Data(contentsOf: tmp.appendingPathComponent("out/cat.png"))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: cat.path)
        // 26 MB: the process alone; any file's bytes pass it.
        let r = try CLI.run(["resize", "cat.png", "-o", "out", "--max-memory", "26"], in: tmp)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertEqual(try Data(contentsOf: tmp.appendingPathComponent("out/cat.png")), sticker)
    }

    /// `preview` names such a file on one line (exit 1) and shows it by that report alone, not
    /// copied, beside the stickers it can read.
    func testPreviewShowsAFileLargerThanOneFileMayHoldByItsReport() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("art"), withIntermediateDirectories: true)
        try Self.sparsePNG(tmp.appendingPathComponent("art/big.png"), bytes: 300_000_000)
        try Fixture.sample("oc_saxophone_palette.png", to: tmp.appendingPathComponent("art/cat.png"))
        let r = try CLI.run(["preview", "art", "-o", "pv"], in: tmp)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertEqual(r.stderr, "art/big.png: error: not read: 300 MB, more than one file may hold in memory (256 MB)\n")
        let html = try String(contentsOf: tmp.appendingPathComponent("pv/index.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("not read: 300 MB, more than one file may hold in memory (256 MB)"))
        XCTAssertTrue(html.contains("cat.png"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent("pv/stickers").path), ["002-cat.png"])
    }
}

