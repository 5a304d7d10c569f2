/// CRC-32 as PNG uses it (ISO 3309, reflected, polynomial 0xEDB88320).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The CRC of `count` bytes of `bytes` from `start` (the caller has checked the range).
    static func checksum(_ bytes: [UInt8], from start: Int, count: Int) -> UInt32 {
        if count == 0 { return 0 }
        return bytes.withUnsafeBufferPointer { p in
            table.withUnsafeBufferPointer { t in
                update(0xFFFF_FFFF, p.baseAddress! + start, count, t.baseAddress!) ^ 0xFFFF_FFFF
            }
        }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 { checksum(bytes, from: 0, count: bytes.count) }

    private static func update(_ crc: UInt32, _ p: UnsafePointer<UInt8>, _ n: Int, _ t: UnsafePointer<UInt32>) -> UInt32 {
        var c = crc
        var i = 0
        while i < n {
            c = t[Int((c ^ UInt32(p[i])) & 0xFF)] ^ (c >> 8)
            i += 1
        }
        return c
    }
}
