import ImageCore

/// A palette built from a histogram, ready to remap frames to.
public struct Palette: Sendable {
    /// Straight-alpha entries: (0,0,0,0) first when present, then translucent, then opaque.
    public let colors: [RGBA]
    /// True when the histogram had no more colours than the palette holds.
    public let exact: Bool
}
