import Foundation

/// A chunk as read back from a file the encoder wrote.
struct ParsedChunk {
    let type: String
    let data: [UInt8]
    let storedCRC: UInt32
    let computedCRC: UInt32
}

/// Splits a PNG byte stream into chunks, with its own CRC-32 (not libdeflate's) so that the
/// check is independent of the encoder.
enum PNGChunkParser {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func parse(_ bytes: [UInt8]) throws -> [ParsedChunk] {
        guard bytes.count >= 8, Array(bytes[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else {
            throw Failure(description: "no PNG signature")
        }
        var chunks: [ParsedChunk] = []
        var i = 8
        while i < bytes.count {
            guard i + 12 <= bytes.count else { throw Failure(description: "truncated chunk header at \(i)") }
            let length = Int(be32(bytes, i))
            guard length <= 0x7FFF_FFFF, i + 12 + length <= bytes.count else {
                throw Failure(description: "chunk at \(i) has length \(length) past the end")
            }
            let typeBytes = Array(bytes[(i + 4)..<(i + 8)])
            let type = String(decoding: typeBytes, as: UTF8.self)
            let data = Array(bytes[(i + 8)..<(i + 8 + length)])
            let stored = be32(bytes, i + 8 + length)
            chunks.append(ParsedChunk(type: type, data: data, storedCRC: stored, computedCRC: crc32(typeBytes + data)))
            i += 12 + length
        }
        return chunks
    }

    static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    static func be16(_ b: [UInt8], _ i: Int) -> UInt16 {
        UInt16(b[i]) << 8 | UInt16(b[i + 1])
    }

    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
