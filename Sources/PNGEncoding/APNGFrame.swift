import ImageCore

/// One frame as it is written to an APNG file: its fcTL fields and its zlib stream.
struct APNGFrame {
    var rect: CanvasRect
    var blend: APNGBlendOp
    /// Decided when the next frame is laid out.
    var dispose: APNGDisposeOp
    var delay: Delay
    var stream: [UInt8]

    /// The 26 bytes of this frame's fcTL data, with sequence number `sequence`.
    func frameControl(sequence: UInt32) -> [UInt8] {
        var d: [UInt8] = []
        d.reserveCapacity(26)
        for v in [sequence, UInt32(rect.width), UInt32(rect.height), UInt32(rect.x), UInt32(rect.y)] {
            d.appendBigEndian(v)
        }
        let (num, den) = delay.apngFraction
        d += [UInt8(num >> 8), UInt8(num & 0xFF), UInt8(den >> 8), UInt8(den & 0xFF), dispose.rawValue, blend.rawValue]
        return d
    }
}
