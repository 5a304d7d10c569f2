import ImageCore

/// Remaps frames one at a time to one palette, keeping its search structures and colour cache
/// between frames: for callers that remap a few frames of an animation at a time. Not thread-safe.
package final class PaletteMapper {
    package let palette: Palette
    private let remapper: Remapper

    package init(_ palette: Palette) {
        self.palette = palette
        remapper = Remapper(palette: palette.colors)
    }

    /// One frame mapped to the palette, and its mean error (per-channel MSE scale). `ditherMap`,
    /// when given, must have been made from this frame: it saves recomputing where dithering is
    /// allowed when the same frame is remapped to several palettes.
    package func remap(_ frame: Image, dithering: Float, ditherMap: FrameDitherMap? = nil) -> (image: IndexedImage, meanSquaredError: Double) {
        let (image, total) = mapped(frame, dithering: dithering, ditherMap: ditherMap)
        let n = frame.width * frame.height
        return (image, n > 0 ? total / 3 / Double(n) : 0)
    }

    /// Every frame mapped to the palette, as one result whose error is the mean over all their
    /// pixels. `ditherMaps`, when given, holds one map per frame, each made from its frame.
    package func quantize(_ frames: [Image], dithering: Float, ditherMaps: [FrameDitherMap]? = nil) -> QuantizeResult {
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

    /// `remapUndithered` on frames in the caller's buffers (see `FrameRemap`).
    func remapPlain(pixels: UnsafePointer<UInt32>, width: Int, height: Int, previous: Remapper.Previous?,
                    into out: UnsafeMutablePointer<UInt8>, rowErrors: UnsafeMutablePointer<Double>) -> Double {
        remapper.remapPlain(pixels: pixels, width: width, height: height, previous: previous, into: out, rowErrors: rowErrors)
    }

    /// The 0…100 quality of a mean error, on the scale of `QuantizeResult.quality`.
    package static func quality(meanSquaredError: Double) -> Int { Quality.quality(meanSquaredError: meanSquaredError) }
}
