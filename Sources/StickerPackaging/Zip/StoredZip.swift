import CDeflate

/// A ZIP archive of stored (uncompressed) entries, as PKWARE's APPNOTE describes it: for each
/// entry a local header and its bytes, then the central directory and its end record carrying
/// `comment`. Stored, because the entries (WebP, PNG) are compressed already. No ZIP64: every
/// entry and the whole archive stay under 4 GiB, and at most 65,535 entries (a sticker pack is a
/// few megabytes). Names are UTF-8 (flag bit 11). The date is fixed (1980-01-01), so the same
/// entries always give the same bytes.
public struct StoredZip: Sendable {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var bytes: [UInt8]
        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    public var entries: [Entry]
    /// The archive comment (end of central directory record), at most 65,535 bytes.
    public var comment: String

    public init(entries: [Entry], comment: String = "") {
        self.entries = entries
        self.comment = comment
    }

    /// The CRC-32 (ISO-HDLC, as ZIP and PNG use) of `bytes`, by libdeflate.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
    }

    /// The archive's bytes.
    public func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ v: Int, _ b: inout [UInt8]) { b += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
        func u32(_ v: UInt32, _ b: inout [UInt8]) { for s in stride(from: 0, to: 32, by: 8) { b.append(UInt8((v >> UInt32(s)) & 0xFF)) } }
        let dosTime = 0, dosDate = (0 << 9) | (1 << 5) | 1    // 1980-01-01 00:00
        for e in entries {
            let name = Array(e.name.utf8)
            let crc = Self.crc32(e.bytes)
            let offset = UInt32(out.count)
            // Local file header.
            u32(0x0403_4B50, &out); u16(10, &out); u16(1 << 11, &out); u16(0, &out)
            u16(dosTime, &out); u16(dosDate, &out)
            u32(crc, &out); u32(UInt32(e.bytes.count), &out); u32(UInt32(e.bytes.count), &out)
            u16(name.count, &out); u16(0, &out)
            out += name
            out += e.bytes
            // Its central directory header.
            u32(0x0201_4B50, &central); u16(0x031E, &central)   // made by: Unix, 3.0
            u16(10, &central); u16(1 << 11, &central); u16(0, &central)
            u16(dosTime, &central); u16(dosDate, &central)
            u32(crc, &central); u32(UInt32(e.bytes.count), &central); u32(UInt32(e.bytes.count), &central)
            u16(name.count, &central); u16(0, &central); u16(0, &central)   // extra, comment
            u16(0, &central); u16(0, &central)                                 // disk, internal attributes
            u32(UInt32(0o100644) << 16, &central)                              // external: a regular file, rw-r--r--
            u32(offset, &central)
            central += name
        }
        let centralOffset = UInt32(out.count)
        out += central
        let commentBytes = Array(comment.utf8.prefix(0xFFFF))
        u32(0x0605_4B50, &out); u16(0, &out); u16(0, &out)
        u16(entries.count, &out); u16(entries.count, &out)
        u32(UInt32(central.count), &out); u32(centralOffset, &out)
        u16(commentBytes.count, &out)
        out += commentBytes
        return out
    }

    /// The comment of the archive `bytes`, when they end with an end of central directory
    /// record whose comment runs to the end of the file; nil otherwise (not a ZIP archive).
    public static func comment(of bytes: [UInt8]) -> String? {
        guard let end = ZipReader.endRecord(bytes) else { return nil }
        let length = Int(bytes[end + 20]) | Int(bytes[end + 21]) << 8
        guard end + 22 + length == bytes.count else { return nil }
        return String(decoding: bytes[(end + 22)...], as: UTF8.self)
    }
}
