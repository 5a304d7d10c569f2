import ImageCore

/// What quantizing some frames produced: one shared palette, one indexed image per frame, and
/// how far it is from the input.
public struct QuantizeResult: Sendable {
    /// Straight-alpha entries: (0,0,0,0) first when present, then translucent by rising alpha,
    /// then opaque.
    public var palette: [RGBA]
    /// One indexed image per input frame, each carrying `palette`.
    public var frames: [IndexedImage]
    /// Mean squared error per pixel on premultiplied colour seen over black and white, 0…255² scale.
    public var meanSquaredError: Double
    /// 0…100, 100 = identical (pngquant-like scale, derived from the error).
    public var quality: Int
    /// True when the input had no more distinct colours than `maxColors` and was kept exactly.
    public var exact: Bool

    /// A result from its parts (for callers that assemble or adjust results).
    public init(palette: [RGBA], frames: [IndexedImage], meanSquaredError: Double, quality: Int, exact: Bool) {
        self.palette = palette
        self.frames = frames
        self.meanSquaredError = meanSquaredError
        self.quality = quality
        self.exact = exact
    }
}
