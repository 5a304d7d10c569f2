import ImageCore

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

    /// The histogram + palette stage alone: lets a caller that tries several colour counts build
    /// the histogram of many frames once.
    public static func palette(from histogram: Histogram, maxColors: Int) -> Palette {
        let built = PaletteBuilder.build(histogram, maxColors: maxColors)
        return Palette(colors: built.palette, exact: built.exact)
    }

    /// The remap stage alone: every frame mapped to `palette`, with selective error diffusion
    /// scaled by `dithering` (0…1; off when the palette is exact).
    public static func remap(_ frames: [Image], to palette: Palette, dithering: Float) -> QuantizeResult {
        if frames.isEmpty || palette.colors.isEmpty {
            let out = frames.map { IndexedImage(width: $0.width, height: $0.height, palette: palette.colors, indices: []) }
            return QuantizeResult(palette: palette.colors, frames: out, meanSquaredError: 0, quality: 100, exact: true)
        }
        return PaletteMapper(palette).quantize(frames, dithering: dithering)
    }
}
