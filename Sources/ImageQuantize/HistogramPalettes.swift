import ImageCore

/// Palettes of several sizes from one histogram: the histogram's colours are collected and reduced
/// to median cut's working points once, not once per palette (on many-colour animations that was
/// half of every palette's cost). Each palette equals `Quantizer.palette(from:maxColors:)`.
package final class HistogramPalettes {
    private var prepared: PaletteBuilder.Prepared

    /// Takes what it needs from `histogram`; later changes to the histogram are not seen. With
    /// `keepsPaintedAlpha`, art painted almost opaque (`AlphaProfile.isPaintedNearlyOpaque`)
    /// keeps palette entries of alpha 254 instead of snapping them to opaque; without it
    /// (Messages), every palette is as it always was.
    package init(_ histogram: Histogram, keepsPaintedAlpha: Bool = false) {
        prepared = PaletteBuilder.Prepared(histogram, pointLimit: PaletteBuilder.defaultPointLimit,
                                           keepsPaintedAlpha: keepsPaintedAlpha)
    }

    /// Whether the palette of at most `maxColors` made from `image`'s histogram would be exact,
    /// answered by counting colours only until one too many is seen: a photo is known not to
    /// have one after a few hundred pixels, without building its histogram.
    package static func hasExactPalette(_ image: Image, maxColors: Int) -> Bool {
        Histogram.hasAtMostColors(PaletteBuilder.exactLimit(maxColors: maxColors), in: image)
    }

    /// The palette of at most `maxColors` entries.
    package func palette(maxColors: Int) -> Palette {
        let built = PaletteBuilder.build(&prepared, maxColors: maxColors)
        return Palette(colors: built.palette, exact: built.exact)
    }
}
