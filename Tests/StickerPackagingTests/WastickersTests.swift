import Foundation
import StickerPackaging
import XCTest

/// The stored ZIP writer and the `.wastickers` pack rules. The archives are read back by a ZIP
/// reader that is not ours (Python's zipfile), which checks names, sizes and CRCs.
final class WastickersTests: XCTestCase {
    func testCRC32MatchesTheStandardCheckValue() {
        XCTAssertEqual(StoredZip.crc32(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(StoredZip.crc32([]), 0)
    }

    func testAnotherZipReaderReadsTheArchive() throws {
        let big = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let entries = [StoredZip.Entry(name: "01.webp", bytes: big), .init(name: "empty.txt", bytes: []),
                       .init(name: "título ünï.txt", bytes: Array("héllo\n".utf8))]
        let zip = StoredZip(entries: entries, comment: "a comment").bytes()
        XCTAssertEqual(StoredZip.comment(of: zip), "a comment")
        XCTAssertNil(StoredZip.comment(of: Array(zip.dropLast())))
        let listed = try PythonZip.list(zip)
        XCTAssertEqual(listed.map(\.name), entries.map(\.name))
        XCTAssertEqual(listed.map(\.size), entries.map(\.bytes.count))
        XCTAssertEqual(listed.map(\.crc), entries.map { StoredZip.crc32($0.bytes) })
        XCTAssertEqual(listed.map(\.crc)[0], PythonZip.referenceCRC(big))
    }

    /// An archive read from its end (`init(tail:at:)`, entries by range) gives what it gives
    /// held whole: the same entries and bytes, a directory larger than the end-record search
    /// read in a second range, and a tail that misses the directory named as such.
    func testAnArchiveIsReadFromItsEndAndEntriesByRange() throws {
        let names = (0..<2_000).map { "folder with a long name/entry \($0) of the archive.txt" }
        let zip = StoredZip(entries: names.enumerated().map { .init(name: $1, bytes: Array("entry \($0)".utf8)) }).bytes()
        let whole = try ZipReader(zip)
        let tailCount = 22 + 0xFFFF
        let start = zip.count - tailCount
        let directory = try XCTUnwrap(ZipReader.directoryStart(tail: Array(zip.suffix(tailCount)), at: start))
        XCTAssertLessThan(directory, start, "the directory reaches past the end-record search")
        XCTAssertThrowsError(try ZipReader(tail: Array(zip.suffix(tailCount)), at: start)) {
            XCTAssertEqual($0 as? ZipError, .directoryOutside(offset: directory, size: zip.count - directory - 22, fileSize: zip.count))
        }
        let fromEnd = try ZipReader(tail: Array(zip[directory...]), at: directory)
        XCTAssertEqual(fromEnd.entries, whole.entries)
        XCTAssertEqual(fromEnd.byteCount, zip.count)
        var reads = 0
        for e in [fromEnd.entries[0], fromEnd.entries[1_234]] {
            let read = try ZipReader.contents(of: e, limit: 100, fileSize: zip.count) { range in
                reads += 1
                return Array(zip[range])
            }
            XCTAssertEqual(read, try whole.contents(of: e, limit: 100))
        }
        XCTAssertEqual(reads, 4, "its local header, then its data")
        // The tail alone cannot give an entry's bytes: named, not guessed.
        XCTAssertThrowsError(try fromEnd.contents(of: fromEnd.entries[0], limit: 100)) {
            XCTAssertEqual($0 as? ZipError, .entryOutside(name: names[0], offset: 0))
        }
    }

    func testThePackHoldsStickersTrayTitleAndAuthor() throws {
        let stickers = (0..<3).map { WastickersPack.Sticker(webp: [UInt8(0x52), UInt8($0)], animated: false) }
        let pack = WastickersPack(title: "Cats ünï", author: "Me", trayPNG: [1, 2, 3], stickers: stickers)
        let zip = try pack.archive()
        XCTAssertTrue(WastickersPack.isStickerkitArchive(zip))
        XCTAssertFalse(WastickersPack.isStickerkitArchive(StoredZip(entries: [], comment: "other").bytes()))
        let listed = try PythonZip.list(zip)
        XCTAssertEqual(listed.map(\.name), ["01.webp", "02.webp", "03.webp", "tray.png", "title.txt", "author.txt"])
        XCTAssertEqual(listed[4].crc, StoredZip.crc32(Array("Cats ünï".utf8)))
        XCTAssertEqual(listed[4].size, Array("Cats ünï".utf8).count)
    }

    func testWhatsAppsPackRules() {
        func rule(_ count: Int, _ animations: Int) -> WastickersError? {
            do { try WastickersPack.check(count: count, animations: animations); return nil } catch { return error }
        }
        XCTAssertEqual(rule(2, 0), .tooFewStickers(2))
        XCTAssertNil(rule(3, 0))
        XCTAssertNil(rule(30, 30))
        XCTAssertEqual(rule(31, 0), .tooManyStickers(31))
        XCTAssertEqual(rule(5, 2), .mixedKinds(stills: 3, animations: 2))
        XCTAssertEqual(WastickersPack.stickerName(0), "01.webp")
        XCTAssertEqual(WastickersPack.stickerName(29), "30.webp")
        let mixed = WastickersPack(title: "t", author: "a", trayPNG: [],
                                   stickers: [.init(webp: [], animated: true)] + Array(repeating: .init(webp: [], animated: false), count: 3))
        XCTAssertThrowsError(try mixed.archive()) { XCTAssertEqual($0 as? WastickersError, .mixedKinds(stills: 3, animations: 1)) }
    }
}

/// Reads a ZIP archive with Python's zipfile, which checks every entry's CRC (`testzip`), and
/// zlib's CRC-32 of what it read against the central directory's.
enum PythonZip {
    struct Listed: Equatable { var name: String; var size: Int; var crc: UInt32 }
    struct Failed: Error, CustomStringConvertible { var description: String }

    static func list(_ zip: [UInt8]) throws -> [Listed] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("zipreader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.zip")
        try Data(zip).write(to: file)
        let script = """
        import json, sys, zipfile, zlib
        z = zipfile.ZipFile(sys.argv[1])
        bad = z.testzip()
        if bad is not None: sys.exit("bad CRC: " + bad)
        rows = []
        for i in z.infolist():
            data = z.read(i)
            assert len(data) == i.file_size and zlib.crc32(data) == i.CRC and i.compress_type == zipfile.ZIP_STORED
            rows.append([i.filename, i.file_size, i.CRC])
        print(json.dumps(rows))
        """
        let out = try run(["python3", "-c", script, file.path])
        let rows = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[Any]] ?? []
        return rows.map { Listed(name: $0[0] as! String, size: $0[1] as! Int, crc: UInt32($0[2] as! Int)) }
    }

    /// zlib's CRC-32 of `bytes`, computed by Python.
    static func referenceCRC(_ bytes: [UInt8]) -> UInt32 {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let out = (try? run(["python3", "-c", "import sys, zlib; print(zlib.crc32(bytes.fromhex(sys.stdin.read())))"], input: hex)) ?? ""
        return UInt32(out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// `bytes` decoded by Python's `cp437` codec.
    static func decodeCP437(_ bytes: [UInt8]) throws -> String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let out = try run(["python3", "-c", "import sys; sys.stdout.buffer.write(bytes.fromhex(sys.stdin.read()).decode('cp437').encode())"],
                          input: hex)
        return out
    }

    static func run(_ arguments: [String], input: String? = nil) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        let out = Pipe(), err = Pipe(), inPipe = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = inPipe
        try p.run()
        if let input { inPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inPipe.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw Failed(description: "\(arguments[0]) failed: " + String(decoding: errData, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }
}
