import ImageCore

/// Options of the quantization stage.
public struct QuantizeOptions: Sendable, Equatable {
    /// 2…256 palette entries at most.
    public var maxColors: Int
    /// Error-diffusion dithering strength, 0 (off) … 1 (full).
    public var dithering: Float

    public init(maxColors: Int = 256, dithering: Float = 1.0) {
        self.maxColors = maxColors
        self.dithering = dithering
    }
}

/// What quantizing some frames produced: one shared palette, one indexed image per frame, and
/// how far it is from the input.
public struct QuantizeResult: Sendable {
    public var palette: [RGBA]
    public var frames: [IndexedImage]
    /// Mean squared error per pixel on premultiplied colour seen over black and white, 0…255² scale.
    public var meanSquaredError: Double
    /// 0…100, 100 = identical (pngquant-like scale, derived from the error).
    public var quality: Int
    /// True when the input had no more distinct colours than `maxColors` and was kept exactly.
    public var exact: Bool

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
        let built = PaletteBuilder.build(histogram, maxColors: options.maxColors)
        if frames.isEmpty || built.palette.isEmpty {
            let out = frames.map { IndexedImage(width: $0.width, height: $0.height, palette: built.palette, indices: []) }
            return QuantizeResult(palette: built.palette, frames: out, meanSquaredError: 0, quality: 100, exact: true)
        }
        let remapper = Remapper(palette: built.palette)
        let dithering = built.exact ? 0 : options.dithering
        var total = 0.0
        var pixels = 0
        var out = [IndexedImage]()
        out.reserveCapacity(frames.count)
        for f in frames {
            var indices = [UInt8]()
            total += remapper.remap(f, dithering: dithering, into: &indices)
            pixels += f.width * f.height
            out.append(IndexedImage(width: f.width, height: f.height, palette: built.palette, indices: indices))
        }
        let mse = pixels > 0 ? total / 3 / Double(pixels) : 0
        let exact = built.exact && mse == 0
        return QuantizeResult(palette: built.palette, frames: out, meanSquaredError: mse,
                              quality: Quality.quality(meanSquaredError: mse), exact: exact)
    }
}
