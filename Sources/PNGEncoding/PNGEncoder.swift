import ImageCore

/// How hard the encoder works on filters and deflate.
public enum Effort: String, Sendable, CaseIterable, Codable {
    case fast, `default`, max
}

/// Entry point of the encoding stage. (Stub: implemented in its own change.)
public enum PNGEncoder {
    /// A truecolour PNG: RGBA, or RGB (or gray) when every pixel allows it. Carries the sRGB chunk.
    public static func encode(_ image: Image, effort: Effort = .default) -> [UInt8] { [] }

    /// An indexed PNG: PLTE + tRNS, bit depth from the palette size.
    public static func encode(_ image: IndexedImage, effort: Effort = .default) -> [UInt8] { [] }
}
