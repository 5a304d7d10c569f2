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
