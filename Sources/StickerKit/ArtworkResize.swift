import ImageCore
import ImageResize

/// How `Artwork.resizedByRows` resizes a still: as `Resizer.fit` fits it into a square (the
/// stickers' geometry, square pack pictures), or as `Resizer.resize` resizes it into a
/// rectangle, over an opaque `background` or transparent (app icons, LINE's tab picture).
public enum ArtworkResize: Sendable {
    case square(FitOptions)
    case rectangle(width: Int, height: Int, fit: FitMode, background: RGBA?)

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
