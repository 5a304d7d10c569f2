import ImageCore

/// Palettes of several sizes from one histogram: the histogram's colours are collected and reduced
/// to median cut's working points once, not once per palette (on many-colour animations that was
/// half of every palette's cost). Each palette equals `Quantizer.palette(from:maxColors:)`.
package final class HistogramPalettes {
    private var prepared: PaletteBuilder.Prepared

    /// Takes what it needs from `histogram`; later changes to the histogram are not seen.
    package init(_ histogram: Histogram) {
        prepared = PaletteBuilder.Prepared(histogram, pointLimit: PaletteBuilder.defaultPointLimit)
    }

    /// Whether `palette(maxColors:)` is exact (every colour kept), known without building it.
    package func hasExactPalette(maxColors: Int) -> Bool {
        PaletteBuilder.isExact(prepared, maxColors: maxColors)
    }

    /// The palette of at most `maxColors` entries.
    package func palette(maxColors: Int) -> Palette {
        let built = PaletteBuilder.build(&prepared, maxColors: maxColors)
        return Palette(colors: built.palette, exact: built.exact)
    }
}
