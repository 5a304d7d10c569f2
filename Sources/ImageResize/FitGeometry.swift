/// Where the (trimmed) source lands in the output rectangle: one uniform scale, an exact
/// fractional offset per axis and, for `cover`, the source window that stays visible.
///
/// `contain` mirrors the quality judge's reference exactly: `scale = side / max(w, h)`,
/// `offset = (side - n · scale) / 2`, no rounding of the placement. A rectangle generalises it
/// per axis (`scale = min(sideX / w, sideY / h)`, `max` for `cover`), which for a square is the
/// same number: IEEE division is monotonic, so `min(side / w, side / h) == side / max(w, h)`.
struct FitGeometry: Equatable {
    var scale: Double
    var offsetX: Double, offsetY: Double
    /// Visible source window per axis, in source pixels relative to the crop.
    var windowX: ClosedRange<Double>, windowY: ClosedRange<Double>

    /// Geometry of a `width × height` source in an `outputWidth × outputHeight` rectangle with
    /// `inset` transparent pixels on every side (`0 <= inset`, `2 · inset` less than both output
    /// sides, all sizes > 0).
    init(width: Int, height: Int, outputWidth: Int, outputHeight: Int, inset: Int, mode: FitMode) {
        let sideX = Double(outputWidth - 2 * inset), sideY = Double(outputHeight - 2 * inset)
        let w = Double(width), h = Double(height)
        let s = mode == .contain ? min(sideX / w, sideY / h) : max(sideX / w, sideY / h)
        scale = s
        offsetX = Double(inset) + (sideX - w * s) / 2.0
        offsetY = Double(inset) + (sideY - h * s) / 2.0
        switch mode {
        case .contain:
            windowX = 0...w
            windowY = 0...h
        case .cover:
            // Only what lands inside the inset rectangle is visible.
            let lo = Double(inset)
            let hiX = Double(outputWidth - inset), hiY = Double(outputHeight - inset)
            windowX = max(0, (lo - offsetX) / s)...min(w, max(0, (hiX - offsetX) / s))
            windowY = max(0, (lo - offsetY) / s)...min(h, max(0, (hiY - offsetY) / s))
        }
    }

    /// The geometry of a `size × size` sticker.
    init(width: Int, height: Int, size: Int, inset: Int, mode: FitMode) {
        self.init(width: width, height: height, outputWidth: size, outputHeight: size, inset: inset, mode: mode)
    }

    /// The two axes' weights for a crop `crop` of the source (absolute source indices) resampled
    /// into `outputWidth × outputHeight` pixels with this geometry.
    func axes(crop: TrimBounds, outputWidth: Int, outputHeight: Int,
              enlargement: AxisWeights.Enlargement = .footprintAverage) -> (x: AxisWeights, y: AxisWeights) {
        (AxisWeights(sourceCount: crop.width, origin: crop.x, outputCount: outputWidth, scale: scale,
                     offset: offsetX, windowStart: windowX.lowerBound, windowEnd: windowX.upperBound, enlargement: enlargement),
         AxisWeights(sourceCount: crop.height, origin: crop.y, outputCount: outputHeight, scale: scale,
                     offset: offsetY, windowStart: windowY.lowerBound, windowEnd: windowY.upperBound, enlargement: enlargement))
    }
}
