/// One 8-bit sRGB pixel with straight alpha.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// The colour packed as `0xRRGGBBAA`.
    public var packed: UInt32 { UInt32(r) << 24 | UInt32(g) << 16 | UInt32(b) << 8 | UInt32(a) }

    public init(packed v: UInt32) {
        self.init(UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16),
                  UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v))
    }

    public var description: String { "rgba(\(r),\(g),\(b),\(a))" }
}
