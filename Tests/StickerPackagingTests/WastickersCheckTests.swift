import Foundation
import ImageCore
import PNGEncoding
import StickerKit
import XCTest
@testable import StickerPackaging

/// `ZipReader` and `WastickersChecker`: archives written by another ZIP writer (Python's
/// zipfile: deflated, stored, with data descriptors) and by ours, read back and checked against
/// WhatsApp's pack rules; broken archives give their typed errors, never a crash.
final class WastickersCheckTests: XCTestCase {
    /// A still sticker as `resize --platform whatsapp` makes it, from a coloured square.
    static let still: [UInt8] = {
        var img = Image(width: 64, height: 64)
        for y in 8..<56 { for x in 8..<56 { img[x, y] = RGBA(UInt8(x * 4), 90, UInt8(y * 4), 255) } }
        return convert(PNGEncoder.encode(img, effort: .fast))
    }()

    /// An animated sticker as `resize --platform whatsapp` makes it.
    static let animation: [UInt8] = {
        let frames = (0..<4).map { f -> Image in
            var img = Image(width: 64, height: 64)
            for y in 20..<40 { for x in (f * 8)..<(f * 8 + 20) { img[x, y] = RGBA(200, 40, 40, 255) } }
            return img
        }
        let apng = try! PNGEncoder.encodeAnimation(frames: frames, delays: Array(repeating: Delay(milliseconds: 100), count: 4),
                                                  loopCount: 0, effort: .fast)
        return convert(apng)
    }()

    /// `still` with a 120,000-byte chunk of its own added (RIFF size updated): over WhatsApp's
    /// 100 KB cap, and still a WebP readers take (unknown chunks are skipped).
    static let oversized: [UInt8] = {
        var b = still + Array("XTRA".utf8) + [0xC0, 0xD4, 0x01, 0x00] + [UInt8](repeating: 7, count: 120_000)
        let riff = UInt32(b.count - 8)
        for k in 0..<4 { b[4 + k] = UInt8((riff >> (8 * UInt32(k))) & 0xFF) }
        return b
    }()

    static let tray: [UInt8] = PNGEncoder.encode(Image(width: 96, height: 96, pixels: [UInt8](repeating: 200, count: 96 * 96 * 4)),
                                                 effort: .fast)

    static func convert(_ data: [UInt8]) -> [UInt8] {
        var o = ConversionOptions()
        o.target = .whatsapp
        return try! StickerConverter.convert(data, options: o).outputs[0].result.get().bytes
    }

    func errors(_ r: WastickersCheckReport) -> [StickerFinding.Code] {
        r.allFindings.filter { $0.severity == .error }.map(\.code)
    }

    func text(_ s: String) -> [UInt8] { Array(s.utf8) }

    // MARK: ZipReader

    func testEntriesWrittenByAnotherWriterReadBackExactly() throws {
        let big = (0..<200_000).map { UInt8(truncatingIfNeeded: ($0 / 7) &* 13) }
        let entries = [("01.webp", Self.still), ("big.bin", big), ("empty.txt", []), ("título.txt", text("héllo\n"))]
        for (deflate, stream) in [(true, false), (false, false), (true, true)] {
            let archive = try PythonZip.make(entries, deflate: deflate, stream: stream)
            let reader = try ZipReader(archive)
            XCTAssertEqual(reader.entries.map(\.name), entries.map(\.0))
            XCTAssertEqual(reader.entries.map(\.method), Array(repeating: deflate ? 8 : 0, count: entries.count))
            for (e, want) in zip(reader.entries, entries) {
                XCTAssertEqual(try reader.contents(of: e, limit: 1 << 20), want.1, "\(e.name) deflate \(deflate) stream \(stream)")
            }
        }
        // Our own writer's archive, comment included.
        let ours = StoredZip(entries: entries.map { .init(name: $0.0, bytes: $0.1) }, comment: "a note").bytes()
        let reader = try ZipReader(ours)
        XCTAssertEqual(reader.comment, "a note")
        XCTAssertEqual(try reader.entries.map { try reader.contents(of: $0, limit: 1 << 20) }, entries.map(\.1))
    }

    func testBrokenArchivesGiveTheirErrors() throws {
        let zip = try PythonZip.make([("a.webp", Self.still), ("b.txt", text(String(repeating: "ab", count: 500)))],
                                     deflate: true, stream: false)
        func entryError(_ bytes: [UInt8], _ index: Int, limit: Int = 1 << 20) -> ZipError? {
            do {
                let r = try ZipReader(bytes)
                _ = try r.contents(of: r.entries[index], limit: limit)
                return nil
            } catch { return error }
        }
        func directoryError(_ bytes: [UInt8]) -> ZipError? {
            do { _ = try ZipReader(bytes); return nil } catch { return error }
        }
        let reader = try ZipReader(zip)
        let a = reader.entries[0]
        XCTAssertEqual(directoryError(Array(zip.dropLast(30))), .noEndRecord)
        XCTAssertEqual(directoryError(Array("not a zip at all, not even close".utf8)), .noEndRecord)
        XCTAssertEqual(entryError(zip, 1, limit: 999), .entryTooLarge(name: "b.txt", bytes: 1000, limit: 999))

        // The central directory's fields, patched (its first header follows the entries' data).
        let end = zip.count - 22
        let directory = Int(u32(zip, end + 16))
        var crc = zip
        crc[directory + 16] ^= 1
        XCTAssertEqual(entryError(crc, 0), .crcMismatch(name: "a.webp", declared: a.crc32 ^ 1, computed: a.crc32))
        var method = zip
        method[directory + 10] = 12
        XCTAssertEqual(entryError(method, 0), .unsupportedMethod(name: "a.webp", method: 12))
        var locked = zip
        locked[directory + 8] |= 1
        XCTAssertEqual(entryError(locked, 0), .encrypted(name: "a.webp"))
        var short = zip
        put(&short, directory + 24, UInt32(a.size - 1))
        XCTAssertEqual(entryError(short, 0), .badDeflate(name: "a.webp", declared: a.size - 1))
        var moved = zip
        put(&moved, directory + 42, UInt32(zip.count - 10))
        XCTAssertEqual(entryError(moved, 0), .entryOutside(name: "a.webp", offset: zip.count - 10))
        var counted = zip
        counted[end + 8] = 3; counted[end + 10] = 3
        XCTAssertEqual(directoryError(counted), .directoryCut(found: 2, declared: 3))
        var wide = zip
        put(&wide, end + 16, 0xFFFF_FFFF)
        XCTAssertEqual(directoryError(wide), .zip64)
        var outside = zip
        put(&outside, end + 12, UInt32(zip.count))
        XCTAssertEqual(directoryError(outside), .directoryOutside(offset: directory, size: zip.count, fileSize: zip.count))
        XCTAssertNil(entryError(zip, 0))
        XCTAssertNil(entryError(zip, 1))

        // Cut anywhere, or with any byte changed: an error or the right bytes, never a crash.
        for cut in stride(from: 0, to: zip.count, by: 7) {
            let bytes = Array(zip.prefix(cut))
            if let r = try? ZipReader(bytes) {
                for e in r.entries { _ = try? r.contents(of: e, limit: 1 << 20) }
            }
        }
        for i in stride(from: 0, to: zip.count, by: 3) {
            var bytes = zip
            bytes[i] ^= 0xA5
            if let r = try? ZipReader(bytes) {
                for e in r.entries { _ = try? r.contents(of: e, limit: 1 << 20) }
            }
        }
    }

    // MARK: WastickersChecker

    func testPacksFromOurWriterAndAnotherToolPass() throws {
        let ours = try WastickersPack(title: "Cats", author: "Me", trayPNG: Self.tray,
                                      stickers: Array(repeating: .init(webp: Self.still, animated: false), count: 3)).archive()
        let r = WastickersChecker.check(ours, path: "Cats.wastickers")
        XCTAssertEqual(errors(r), [], "\(r.allFindings)")
        XCTAssertEqual(r.stickers.map(\.path), ["Cats.wastickers/01.webp", "Cats.wastickers/02.webp", "Cats.wastickers/03.webp"])
        XCTAssertEqual(r.tray?.path, "Cats.wastickers/tray.png")
        XCTAssertEqual([r.title, r.author], ["Cats", "Me"])

        // As sticker-convert writes one: deflated, the tray named cover.png, text with a BOM
        // and a line end; a Mac's Finder metadata and a folder entry beside them.
        let theirs = try PythonZip.make([("cover.png", Self.tray), ("author.txt", text("\u{FEFF}Ünï Artist\r\n")),
                                         ("title.txt", text("Dogs")), ("stickers/", []),
                                         ("stickers/a.webp", Self.animation), ("stickers/b.webp", Self.animation),
                                         ("stickers/c.webp", Self.animation), ("__MACOSX/stickers/._a.webp", [0, 5, 22, 7]),
                                         ("stickers/.DS_Store", [0, 0, 0, 1])], deflate: true, stream: true)
        let t = WastickersChecker.check(theirs, path: "Dogs.wastickers")
        XCTAssertEqual(errors(t), [], "\(t.allFindings)")
        XCTAssertEqual(t.allFindings.filter { $0.severity == .warning }, [])
        XCTAssertEqual(t.stickers.count, 3)
        XCTAssertEqual(t.stickers.map(\.facts.frames), [4, 4, 4])
        XCTAssertEqual(t.tray?.path, "Dogs.wastickers/cover.png")
        XCTAssertEqual([t.title, t.author], ["Dogs", "Ünï Artist"])
    }

    func testEachPackRuleIsAFinding() throws {
        func check(_ entries: [(String, [UInt8])]) throws -> WastickersCheckReport {
            WastickersChecker.check(try PythonZip.make(entries, deflate: true, stream: false), path: "p.wastickers")
        }
        let meta = [("title.txt", text("T")), ("author.txt", text("A"))]
        let three = (1...3).map { ("0\($0).webp", Self.still) }
        XCTAssertEqual(errors(try check(three + [("tray.png", Self.tray)] + meta)), [])
        XCTAssertEqual(errors(try check(Array(three.prefix(2)) + [("tray.png", Self.tray)] + meta)), [.stickerCount])
        let many = (1...31).map { ("s\($0).webp", Self.still) }
        XCTAssertEqual(errors(try check(many + [("tray.png", Self.tray)] + meta)), [.stickerCount])
        XCTAssertEqual(errors(try check(three + [("04.webp", Self.animation), ("tray.png", Self.tray)] + meta)), [.mixedKinds])
        // No tray, no title, no author: each named; a second PNG is no tray but a warning.
        let bare = try check(three)
        XCTAssertEqual(errors(bare), [.missingFile, .missingFile, .missingFile])
        XCTAssertTrue(bare.findings[0].message.hasPrefix("no tray icon"), bare.findings[0].message)
        let twoPNGs = try check(three + [("a.png", Self.tray), ("b.png", Self.tray)] + meta)
        XCTAssertEqual(errors(twoPNGs), [.missingFile])
        XCTAssertEqual(twoPNGs.findings.filter { $0.code == .notASticker }.count, 2)
        // A tray of the wrong size, and texts WhatsApp refuses.
        let bigTray = PNGEncoder.encode(Image(width: 128, height: 96), effort: .fast)
        XCTAssertEqual(errors(try check(three + [("tray.png", bigTray)] + meta)), [.size])
        let texts = try check(three + [("tray.png", Self.tray), ("title.txt", text(String(repeating: "é", count: 129))),
                                       ("author.txt", [0xFF, 0xFE, 0x41])])
        XCTAssertEqual(errors(texts), [.packText, .packText])
        XCTAssertEqual(texts.findings.map(\.message), ["the pack's title: 129 characters; WhatsApp takes at most 128",
                                                        "the pack's author: not UTF-8 text"])
        XCTAssertEqual(errors(try check(three + [("tray.png", Self.tray), ("title.txt", text(" \n")), ("author.txt", text("a\nb"))])),
                       [.packText, .packText])
        // A PNG named as a sticker is a sticker in the wrong format, not a second tray.
        let misnamed = try check(three + [("04.webp", Self.tray), ("tray.png", Self.tray)] + meta)
        XCTAssertEqual(errors(misnamed), [.format, .size])
        XCTAssertEqual(misnamed.stickers.map(\.path).last, "p.wastickers/04.webp")
        // Something else in the pack: a warning naming it.
        let extra = try check(three + [("tray.png", Self.tray), ("readme.md", text("# hi"))] + meta)
        XCTAssertEqual(errors(extra), [])
        XCTAssertEqual(extra.findings.map(\.code), [.notASticker])
        XCTAssertEqual(extra.findings[0].path, "p.wastickers/readme.md")
        // A sticker over WhatsApp's cap is measured and named, not refused unread.
        XCTAssertEqual(errors(try check(three + [("04.webp", Self.oversized), ("tray.png", Self.tray)] + meta)), [.budget])
        // Too many files to read, a broken entry and an archive that is none.
        let crowd = (0..<(WastickersChecker.maxEntries + 1)).map { ("f\($0).txt", text("x")) }
        XCTAssertEqual(errors(try check(crowd)), [.stickerCount])
        var broken = try PythonZip.make(three + [("tray.png", Self.tray)] + meta, deflate: false, stream: false)
        broken[40] ^= 0xFF   // inside 01.webp's data
        let b = WastickersChecker.check(broken, path: "b.wastickers")
        XCTAssertEqual(errors(b), [.unreadable])
        XCTAssertTrue(b.stickers[0].findings[0].message.contains("CRC-32"), "\(b.stickers[0].findings)")
        XCTAssertEqual(errors(WastickersChecker.check(Array(broken.prefix(100)), path: "c.wastickers")), [.unreadable])
    }

    private func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    private func put(_ b: inout [UInt8], _ i: Int, _ v: UInt32) {
        for k in 0..<4 { b[i + k] = UInt8((v >> (8 * UInt32(k))) & 0xFF) }
    }
}

extension PythonZip {
    /// An archive of `entries` written by Python's zipfile, deflated or stored; with `stream`
    /// written to a pipe, so that each entry's sizes and CRC follow its data (a data descriptor,
    /// general purpose flag bit 3) and its local header holds zeros.
    static func make(_ entries: [(String, [UInt8])], deflate: Bool, stream: Bool) throws -> [UInt8] {
        let input = entries.map { $0.0.unicodeScalars.map { String(format: "%x", $0.value) }.joined(separator: ",") + " "
            + $0.1.map { String(format: "%02x", $0) }.joined() }.joined(separator: "\n")
        let script = """
        import io, sys, zipfile
        method = zipfile.ZIP_DEFLATED if sys.argv[1] == "1" else zipfile.ZIP_STORED
        class Pipe(io.RawIOBase):
            def __init__(self): self.data = bytearray()
            def writable(self): return True
            def write(self, b): self.data += b; return len(b)
        out = Pipe() if sys.argv[2] == "1" else io.BytesIO()
        with zipfile.ZipFile(out, "w", method) as z:
            for line in sys.stdin.read().split("\\n"):
                if not line: continue
                name, _, data = line.partition(" ")
                name = "".join(chr(int(c, 16)) for c in name.split(","))
                z.writestr(zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0)), bytes.fromhex(data), compress_type=method)
        data = bytes(out.data) if sys.argv[2] == "1" else out.getvalue()
        sys.stdout.write(data.hex())
        """
        let out = try run(["python3", "-c", script, deflate ? "1" : "0", stream ? "1" : "0"], input: input)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(out.count / 2)
        var it = out.utf8.makeIterator()
        func nibble(_ c: UInt8) -> UInt8 { c <= 57 ? c - 48 : c - 87 }
        while let h = it.next(), let l = it.next() { bytes.append(nibble(h) << 4 | nibble(l)) }
        return bytes
    }
}
