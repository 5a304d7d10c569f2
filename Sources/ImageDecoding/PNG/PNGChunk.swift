import CDeflate

/// One chunk as found in the file: its type and where its data lies.
struct PNGChunk {
    /// The four type bytes, big-endian, e.g. 0x4948_4452 for IHDR.
    let type: UInt32
    /// Offset of the chunk's data in the file.
    let dataStart: Int
    /// Bytes of data present. Less than `declaredLength` only when the file ends inside the chunk
    /// and the reader is lenient.
    let length: Int
    /// The length field as stored.
    let declaredLength: Int

    var isTruncated: Bool { length < declaredLength }
    var dataRange: Range<Int> { dataStart..<(dataStart + length) }
    var name: String { PNGChunk.name(of: type) }
    /// Ancillary chunks (lower-case first letter) may be skipped by a decoder that does not know them.
    var isCritical: Bool { type & 0x2000_0000 == 0 }

    static func name(of type: UInt32) -> String {
        let bytes = [UInt8(truncatingIfNeeded: type >> 24), UInt8(truncatingIfNeeded: type >> 16),
                     UInt8(truncatingIfNeeded: type >> 8), UInt8(truncatingIfNeeded: type)]
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The CRC of the chunk at `start` whose data is `length` bytes: over its type and data, as
    /// stored after them (the caller has checked that the chunk lies inside `file`).
    static func crc(_ file: UnsafeBufferPointer<UInt8>, chunkAt start: Int, length: Int) -> UInt32 {
        UInt32(libdeflate_crc32(0, file.baseAddress! + start + 4, 4 + length))
    }

    static let IHDR: UInt32 = 0x4948_4452
    static let PLTE: UInt32 = 0x504C_5445
    static let IDAT: UInt32 = 0x4944_4154
    static let IEND: UInt32 = 0x4945_4E44
    static let tRNS: UInt32 = 0x7452_4E53
    static let gAMA: UInt32 = 0x6741_4D41
    static let iCCP: UInt32 = 0x6943_4350
    static let sRGB: UInt32 = 0x7352_4742
    static let acTL: UInt32 = 0x6163_544C
    static let fcTL: UInt32 = 0x6663_544C
    static let fdAT: UInt32 = 0x6664_4154
}
