import Foundation
import StickerKit
import XCTest
import StickerPackaging
@testable import StickerkitCLI
#if canImport(Glibc)
import Glibc
private let fileSizeLimit = Int32(RLIMIT_FSIZE.rawValue)
#elseif canImport(Darwin)
import Darwin
private let fileSizeLimit = RLIMIT_FSIZE
#endif

/// The manifest and the names in the process: parsing damaged files, telling which files are
/// ours, cutting back a failed append, stable names.
final class ManifestTests: XCTestCase {
    var tmp: URL!
    var root: BytePath { BytePath(tmp.appendingPathComponent("out").path) }

    override func setUpWithError() throws {
        tmp = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("out"), withIntermediateDirectories: true)
    }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    func record(_ output: String, sha: String? = nil, status: FileStatus? = nil) -> ManifestRecord {
        ManifestRecord(version: 2, output: BytePath(output), size: .small, name: BytePath(output), input: BytePath("/art/\(output)"),
                       inputBytes: 1, inputModifiedNanoseconds: 1, inputSHA256: "x", settings: "s",
                       outputBytes: status?.bytes ?? 0, outputModifiedNanoseconds: status?.modifiedNanoseconds,
                       outputInode: status?.id.inode, outputSHA256: sha)
    }

    func line(_ r: ManifestRecord) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return String(decoding: try e.encode(r), as: UTF8.self) + "\n"
    }

    func testDamageIsCountedLineByLine() throws {
        let good = try line(record("a.png"))
        XCTAssertFalse(ManifestLines(parsing: Array((good + "\n  \n" + good).utf8)).isDamaged, "blank lines are not damage")
        let cut = ManifestLines(parsing: Array((good + good.prefix(30)).utf8))
        XCTAssertEqual([cut.records.count, cut.unreadable, cut.total], [1, 1, 2])
        XCTAssertTrue(cut.cutShort)
        let glued = ManifestLines(parsing: Array((good.dropLast() + good).utf8))
        XCTAssertEqual([glued.records.count, glued.unreadable], [0, 1])
        let zeroed = ManifestLines(parsing: [UInt8](repeating: 0, count: 300))
        XCTAssertEqual([zeroed.records.count, zeroed.unreadable], [0, 1])
        XCTAssertTrue(zeroed.isDamaged)
    }

    /// A manifest read in pieces (as the batch reads it, a megabyte at a time) gives what it
    /// gives read whole, wherever the pieces break; a line past `maxLineBytes` is one unreadable
    /// line, never held (a 1.5 GB file at the manifest's name held 3.1 GB; check-bombs measures it).
    func testAManifestReadInPiecesIsReadAsAWhole() throws {
        let good = try line(record("a.png")) + "\n  \n" + (try line(record("b.png")))
        let text = Array((good + "garbage\n" + good + String(good.prefix(40))).utf8)
        let whole = ManifestLines(parsing: text)
        XCTAssertEqual([whole.records.count, whole.unreadable, whole.total], [4, 2, 6])
        for split in stride(from: 1, to: text.count, by: 7) {
            var lines = ManifestLines()
            text.withUnsafeBytes { all in
                var start = 0
                while start < all.count {
                    let end = min(all.count, start + split)
                    lines.add(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                    start = end
                }
            }
            lines.end()
            XCTAssertEqual(lines.records, whole.records, "pieces of \(split)")
            XCTAssertEqual([lines.unreadable, lines.total], [whole.unreadable, whole.total], "pieces of \(split)")
            XCTAssertEqual(lines.cutShort, whole.cutShort)
        }
        let long = Array(good.utf8) + [UInt8](repeating: 0x61, count: ManifestLines.maxLineBytes + 1) + Array(("\n" + good).utf8)
        let read = ManifestLines(parsing: long)
        XCTAssertEqual([read.records.count, read.unreadable, read.total], [4, 1, 5])
        XCTAssertFalse(read.cutShort)
    }

    func testRecordsAreCheckedAgainstTheFilesPresent() throws {
        let out = tmp.appendingPathComponent("out")
        func write(_ name: String, _ text: String) throws -> FileStatus {
            try Data(text.utf8).write(to: out.appendingPathComponent(name))
            return try FileStatus.of(BytePath(out.appendingPathComponent(name).path))!
        }
        let same = try write("same.png", "same")
        let copied = try write("copied.png", "copied")
        let edited = try write("edited.png", "edited")
        let killed = try write("killed.png", "old")
        var lines = try line(record("same.png", sha: SHA256.hex(Array("same".utf8)), status: same))
        var stale = copied
        stale.modifiedNanoseconds -= 5_000_000_000
        lines += try line(record("copied.png", sha: SHA256.hex(Array("copied".utf8)), status: stale))
        lines += try line(record("edited.png", sha: SHA256.hex(Array("before the edit".utf8)), status: stale))
        lines += try line(record("gone.png", sha: "0"))
        // Killed between the record of the new file and its rename: the old record still holds.
        lines += try line(record("killed.png", sha: SHA256.hex(Array("old".utf8)), status: killed))
        lines += try line(record("killed.png", sha: SHA256.hex(Array("new".utf8)), status: stale))
        _ = edited
        try Data(lines.utf8).write(to: out.appendingPathComponent(Manifest.fileName))

        let manifest = Manifest(folder: try OutputFolder(root, create: false), shard: nil)
        XCTAssertEqual(Set(manifest.records.keys), [BytePath("same.png"), BytePath("copied.png"), BytePath("killed.png")])
        XCTAssertEqual(manifest.record(for: BytePath("killed.png"))?.outputSHA256, SHA256.hex(Array("old".utf8)))
        XCTAssertEqual(manifest.changedOutputs, [BytePath("edited.png")])
        XCTAssertTrue(manifest.findings.isEmpty)
        XCTAssertFalse(manifest.mayBeIncomplete)
        try manifest.rewriteIfNeeded()
        let rewritten = ManifestLines(parsing: Array(try Data(contentsOf: out.appendingPathComponent(Manifest.fileName))))
        XCTAssertEqual(rewritten.records.map(\.output.display).sorted(), ["copied.png", "killed.png", "same.png"])
        XCTAssertEqual(rewritten.records.first { $0.output == BytePath("copied.png") }?.outputModifiedNanoseconds,
                       copied.modifiedNanoseconds, "the copy's new time is recorded, so it is not hashed again")
    }

    func testAFailedAppendIsCutBackAndThrown() throws {
        let out = tmp.appendingPathComponent("out")
        let manifest = Manifest(folder: try OutputFolder(root, create: false), shard: nil)
        XCTAssertTrue(manifest.mayBeIncomplete, "no manifest yet")
        try manifest.append(record("first.png", sha: "1"))
        let path = out.appendingPathComponent(Manifest.fileName).path
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int

        // A file-size limit a little above the manifest: the next record is written in part,
        // then refused (EFBIG), as on a full disk.
        var old = rlimit()
        getrlimit(fileSizeLimit, &old)
        signal(SIGXFSZ, SIG_IGN)
        var limit = old
        limit.rlim_cur = rlim_t(size + 40)
        XCTAssertEqual(setrlimit(fileSizeLimit, &limit), 0)
        XCTAssertThrowsError(try manifest.append(record("second.png", sha: "2"))) { error in
            XCTAssertEqual((error as? FileError)?.operation, .record)
        }
        XCTAssertEqual(setrlimit(fileSizeLimit, &old), 0)
        signal(SIGXFSZ, SIG_DFL)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size, "the cut record was left")
        XCTAssertNil(manifest.record(for: BytePath("second.png")))

        try manifest.append(record("third.png", sha: "3"))
        let parsed = ManifestLines(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        XCTAssertFalse(parsed.isDamaged)
        XCTAssertEqual(parsed.records.map(\.output), [BytePath("first.png"), BytePath("third.png")])
    }

    func testAnAppendAfterACutLineStartsOnANewLine() throws {
        let out = tmp.appendingPathComponent("out")
        try Data((try line(record("a.png")) + "{\"output\":\"cut").utf8).write(to: out.appendingPathComponent(Manifest.fileName))
        // Not rewritten (as when the rewrite fails for want of space): the cut line stays.
        let manifest = Manifest(folder: try OutputFolder(root, create: false), shard: nil)
        XCTAssertTrue(manifest.mayBeIncomplete)
        XCTAssertEqual(manifest.findings.count, 1)
        try manifest.append(record("b.png", sha: "b"))
        let parsed = ManifestLines(parsing: Array(try Data(contentsOf: out.appendingPathComponent(Manifest.fileName))))
        XCTAssertEqual(parsed.records.map(\.output), [BytePath("a.png"), BytePath("b.png")], "b.png glued to the cut line")
        XCTAssertEqual(parsed.unreadable, 1)
        XCTAssertFalse(parsed.cutShort)
    }

    func testRecordedNamesAreKeptAndNewcomersRenamed() {
        func input(_ rel: String) -> InputFile { InputFile(path: "art/" + rel, relativePath: rel) }
        let gif = input("cat.gif"), png = input("cat.png"), jpg = input("Cat.jpg")
        let fresh = OutputPlan(directory: "out", sizes: [.small], inputs: [gif, png, jpg])
        XCTAssertEqual(fresh.name(for: gif), BytePath("cat.png"), "first in input order")
        XCTAssertEqual(fresh.name(for: png), BytePath("cat.png.png"))
        XCTAssertEqual(fresh.name(for: jpg), BytePath("Cat.jpg.png"), "names differing in case only collide")
        let kept = OutputPlan(directory: "out", sizes: [.small], inputs: [gif, png, jpg]) { $0 == png ? BytePath("cat.png") : nil }
        XCTAssertEqual(kept.name(for: png), BytePath("cat.png"))
        XCTAssertEqual(kept.name(for: gif), BytePath("cat.gif.png"))
        XCTAssertNil(kept.renameMessage(png))
        XCTAssertTrue(kept.renameMessage(gif)?.contains("cat.gif.png") == true)
        XCTAssertEqual(kept.path(for: gif, size: .small), "out/cat.gif.png")
        let all = OutputPlan(directory: "out", sizes: StickerSize.allCases, inputs: [gif]) { _ in nil }
        XCTAssertEqual(all.relativePath(for: gif, size: .large), BytePath("large/cat.png"))
    }
}
