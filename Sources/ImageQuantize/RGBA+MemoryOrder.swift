import ImageCore

extension RGBA {
    /// The colour from a key packed in memory order (`r | g<<8 | b<<16 | a<<24`).
    init(memoryOrder v: UInt32) {
        self.init(UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8),
                  UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 24))
    }

    /// The colour packed in memory order, as `Histogram` keys are.
    var memoryOrder: UInt32 { UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24 }
}
