import CDeflate

/// Reads a ZIP archive held in memory, as PKWARE's APPNOTE describes it: the end of central
/// directory record, the central directory's headers (names, methods, sizes, CRCs), and each
/// entry's data behind its local header, stored or deflated (expanded by libdeflate to exactly
/// its declared size, so a stream that would expand further is refused, never followed). The
/// central directory is what counts, as in every unzip tool: entries written with a data
/// descriptor carry their sizes there. No ZIP64, encryption or multi-disk archives: a sticker
/// pack needs none of them (`StoredZip` writes what this reads).
public struct ZipReader: Sendable {
    /// The archive's entries in central directory order.
    public let entries: [ZipEntry]
    /// The archive comment.
    public let comment: String
    /// The archive's bytes from `base` to its end: all of them, or its tail (`init(tail:at:)`).
    private let bytes: [UInt8]
    private let base: Int

    /// The archive's size in bytes.
    public var byteCount: Int { base + bytes.count }

    /// Reads the directory of the archive `bytes`.
    public init(_ bytes: [UInt8]) throws(ZipError) {
        try self.init(tail: bytes, at: 0)
    }

    /// Reads the directory of an archive from its last bytes, `tail`, which start at offset
    /// `start` of the archive: they must hold the end record and the central directory
    /// (`directoryStart` says where that begins). Entries are then read with
    /// `contents(of:limit:fileSize:read:)`, so an archive need not be held whole to read one.
    public init(tail bytes: [UInt8], at start: Int) throws(ZipError) {
        self.bytes = bytes
        base = start
        let fileSize = start + bytes.count
        guard let end = Self.endRecord(bytes) else { throw .noEndRecord }
        let disk = Self.u16(bytes, end + 4), directoryDisk = Self.u16(bytes, end + 6)
        let onDisk = Self.u16(bytes, end + 8), total = Self.u16(bytes, end + 10)
        let size = Int(Self.u32(bytes, end + 12)), offset = Int(Self.u32(bytes, end + 16))
        if total == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF
            || (end >= 20 && Self.u32(bytes, end - 20) == 0x0706_4B50) {
            throw .zip64
        }
        if disk != 0 || directoryDisk != 0 || onDisk != total { throw .multiDisk }
        let first = offset - start
        guard first >= 0, first + size <= end else { throw .directoryOutside(offset: offset, size: size, fileSize: fileSize) }
        var entries: [ZipEntry] = []
        entries.reserveCapacity(total)
        var p = first
        for _ in 0..<total {
            guard p + 46 <= first + size, Self.u32(bytes, p) == 0x0201_4B50 else {
                throw .directoryCut(found: entries.count, declared: total)
            }
            let flags = Self.u16(bytes, p + 8)
            let nameLength = Self.u16(bytes, p + 28), extra = Self.u16(bytes, p + 30), note = Self.u16(bytes, p + 32)
            let next = p + 46 + nameLength + extra + note
            guard next <= first + size else { throw .directoryCut(found: entries.count, declared: total) }
            let name = ZipName.decode(bytes[(p + 46)..<(p + 46 + nameLength)], flags: flags,
                                      extra: bytes[(p + 46 + nameLength)..<(p + 46 + nameLength + extra)])
            entries.append(ZipEntry(name: name,
                                    method: Self.u16(bytes, p + 10), encrypted: flags & 1 != 0,
                                    crc32: Self.u32(bytes, p + 16), compressedSize: Int(Self.u32(bytes, p + 20)),
                                    size: Int(Self.u32(bytes, p + 24)), localHeaderOffset: Int(Self.u32(bytes, p + 42))))
            p = next
        }
        self.entries = entries
        let length = Self.u16(bytes, end + 20)
        comment = ZipName.decode(bytes[(end + 22)..<min(bytes.count, end + 22 + length)], flags: 0, extra: [UInt8]())
    }

    /// Where the central directory of the archive whose last bytes are `tail` (from offset
    /// `start` on) begins, as its end record says; nil without an end record.
    public static func directoryStart(tail: [UInt8], at start: Int) -> Int? {
        guard let end = endRecord(tail) else { return nil }
        return Int(u32(tail, end + 16))
    }

    /// Whether `bytes` open as a ZIP archive does: a local file header, or the end record of an
    /// empty archive.
    public static func opensAsZip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B
            && ((bytes[2] == 3 && bytes[3] == 4) || (bytes[2] == 5 && bytes[3] == 6))
    }

    /// The bytes of `entry`, expanded and checked against its CRC-32; refused past `limit` bytes
    /// (its declared size, before anything is allocated).
    public func contents(of entry: ZipEntry, limit: Int) throws(ZipError) -> [UInt8] {
        try Self.contents(of: entry, limit: limit, fileSize: byteCount) { range in
            guard range.lowerBound >= base, range.upperBound <= base + bytes.count else { return nil }
            return Array(bytes[(range.lowerBound - base)..<(range.upperBound - base)])
        }
    }

    /// `contents(of:limit:)` of an entry of the `fileSize`-byte archive whose bytes `read` gives
    /// by range (nil for a range it cannot give): its local header, then its data, nothing else.
    public static func contents(of entry: ZipEntry, limit: Int, fileSize: Int,
                                read: (Range<Int>) -> [UInt8]?) throws(ZipError) -> [UInt8] {
        let name = entry.name
        if entry.encrypted { throw .encrypted(name: name) }
        guard entry.method == 0 || entry.method == 8 else { throw .unsupportedMethod(name: name, method: entry.method) }
        guard entry.size <= limit else { throw .entryTooLarge(name: name, bytes: entry.size, limit: limit) }
        let header = entry.localHeaderOffset
        guard header + 30 <= fileSize, let local = read(header..<(header + 30)), u32(local, 0) == 0x0403_4B50 else {
            throw .entryOutside(name: name, offset: header)
        }
        let start = header + 30 + u16(local, 26) + u16(local, 28)
        guard start + entry.compressedSize <= fileSize, let stored = read(start..<(start + entry.compressedSize)) else {
            throw .entryOutside(name: name, offset: header)
        }
        let data: [UInt8]
        if entry.method == 0 {
            guard entry.compressedSize == entry.size else {
                throw .storedSizes(name: name, compressed: entry.compressedSize, expanded: entry.size)
            }
            data = stored
        } else {
            guard let d = inflate(stored, from: 0, count: entry.compressedSize, expanded: entry.size) else {
                throw .badDeflate(name: name, declared: entry.size)
            }
            data = d
        }
        let crc = StoredZip.crc32(data)
        guard crc == entry.crc32 else { throw .crcMismatch(name: name, declared: entry.crc32, computed: crc) }
        return data
    }

    /// `count` bytes of raw deflate at `start` expanded to exactly `expanded` bytes, or nil.
    private static func inflate(_ bytes: [UInt8], from start: Int, count: Int, expanded: Int) -> [UInt8]? {
        guard count > 0 else { return nil }   // no deflate stream is empty
        guard let d = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(d) }
        var out = [UInt8](repeating: 0, count: max(expanded, 1))
        let r = bytes.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                libdeflate_deflate_decompress(d, src.baseAddress! + start, count, dst.baseAddress!, expanded, nil)
            }
        }
        guard r == LIBDEFLATE_SUCCESS else { return nil }
        if expanded == 0 { out.removeAll() }
        return out
    }

    /// Where the end of central directory record starts: the last signature whose comment
    /// length reaches no further than the file's end.
    static func endRecord(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 22 else { return nil }
        var i = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        while i >= lowest {
            if u32(bytes, i) == 0x0605_4B50, i + 22 + u16(bytes, i + 20) <= bytes.count { return i }
            i -= 1
        }
        return nil
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }

    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}
