import StickerPackaging
import XCTest

/// Entry names as other tools write them: flagged UTF-8, UTF-8 without the flag (macOS, Linux),
/// code page 437 (Windows' Explorer) and Info-ZIP's Unicode Path field beside a code page name.
/// The archives are laid out here byte by byte, since `StoredZip` always writes flagged UTF-8.
final class ZipNameTests: XCTestCase {
    /// One stored entry: its raw name bytes, general purpose flags and central directory extra field.
    struct RawEntry {
        var name: [UInt8]
        var flags = 0
        var extra: [UInt8] = []
        var bytes: [UInt8] = Array("x".utf8)
    }

    static func archive(_ entries: [RawEntry], comment: [UInt8] = []) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) } }
        var out: [UInt8] = [], central: [UInt8] = []
        for e in entries {
            let crc = StoredZip.crc32(e.bytes), offset = UInt32(out.count)
            let sizes = u32(crc) + u32(UInt32(e.bytes.count)) + u32(UInt32(e.bytes.count))
            out += u32(0x0403_4B50) + u16(10) + u16(e.flags) + u16(0) + u16(0) + u16(0) + sizes
                + u16(e.name.count) + u16(0) + e.name + e.bytes
            central += u32(0x0201_4B50) + u16(0x0314) + u16(10) + u16(e.flags) + u16(0) + u16(0) + u16(0) + sizes
                + u16(e.name.count) + u16(e.extra.count) + u16(0) + u16(0) + u16(0) + u32(0) + u32(offset) + e.name + e.extra
        }
        let start = out.count
        return out + central + u32(0x0605_4B50) + u16(0) + u16(0) + u16(entries.count) + u16(entries.count)
            + u32(UInt32(central.count)) + u32(UInt32(start)) + u16(comment.count) + comment
    }

    /// Info-ZIP's Unicode Path extra field (0x7075, version 1) for the name `raw`, saying `name`.
    static func unicodePath(_ name: String, for raw: [UInt8]) -> [UInt8] {
        let body = [UInt8(1)] + (0..<4).map { UInt8(StoredZip.crc32(raw) >> (8 * $0) & 0xFF) } + Array(name.utf8)
        return [0x75, 0x70, UInt8(body.count & 0xFF), UInt8(body.count >> 8)] + body
    }

    func testNamesAreReadAsTheToolThatWroteThemMeantThem() throws {
        let cp437 = Array("Caf".utf8) + [0x82] + Array(".png".utf8)          // é in code page 437
        let entries = [
            RawEntry(name: Array("flagged ünï.png".utf8), flags: 1 << 11),
            RawEntry(name: Array("unflagged ünï.png".utf8)),                   // valid UTF-8: UTF-8
            RawEntry(name: cp437),
            RawEntry(name: Array("Caf".utf8) + [0x8A] + Array(".png".utf8)),  // è
            RawEntry(name: [0x9B, 0xE1, 0xF8, 0xFF]),                         // ¢ß° and a no-break space
            // Info-ZIP: a code page name beside its UTF-8 form; a field whose CRC is of another
            // name (the name was changed by a tool that kept the field) is not used.
            RawEntry(name: Array("na".utf8) + [0x84] + Array("ve.png".utf8),
                     extra: Self.unicodePath("naïve.png", for: Array("na".utf8) + [0x84] + Array("ve.png".utf8))),
            RawEntry(name: Array("renamed.png".utf8), extra: Self.unicodePath("old name.png", for: Array("old.png".utf8))),
        ]
        let reader = try ZipReader(Self.archive(entries, comment: [0x8E, 0x6B]))
        XCTAssertEqual(reader.entries.map(\.name), ["flagged ünï.png", "unflagged ünï.png", "Café.png", "Cafè.png",
                                                    "¢ß°\u{A0}", "naïve.png", "renamed.png"])
        XCTAssertEqual(reader.comment, "Äk")
        // Entries are read back by their decoded names.
        for e in reader.entries { XCTAssertEqual(try reader.contents(of: e, limit: 10), Array("x".utf8), e.name) }
    }

    /// Every byte of code page 437's upper half reads as the character Python's `cp437` codec
    /// gives it (a reader that is not ours).
    func testCodePage437MatchesPython() throws {
        let high = [UInt8](0x80...0xFF)
        let name = try ZipReader(Self.archive([RawEntry(name: high)])).entries[0].name
        XCTAssertEqual(name, try PythonZip.decodeCP437(high))
    }
}
