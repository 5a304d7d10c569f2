/// Lower-case hex as messages print bytes and checksums.
enum Hex {
    /// Two digits: 0x09 → "09".
    static func byte(_ b: UInt8) -> String {
        let s = String(b, radix: 16)
        return s.count == 1 ? "0" + s : s
    }

    /// Eight digits: a CRC as "0a1b2c3d".
    static func word(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 8 - s.count)) + s
    }

    /// Bytes as two-digit groups separated by spaces: "89 50 4e 47".
    static func bytes(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map(byte).joined(separator: " ")
    }
}
