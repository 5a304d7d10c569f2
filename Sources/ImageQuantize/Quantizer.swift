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

/// Entry point of the quantization stage. (Stub: implemented in its own change.)
public enum Quantizer {
    /// One palette for all `frames` (all the same size), each frame remapped to it.
    public static func quantize(_ frames: [Image], options: QuantizeOptions) -> QuantizeResult {
        let pal = [RGBA(0, 0, 0, 0)]
        let out = frames.map { IndexedImage(width: $0.width, height: $0.height, palette: pal, indices: [UInt8](repeating: 0, count: $0.width * $0.height)) }
        return QuantizeResult(palette: pal, frames: out, meanSquaredError: .infinity, quality: 0, exact: false)
    }
}
