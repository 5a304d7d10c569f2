import Foundation
import XCTest
import StickerPackaging
@testable import StickerkitCLI
#if canImport(Glibc)
import Glibc
#endif

/// The file-handling pieces in the process: byte paths, message escaping, SHA-256, temporary
/// names, the dashed-argument check.
final class FileHandlingTests: XCTestCase {
    func testBytePathsKeepEveryByte() {
        let latin1 = BytePath(bytes: Array("art/caf".utf8) + [0xE9] + Array(".PNG".utf8))
        XCTAssertNil(latin1.string)
        XCTAssertEqual(latin1.display, "art/caf\\xE9.PNG")
        XCTAssertEqual(latin1.lowercasedExtension, "png")
        XCTAssertEqual(latin1.deletingExtension.appendingSuffix(".png").bytes, Array("art/caf".utf8) + [0xE9] + Array(".png".utf8))
        XCTAssertEqual(latin1.lastComponent.bytes, Array("caf".utf8) + [0xE9] + Array(".PNG".utf8))
        XCTAssertEqual(latin1.parent, BytePath("art"))
        XCTAssertEqual(BytePath(".hidden").deletingExtension, BytePath(".hidden"))
        XCTAssertEqual(BytePath("a.b/c").lowercasedExtension, "")
        XCTAssertEqual(BytePath("/x").parent, BytePath("/"))
        XCTAssertEqual(BytePath("x").parent, BytePath(""))
        XCTAssertEqual(BytePath("/a/./b/../c//d/").standardized, BytePath("/a/c/d"))
        XCTAssertEqual(BytePath("out/small/cat.png").relative(to: BytePath("out/")), BytePath("small/cat.png"))
        XCTAssertNil(BytePath("outside/cat.png").relative(to: BytePath("out")))
        XCTAssertTrue(BytePath("a") < BytePath("b") && BytePath("Z") < BytePath("a"), "byte order")
    }

    func testBytePathsRoundTripThroughJSON() throws {
        for path in [BytePath("sub/cat.png"), BytePath(bytes: [0x63, 0xE9, 0xFF, 0x0A])] {
            let json = try JSONEncoder().encode([path])
            XCTAssertEqual(try JSONDecoder().decode([BytePath].self, from: json), [path])
        }
        XCTAssertEqual(String(decoding: try JSONEncoder().encode([BytePath(bytes: [0xE9])]), as: UTF8.self), "[{\"hex\":\"e9\"}]")
    }

    func testMessagesStayOnOneLine() {
        XCTAssertEqual(MessageText.escape("a\nb\rc\td"), "a\\nb\\rc\\td")
        XCTAssertEqual(MessageText.escape("\u{1B}[2K\u{7}"), "\\x1B[2K\\x07")
        XCTAssertEqual(MessageText.escape("right\u{202E}gnp.exe"), "right\\u{202E}gnp.exe")
        XCTAssertEqual(MessageText.escape("line\u{2028}sep"), "line\\u{2028}sep")
        XCTAssertEqual(MessageText.escape("Ünïcödé 猫.png"), "Ünïcödé 猫.png")
        XCTAssertEqual(MessageText.escape(bytes: [0x61, 0xC3, 0x28, 0xF0, 0x9F, 0x98, 0x80, 0xED, 0xA0, 0x80]), "a\\xC3(😀\\xED\\xA0\\x80",
                       "invalid, valid four-byte, and surrogate sequences")
        XCTAssertFalse(MessageText.isUTF8([0xC0, 0x80]), "overlong")
        XCTAssertTrue(MessageText.isUTF8(Array("猫".utf8)))
    }

    func testSHA256MatchesTheStandardVectors() {
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Lengths around the padding boundary (55, 56, 64 bytes) against the system's tool.
        for n in [55, 56, 63, 64, 65, 119, 120] {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            XCTAssertEqual(SHA256.hex(bytes), try sha256sum(bytes), "\(n) bytes")
        }
    }

    private func sha256sum(_ bytes: [UInt8]) throws -> String {
        let p = Process()
        #if os(Linux)
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        #else
        p.executableURL = URL(fileURLWithPath: "/usr/bin/shasum")
        p.arguments = ["-a", "256"]
        #endif
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data(bytes))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return String(text.prefix(64))
    }

    func testTemporaryNamesAreRecognisedAndJudgedStaleOnlyWhenTheirProcessIsGone() throws {
        let mine = TemporaryName.mine(7)
        XCTAssertEqual(TemporaryName(parsing: mine.fileName), mine)
        XCTAssertFalse(mine.isStale(noOtherWriter: true), "this process's own files are never stale")
        let dead = try Fixture.deadPID()
        XCTAssertEqual(TemporaryName(parsing: BytePath(".cat.png.stickerkit-\(dead)-3.tmp")),
                       TemporaryName(host: TemporaryName.thisHost, pid: dead, counter: 3), "the earlier form")
        XCTAssertTrue(TemporaryName(host: TemporaryName.thisHost, pid: dead, counter: 1).isStale(noOtherWriter: false))
        XCTAssertFalse(TemporaryName(host: TemporaryName.thisHost, pid: 1, counter: 1).isStale(noOtherWriter: false), "pid 1 is alive")
        XCTAssertTrue(TemporaryName(host: TemporaryName.thisHost, pid: 1, counter: 1).isStale(noOtherWriter: true))
        XCTAssertFalse(TemporaryName(host: "00000000", pid: dead, counter: 1).isStale(noOtherWriter: true), "another machine's")
        for name in [".stickerkit-tmp-xyz-1-1", ".stickerkit-tmp-0000000g-1-1", "cat.png", ".cat.stickerkit-abc-1.tmp",
                     ".stickerkit-1-1.tmp", ".stickerkit-notes.tmp"] {
            XCTAssertNil(TemporaryName(parsing: BytePath(name)), name)
        }
    }

    func testADashedFileNameIsCaughtButOptionsAndNumbersAreNot() {
        XCTAssertNotNil(DashedArgument.problem(in: ["resize", "-dash.png", "-o", "out"]))
        XCTAssertNotNil(DashedArgument.problem(in: ["resize", "-dash", "-o", "out"]))
        XCTAssertNil(DashedArgument.problem(in: ["resize", "-o", "out", "--", "-dash.png"]))
        XCTAssertNil(DashedArgument.problem(in: ["resize", "a.png", "-qv", "-o", "out", "-j", "2", "--max-kb", "-0.5"]))
    }

    /// A file is read into an array of its own size: the bytes exactly, with no room to spare
    /// (growing the array past the end to find the end kept 1.5 times a 94 MB input for the whole
    /// conversion, and held 3.5 times it at once while reading). Empty files read as empty.
    func testFilesAreReadWholeIntoArraysOfTheirOwnSize() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        for count in [0, 1, 4095, 4096, 65_536, 3_000_001] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
            let url = tmp.appendingPathComponent("f\(count)")
            try Data(bytes).write(to: url)
            let read = try FileSystem.readFile(BytePath(url.path))
            XCTAssertEqual(read, bytes, "\(count) bytes")
            XCTAssertLessThan(read.capacity, count + 4096, "\(count) bytes read into \(read.capacity)")
        }
    }

    /// The end of a file is read without the rest: `pack --platform whatsapp -o` reads only the
    /// end of a file in its way to see whether stickerkit wrote it (a 1.5 GB file there was read
    /// whole). A pack stickerkit wrote is known by its tail alone; a folder gives nothing.
    func testTheEndOfAFileIsReadAlone() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let url = tmp.appendingPathComponent("f")
        try Data(bytes).write(to: url)
        XCTAssertEqual(FileSystem.readTail(BytePath(url.path), count: 70_000), Array(bytes.suffix(70_000)))
        XCTAssertEqual(FileSystem.readTail(BytePath(url.path), count: 200_000), bytes)
        XCTAssertNil(FileSystem.readTail(BytePath(tmp.path), count: 10))
        let pack = try WastickersPack(title: "T", author: "A", trayPNG: [1],
                                      stickers: (0..<3).map { _ in .init(webp: [UInt8](repeating: 9, count: 40_000), animated: false) }).archive()
        let packURL = tmp.appendingPathComponent("p.wastickers")
        try Data(pack).write(to: packURL)
        XCTAssertGreaterThan(pack.count, WastickersPack.markerTailBytes)
        XCTAssertEqual(ArchiveInputs.stickerkitPack(at: BytePath(packURL.path)), .whatsapp)
        XCTAssertNil(ArchiveInputs.stickerkitPack(at: BytePath(url.path)))
    }

    func testAtomicWritesRefuseLinksAndFoldersAndLeaveNoTemporaries() throws {
        let tmp = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tmp) }
        let target = BytePath(tmp.appendingPathComponent("sub/file.txt").path)
        try AtomicFile.write(Array("one".utf8), to: target)
        try AtomicFile.write(Array("two".utf8), to: target)
        XCTAssertEqual(try FileSystem.readFile(target), Array("two".utf8))
        let victim = tmp.appendingPathComponent("victim")
        try Data("precious".utf8).write(to: victim)
        let link = tmp.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        XCTAssertThrowsError(try AtomicFile.write(Array("x".utf8), to: BytePath(link.path))) { error in
            XCTAssertEqual((error as? FileError)?.problem, .symbolicLink)
        }
        XCTAssertThrowsError(try AtomicFile.write(Array("x".utf8), to: BytePath(tmp.appendingPathComponent("sub").path))) { error in
            XCTAssertEqual((error as? FileError)?.problem, .isAFolder)
        }
        XCTAssertEqual(try Data(contentsOf: victim), Data("precious".utf8))
        XCTAssertEqual(BatchSafety.paths(tmp).filter { $0.contains(".stickerkit-tmp") }, [])
    }
}
