/// Where the (trimmed) source lands in the output square: one uniform scale, an exact fractional
/// offset per axis and, for `cover`, the source window that stays visible.
///
/// `contain` mirrors the quality judge's reference exactly: `scale = side / max(w, h)`,
/// `offset = (side - n · scale) / 2`, no rounding of the placement.
struct FitGeometry: Equatable {
    var scale: Double
    var offsetX: Double, offsetY: Double
    /// Visible source window per axis, in source pixels relative to the crop.
    var windowX: ClosedRange<Double>, windowY: ClosedRange<Double>

    /// Geometry of a `width × height` source in a `size` square with `inset` transparent pixels
    /// on every side (`0 <= inset`, `2 · inset < size`, both sizes > 0).
    init(width: Int, height: Int, size: Int, inset: Int, mode: FitMode) {
        let side = Double(size - 2 * inset)
        let w = Double(width), h = Double(height)
        let s = mode == .contain ? side / max(w, h) : side / min(w, h)
        scale = s
        offsetX = Double(inset) + (side - w * s) / 2.0
        offsetY = Double(inset) + (side - h * s) / 2.0
        switch mode {
        case .contain:
            windowX = 0...w
            windowY = 0...h
        case .cover:
            // Only what lands inside the inset square is visible.
            let lo = Double(inset), hi = Double(size - inset)
            windowX = max(0, (lo - offsetX) / s)...min(w, max(0, (hi - offsetX) / s))
            windowY = max(0, (lo - offsetY) / s)...min(h, max(0, (hi - offsetY) / s))
        }
    }
}
