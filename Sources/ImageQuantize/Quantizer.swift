import ImageCore

/// Options of the quantization stage.
public struct QuantizeOptions: Sendable, Equatable {
    /// 2…256 palette entries at most.
    public var maxColors: Int
    /// Error-diffusion dithering strength, 0 (off) … 1 (full).
    public var dithering: Float

    /// Defaults: 256 colours, full-strength (selective) dithering.
    public init(maxColors: Int = 256, dithering: Float = 1.0) {
        self.maxColors = maxColors
        self.dithering = dithering
    }
}

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

/// Entry point of the quantization stage: histogram of all frames → one palette (exact when the
/// colours fit; otherwise median cut then k-means in premultiplied space seen over black and
/// white, see `ErrorSpace`) → each frame remapped, with selective error diffusion when
/// `options.dithering > 0`. Deterministic: the same input gives the same bytes.
public enum Quantizer {
    /// One palette for all `frames` (all the same size), each frame remapped to it.
    ///
    /// `maxColors` is clamped to 2…256 and `dithering` to 0…1. When any pixel is fully transparent
    /// the palette holds (0,0,0,0), and every such pixel maps to it. Opaque input gives an
    /// all-opaque palette.
    public static func quantize(_ frames: [Image], options: QuantizeOptions) -> QuantizeResult {
        var histogram = Histogram()
        for f in frames { histogram.add(f) }
        return quantize(frames, histogram: histogram, options: options)
    }

    /// The same, with a histogram the caller built from exactly these `frames` (add each once), so
    /// that trying several `maxColors` or `dithering` values does not recount the pixels.
    public static func quantize(_ frames: [Image], histogram: Histogram, options: QuantizeOptions) -> QuantizeResult {
        remap(frames, to: palette(from: histogram, maxColors: options.maxColors), dithering: options.dithering)
    }
}
