import ImageCore
import ImageResize

/// `BoxFit` for a still given row by row as a decoder delivers them (`RowFitter`, which holds a
/// window of source rows, never the image): the same square, the same centre cut, the same
/// pixels. A platform's still too large to decode whole within the memory budget is fitted so.
/// Not for a `cover` box (LINE with `--fit cover`), which resizes the whole canvas.
final class BoxRowFit {
    let width: Int
    let height: Int
    private let fitter: RowFitter
    /// The fitter's notes (enlargement, adjusted options).
    var warnings: [String] { fitter.warnings }

    /// The fitter for a `canvasWidth × canvasHeight` still, as `BoxFit.init`; nil for a `cover` box.
    init?(canvasWidth: Int, canvasHeight: Int, side: Int, box: CanvasBox?, options: ConversionOptions,
          visibleBounds: VisibleBounds?) {
        guard let square = BoxFit.square(canvasWidth: canvasWidth, canvasHeight: canvasHeight, side: side, box: box,
                                         options: options, visibleBounds: visibleBounds) else { return nil }
        fitter = RowFitter(canvasWidth: canvasWidth, canvasHeight: canvasHeight, options: square.fit, visibleBounds: visibleBounds)
        (width, height) = (square.cut?.width ?? fitter.size, square.cut?.height ?? fitter.size)
    }

    /// Adds source row `y` (rows in order from 0), `canvasWidth` RGBA pixels.
    func add(row pixels: UnsafeRawPointer, y: Int) { fitter.add(row: pixels, y: y) }

    /// The fitted still, `width × height`, once every row was added.
    func finish() -> Image { BoxFit.cut(fitter.finish(), width: width, height: height) }

    /// Options of a square whose `RowFitter` window is at least as tall as that of any
    /// `BoxRowFit` of these settings on a `width × height` still, for the memory estimate
    /// before the artwork's visible size is known; nil for a `cover` box. A box's square fits
    /// the artwork's long side into at least its shorter side less the margins.
    static func windowBound(side: Int, box: CanvasBox?, options: ConversionOptions) -> FitOptions? {
        guard let box else { return BoxFit.squareFit(side: side, options: options) }
        if BoxFit.resizesWholeCanvas(box: box, options: options) { return nil }
        return FitOptions(size: min(box.width, box.height), fit: .contain, trim: options.trim,
                          inset: max(options.inset, box.margin), linear: options.linear)
    }
}
