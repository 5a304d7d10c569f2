import ImageCore

/// A palette built from a histogram, ready to remap frames to.
public struct Palette: Sendable {
    /// Straight-alpha entries: (0,0,0,0) first when present, then translucent, then opaque.
    public let colors: [RGBA]
    /// True when the histogram had no more colours than the palette holds.
    public let exact: Bool
}

extension Quantizer {
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

/// Remaps frames one at a time to one palette, keeping its search structures and colour cache
/// between frames: for callers that remap a few frames of an animation at a time. Not thread-safe.
public final class PaletteMapper {
    public let palette: Palette
    private let remapper: Remapper

    public init(_ palette: Palette) {
        self.palette = palette
        remapper = Remapper(palette: palette.colors)
    }

    /// One frame mapped to the palette, and its mean error (per-channel MSE scale). `ditherMap`,
    /// when given, must have been made from this frame: it saves recomputing where dithering is
    /// allowed when the same frame is remapped to several palettes.
    public func remap(_ frame: Image, dithering: Float, ditherMap: FrameDitherMap? = nil) -> (image: IndexedImage, meanSquaredError: Double) {
        let (image, total) = mapped(frame, dithering: dithering, ditherMap: ditherMap)
        let n = frame.width * frame.height
        return (image, n > 0 ? total / 3 / Double(n) : 0)
    }

    /// Every frame mapped to the palette, as one result whose error is the mean over all their
    /// pixels. `ditherMaps`, when given, holds one map per frame, each made from its frame.
    public func quantize(_ frames: [Image], dithering: Float, ditherMaps: [FrameDitherMap]? = nil) -> QuantizeResult {
        var total = 0.0
        var pixels = 0
        var out = [IndexedImage]()
        out.reserveCapacity(frames.count)
        for (i, f) in frames.enumerated() {
            let map = ditherMaps.flatMap { i < $0.count ? $0[i] : nil }
            let (image, t) = mapped(f, dithering: dithering, ditherMap: map)
            total += t
            pixels += f.width * f.height
            out.append(image)
        }
        let mse = pixels > 0 ? total / 3 / Double(pixels) : 0
        return QuantizeResult(palette: palette.colors, frames: out, meanSquaredError: mse,
                              quality: Quality.quality(meanSquaredError: mse), exact: palette.exact && mse == 0)
    }

    /// One frame mapped, and its summed `ErrorSpace` error.
    private func mapped(_ frame: Image, dithering: Float, ditherMap: FrameDitherMap?) -> (IndexedImage, Double) {
        var indices = [UInt8]()
        let d = palette.exact ? 0 : min(1, max(0, dithering))
        let total: Double
        if d > 0, let m = ditherMap, m.map.count == frame.width * frame.height {
            total = remapper.remap(frame, dithering: d, map: m.map, into: &indices)
        } else {
            total = remapper.remap(frame, dithering: d, into: &indices)
        }
        return (IndexedImage(width: frame.width, height: frame.height, palette: palette.colors, indices: indices), total)
    }

    /// The frame mapped without dithering: the same indices and error as `remap(frame,
    /// dithering: 0)`, plus the error of each row. Rows whose pixels equal those of
    /// `previous.frame` are copied from `previous.remap` instead of searched again (consecutive
    /// animation frames often share most rows). `previous.remap` must be this mapper's remap of
    /// `previous.frame`; one of another size or palette is ignored.
    ///
    /// `equalRows`, when given, must be the `equalRows` of a remap (by any mapper) of this same
    /// `frame` after this same `previous.frame`: the rows are then not compared again.
    package func remapUndithered(_ frame: Image, after previous: (frame: Image, remap: RowRemap)? = nil,
                                 equalRows: [Bool]? = nil) -> RowRemap {
        var indices = [UInt8](), rows = [Double](), equal = [Bool]()
        let reuse = previous.flatMap { p in
            p.remap.image.palette == palette.colors
                ? (image: p.frame, indices: p.remap.image.indices, rowErrors: p.remap.rowErrors, equalRows: equalRows ?? [])
                : nil
        }
        let total = remapper.remapPlain(frame, after: reuse, into: &indices, rowErrors: &rows, equalRows: &equal)
        let n = frame.width * frame.height
        return RowRemap(image: IndexedImage(width: frame.width, height: frame.height, palette: palette.colors, indices: indices),
                        rowErrors: rows, equalRows: equal, meanSquaredError: n > 0 ? total / 3 / Double(n) : 0)
    }

    /// The 0…100 quality of a mean error, on the scale of `QuantizeResult.quality`.
    public static func quality(meanSquaredError: Double) -> Int { Quality.quality(meanSquaredError: meanSquaredError) }
}

/// An undithered remap of one frame with its `ErrorSpace` error per row, which lets a later frame
/// of the same size reuse the rows it shares with this one (`PaletteMapper.remapUndithered`).
package struct RowRemap: Sendable {
    package let image: IndexedImage
    /// Each row's error: over its runs of equal pixels, left to right, run length × the run's error.
    package let rowErrors: [Double]
    /// Per row, whether it equalled the earlier frame's (empty when there was none to reuse).
    package let equalRows: [Bool]
    /// The rows' errors summed from the top, / 3 / pixels (as `PaletteMapper.remap` reports it).
    package let meanSquaredError: Double
}

/// Where error diffusion is allowed in one frame (edges and flat areas get none): depends on the
/// frame alone, so it can be made once and reused for every palette the frame is remapped to.
public struct FrameDitherMap: Sendable {
    let map: [UInt8]
    public init(_ frame: Image) { map = DitherMap.make(frame) }
}

/// Palettes of several sizes from one histogram: the histogram's colours are collected and reduced
/// to median cut's working points once, not once per palette (on many-colour animations that was
/// half of every palette's cost). Each palette equals `Quantizer.palette(from:maxColors:)`.
public final class HistogramPalettes {
    private var prepared: PaletteBuilder.Prepared

    /// Takes what it needs from `histogram`; later changes to the histogram are not seen.
    public init(_ histogram: Histogram) {
        prepared = PaletteBuilder.Prepared(histogram, pointLimit: PaletteBuilder.defaultPointLimit)
    }

    /// The palette of at most `maxColors` entries.
    public func palette(maxColors: Int) -> Palette {
        let built = PaletteBuilder.build(&prepared, maxColors: maxColors)
        return Palette(colors: built.palette, exact: built.exact)
    }
}
