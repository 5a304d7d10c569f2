import ImageCore

/// What a fit of a `canvasWidth × canvasHeight` canvas into an `options.size` square decides
/// before any pixel is read: the clamped size and inset, the crop, the resampler and the notes
/// for the user. `FrameFitter` (whole frames) and `RowFitter` (a still's rows as they are
/// decoded) share it, so their geometry cannot differ.
struct FitSetup {
    let size: Int
    let upscaled: Bool
    let warnings: [String]
    /// Nil when there is nothing to fit (an empty canvas or crop): every output is transparent.
    let resampler: AreaResampler?

    init(canvasWidth: Int, canvasHeight: Int, options: FitOptions, visibleBounds: VisibleBounds?) {
        var warnings: [String] = []
        var size = options.size
        if size < 1 || size > Resizer.maxSize {
            let clamped = min(max(size, 1), Resizer.maxSize)
            warnings.append("size \(size) is outside 1…\(Resizer.maxSize): using \(clamped)")
            size = clamped
        }
        var inset = options.inset
        if inset < 0 || 2 * inset >= size {
            let clamped = min(max(inset, 0), (size - 1) / 2)
            warnings.append("inset \(inset) does not fit a \(size)×\(size) sticker: using \(clamped)")
            inset = clamped
        }
        self.size = size
        var crop = TrimBounds(x: 0, y: 0, width: canvasWidth, height: canvasHeight)
        if options.trim, let bounds = visibleBounds?.rectangle { crop = bounds }
        guard crop.width > 0, crop.height > 0 else {
            warnings.append("source is \(canvasWidth)×\(canvasHeight): nothing to fit")
            self.upscaled = false
            self.warnings = warnings
            self.resampler = nil
            return
        }
        let g = FitGeometry(width: crop.width, height: crop.height, size: size, inset: inset, mode: options.fit)
        let (x, y) = g.axes(crop: crop, outputWidth: size, outputHeight: size)
        upscaled = g.scale > 1
        if upscaled {
            warnings.append("source is \(crop.width)×\(crop.height), smaller than the \(size)×\(size) sticker: enlarged")
        }
        self.warnings = warnings
        resampler = AreaResampler(x: x, y: y, sourceWidth: canvasWidth, linear: options.linear)
    }
}
