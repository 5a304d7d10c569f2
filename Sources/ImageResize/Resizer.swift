import ImageCore

/// Entry point of the resize stage.
public enum Resizer {
    /// Largest output side accepted; larger requests are clamped (stickers are at most 618).
    static let maxSize = 8192

    /// Fits every frame of `animation` into an `options.size` square with the same geometry.
    ///
    /// `contain` scales the long side to `size - 2·inset` and centres the result at its exact
    /// fractional offset (the edge pixels get partial alpha); `cover` scales the short side to
    /// fill and crops the centre. `trim` first crops the fully transparent margins, taken as the
    /// union over all frames so that every frame keeps the same geometry. Reduction is an exact
    /// area average in premultiplied alpha; enlargement is a linear filter and is reported in
    /// `upscaled` and `warnings`. Delays and the loop count are kept.
    /// `FrameFitter` is the same fit one frame at a time; this is the loop over it.
    public static func fit(_ animation: Animation, options: FitOptions) -> FitResult {
        var bounds: VisibleBounds?
        if options.trim {
            var union = VisibleBounds()
            for frame in animation.frames { union.add(frame.image) }
            bounds = union
        }
        var fitter = FrameFitter(canvasWidth: animation.width, canvasHeight: animation.height, options: options,
                                 visibleBounds: bounds)
        var out: [Frame] = []
        out.reserveCapacity(animation.frames.count)
        for frame in animation.frames {
            out.append(Frame(image: fitter.fit(frame.image), delay: frame.delay))
        }
        return FitResult(animation: Animation(width: fitter.size, height: fitter.size, frames: out, loopCount: animation.loopCount),
                         upscaled: fitter.upscaled, warnings: fitter.warnings)
    }

    /// `image` resized to exactly `width × height` pixels with one uniform scale, for targets
    /// that are not sticker squares (app icons, previews): `cover` fills the rectangle and crops
    /// the overflow evenly, `contain` fits the whole image and centres it (transparent padding,
    /// partial alpha on the fractional edges). Reducing is `fit`'s exact area average in
    /// premultiplied alpha; enlarging is bilinear sampled at each pixel's centre (`fit` averages
    /// the same linear reconstruction over each pixel instead, the quality judge's geometry),
    /// also in premultiplied alpha. `linear` averages in linear light. Each side is clamped to 0…8192 (the largest `fit` accepts too). An empty
    /// image gives transparent pixels.
    public static func resize(_ image: Image, width: Int, height: Int, fit: FitMode = .cover, linear: Bool = false) -> Image {
        let width = min(max(width, 0), maxSize), height = min(max(height, 0), maxSize)
        guard width > 0, height > 0 else { return Image(width: width, height: height) }
        guard let resampler = resampler(sourceWidth: image.width, sourceHeight: image.height, width: width, height: height, fit: fit,
                                        linear: linear, background: nil) else {
            return Image(width: width, height: height)
        }
        return Image(width: width, height: height, pixels: resampler.resample(image))
    }

    /// The same, composited over the opaque `background` before the result is rounded to 8 bits
    /// (no straight-alpha image in between): an opaque image, as app icons must be. Averages in
    /// sRGB-encoded values. An empty image gives the background.
    public static func resize(_ image: Image, width: Int, height: Int, fit: FitMode = .cover, over background: RGBA) -> Image {
        let width = min(max(width, 0), maxSize), height = min(max(height, 0), maxSize)
        guard width > 0, height > 0 else { return Image(width: width, height: height) }
        let opaque = RGBA(background.r, background.g, background.b, 255)
        guard let resampler = resampler(sourceWidth: image.width, sourceHeight: image.height, width: width, height: height, fit: fit,
                                        linear: false, background: opaque) else {
            var flat = Image(width: width, height: height)
            for y in 0..<height { for x in 0..<width { flat[x, y] = opaque } }
            return flat
        }
        return Image(width: width, height: height, pixels: resampler.resample(image))
    }

    /// `resize(_:width:height:fit:over:)` (with a `background`) or `resize(_:width:height:fit:)`
    /// (without) of a `canvasWidth × canvasHeight` still given row by row (`RowFitter.add(row:y:)`,
    /// then `finish()`): the same pixels, holding only the window of source rows the output rows
    /// being computed read. Nil when the target or the source is empty (`resize` of the whole
    /// image says what that gives).
    package static func rowResizer(canvasWidth: Int, canvasHeight: Int, width: Int, height: Int, fit: FitMode = .cover,
                                   over background: RGBA?) -> RowFitter? {
        let width = min(max(width, 0), maxSize), height = min(max(height, 0), maxSize)
        guard width > 0, height > 0,
              let resampler = resampler(sourceWidth: canvasWidth, sourceHeight: canvasHeight, width: width, height: height, fit: fit,
                                        linear: false, background: background.map { RGBA($0.r, $0.g, $0.b, 255) })
        else { return nil }
        return RowFitter(canvasWidth: canvasWidth, canvasHeight: canvasHeight, resampler: resampler, width: width, height: height,
                         upscaled: false, warnings: [])
    }

    /// The resampler of a `width × height` target from a `sourceWidth × sourceHeight` image, or
    /// nil when the source is empty.
    private static func resampler(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, fit: FitMode, linear: Bool,
                                  background: RGBA?) -> AreaResampler? {
        guard sourceWidth > 0, sourceHeight > 0 else { return nil }
        let g = FitGeometry(width: sourceWidth, height: sourceHeight, outputWidth: width, outputHeight: height, inset: 0, mode: fit)
        let axes = g.axes(crop: TrimBounds(x: 0, y: 0, width: sourceWidth, height: sourceHeight),
                          outputWidth: width, outputHeight: height, enlargement: .centreSample)
        return AreaResampler(x: axes.x, y: axes.y, sourceWidth: sourceWidth, linear: linear, background: background)
    }
}
