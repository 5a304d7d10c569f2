/// What IHDR says: the image size, bit depth and colour type. Compression method 0 (deflate),
/// filter method 0 (adaptive) and no interlace are the only methods this encoder writes.
struct PNGHeader: Sendable {
    let width: Int
    let height: Int
    /// Bits per sample: 1, 2, 4 or 8.
    let bitDepth: Int
    let colorType: PNGColorType

    /// The 13 bytes of IHDR's data.
    var serialized: [UInt8] {
        var d: [UInt8] = []
        d.reserveCapacity(13)
        d.appendBigEndian(UInt32(width))
        d.appendBigEndian(UInt32(height))
        d += [UInt8(bitDepth), colorType.rawValue, 0, 0, 0]
        return d
    }
}
