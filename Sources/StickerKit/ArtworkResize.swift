import ImageCore
import ImageResize

/// How `Artwork.resizedByRows` resizes a still: as `Resizer.fit` fits it into a square (the
/// stickers' geometry, square pack pictures), or as `Resizer.resize` resizes it into a
/// rectangle, over an opaque `background` or transparent (app icons, LINE's tab picture).
public enum ArtworkResize: Sendable {
    case square(FitOptions)
    case rectangle(width: Int, height: Int, fit: FitMode, background: RGBA?)

    /// Bytes its row resizer holds for a `width × height` still, at most: the window of source
    /// rows its output rows read (`RowFitter.windowRows`; a rectangle's by its tighter ratio)
    /// and `ConversionMemory.perStickerPixel` for each output pixel.
    func memory(canvasWidth: Int, canvasHeight: Int) -> Int {
        let rows: Int, pixels: Int
        switch self {
        case .square(let options):
            rows = RowFitter.windowRows(width: canvasWidth, height: canvasHeight, options: options)
            pixels = options.size * options.size
        case let .rectangle(width, height, _, _):
            let w = max(1, width), h = max(1, height)
            rows = RowFitter.windowRows(reduction: max((canvasHeight + h - 1) / h, (canvasWidth + w - 1) / w))
            pixels = width * height
        }
        return ConversionMemory.total([rows * canvasWidth * 4, pixels * ConversionMemory.perStickerPixel])
    }

    /// `memory(canvasWidth:canvasHeight:)` of every target in `targets` together.
    static func memory(of targets: [ArtworkResize], canvasWidth: Int, canvasHeight: Int) -> Int {
        targets.reduce(0) { ConversionMemory.total([$0, $1.memory(canvasWidth: canvasWidth, canvasHeight: canvasHeight)]) }
    }

    /// Its row resizer for a `width × height` still, or nil when the target is empty.
    func rowResizer(canvasWidth: Int, canvasHeight: Int) -> RowFitter? {
        switch self {
        case .square(let options):
            return RowFitter(canvasWidth: canvasWidth, canvasHeight: canvasHeight, options: options)
        case let .rectangle(width, height, fit, background):
            return Resizer.rowResizer(canvasWidth: canvasWidth, canvasHeight: canvasHeight, width: width, height: height, fit: fit,
                                      over: background)
        }
    }
}
