import ImageCore
import ImageResize

/// Fitting into a `CanvasBox` (LINE): the canvas takes the artwork's shape. `contain` (the
/// default) fits the artwork — its visible part with `trim` — with its aspect kept and the box's
/// margin (or a larger `inset`) around it, by `Resizer.fit` into an even square whose centre is
/// then cut to the canvas (the bands cut away are the square's transparent padding, so the pixels
/// are `fit`'s own). `cover` fills the whole box and crops the overflow evenly.
enum BoxFit {
    static func fit(_ source: Animation, box: CanvasBox, options: ConversionOptions) -> FitResult {
        if options.fit == .cover {
            let frames = source.frames.map {
                Frame(image: Resizer.resize($0.image, width: box.width, height: box.height, fit: .cover, linear: options.linear),
                      delay: $0.delay)
            }
            let upscaled = Double(box.width) / Double(max(source.width, 1)) > 1 || Double(box.height) / Double(max(source.height, 1)) > 1
            return FitResult(animation: Animation(width: box.width, height: box.height, frames: frames, loopCount: source.loopCount),
                             upscaled: upscaled,
                             warnings: upscaled ? ["source is \(source.width)×\(source.height), smaller than the \(box.width)×\(box.height) sticker: enlarged"] : [])
        }
        var art = (width: source.width, height: source.height)
        if options.trim {
            var union = VisibleBounds()
            for frame in source.frames { union.add(frame.image) }
            if let s = union.visibleSize { art = s }
        }
        let margin = max(options.inset, box.margin)
        let c = box.canvas(forArtwork: art.width, art.height, margin: margin)
        let square = Resizer.fit(source, options: FitOptions(size: c.square, fit: .contain, trim: options.trim, inset: margin,
                                                             linear: options.linear))
        let frames = square.animation.frames.map { Frame(image: cut($0.image, width: c.width, height: c.height), delay: $0.delay) }
        return FitResult(animation: Animation(width: c.width, height: c.height, frames: frames, loopCount: source.loopCount),
                         upscaled: square.upscaled, warnings: square.warnings)
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
