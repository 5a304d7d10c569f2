import ImageCore
import ImageResize

/// Fitting a platform sticker's frames one at a time, as a canvas decode gives them: into the
/// platform's square (`FrameFitter`, the pixels of `Resizer.fit`), or into a `CanvasBox` (LINE),
/// where the canvas takes the artwork's shape. `contain` (the default) fits the artwork — its
/// visible part with `trim` — with its aspect kept and the box's margin (or a larger `inset`)
/// around it, by `FrameFitter` into an even square whose centre is then cut to the canvas (the
/// bands cut away are the square's transparent padding, so the pixels are `fit`'s own). `cover`
/// fills the whole box and crops the overflow evenly.
struct BoxFit {
    let width: Int
    let height: Int
    /// One line per note for the user (enlargement, adjusted options).
    let warnings: [String]
    private var fitter: FrameFitter?
    private let linear: Bool

    /// The fitter for frames of a `canvasWidth × canvasHeight` canvas: into `box` when given,
    /// else into a `side` square. With `trim`, `visibleBounds` holds every frame.
    init(canvasWidth: Int, canvasHeight: Int, side: Int, box: CanvasBox?, options: ConversionOptions,
         visibleBounds: VisibleBounds?) {
        linear = options.linear
        guard let square = Self.square(canvasWidth: canvasWidth, canvasHeight: canvasHeight, side: side, box: box,
                                       options: options, visibleBounds: visibleBounds) else {
            let box = box!
            let upscaled = Double(box.width) / Double(max(canvasWidth, 1)) > 1 || Double(box.height) / Double(max(canvasHeight, 1)) > 1
            (width, height, fitter) = (box.width, box.height, nil)
            warnings = upscaled ? ["source is \(canvasWidth)×\(canvasHeight), smaller than the \(box.width)×\(box.height) sticker: enlarged"] : []
            return
        }
        let f = FrameFitter(canvasWidth: canvasWidth, canvasHeight: canvasHeight, options: square.fit, visibleBounds: visibleBounds)
        (width, height, warnings, fitter) = (square.cut?.width ?? f.size, square.cut?.height ?? f.size, f.warnings, f)
    }

    /// Whether the fit resizes the whole canvas instead of fitting a square: a `cover` box.
    static func resizesWholeCanvas(box: CanvasBox?, options: ConversionOptions) -> Bool {
        box != nil && options.fit == .cover
    }

    /// The fit into a platform's `side` square.
    static func squareFit(side: Int, options: ConversionOptions) -> FitOptions {
        FitOptions(size: side, fit: options.fit, trim: options.trim, inset: options.inset, linear: options.linear)
    }

    /// The square the artwork is fitted into (`fit`) and the centre cut from it (`cut`, nil: the
    /// whole square): the platform's `side` square, or for a `contain` box the even square of
    /// `CanvasBox.canvas`. Nil for a `cover` box, which resizes the whole canvas instead.
    static func square(canvasWidth: Int, canvasHeight: Int, side: Int, box: CanvasBox?, options: ConversionOptions,
                       visibleBounds: VisibleBounds?) -> (fit: FitOptions, cut: (width: Int, height: Int)?)? {
        guard let box else { return (squareFit(side: side, options: options), nil) }
        if resizesWholeCanvas(box: box, options: options) { return nil }
        var art = (width: canvasWidth, height: canvasHeight)
        if options.trim, let s = visibleBounds?.visibleSize { art = s }
        let margin = max(options.inset, box.margin)
        let c = box.canvas(forArtwork: art.width, art.height, margin: margin)
        return (FitOptions(size: c.square, fit: .contain, trim: options.trim, inset: margin, linear: options.linear), (c.width, c.height))
    }

    /// The next frame, `width × height`.
    mutating func fit(_ frame: CanvasFrame) -> Image {
        guard fitter != nil else {
            return Resizer.resize(frame.wholeCanvas, width: width, height: height, fit: .cover, linear: linear)
        }
        return Self.cut(fitter!.fit(frame).image, width: width, height: height)
    }

    /// The centre `width × height` of `image` (both differences even).
    static func cut(_ image: Image, width: Int, height: Int) -> Image {
        if image.width == width && image.height == height { return image }
        let x0 = (image.width - width) / 2, y0 = (image.height - height) / 2
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        image.pixels.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<height {
                    let from = ((y0 + y) * image.width + x0) * 4
                    dst.baseAddress!.advanced(by: y * width * 4).update(from: src.baseAddress!.advanced(by: from), count: width * 4)
                }
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }
}
