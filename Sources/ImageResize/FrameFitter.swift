import ImageCore

/// Fits the frames of one animation into an `options.size` square one frame at a time, all with
/// the same geometry: what `Resizer.fit` does to a whole animation, for callers that decode
/// frames one by one and must not hold them all.
///
/// Feed it the frames in order: only the output pixels that a change since the frame before
/// reaches are resampled again (the bytes are those of resampling the whole frame), and a frame
/// whose visible part is unchanged shares the previous result's storage (GIFs often repeat frames).
public struct FrameFitter {
    /// Side of every output image (the requested size, clamped to what `Resizer` accepts).
    public let size: Int
    /// True when the source is enlarged (smaller than the sticker).
    public let upscaled: Bool
    /// One line per note for the user (enlargement, adjusted options), as `Resizer.fit` gives.
    public let warnings: [String]

    private let canvasWidth: Int
    private let canvasHeight: Int
    /// Nil when there is nothing to fit (an empty canvas): every output is transparent.
    private let resampler: AreaResampler?
    private var previousSource: Image?
    private var previousOutput: Image?

    /// A fitter for frames of a `canvasWidth × canvasHeight` canvas.
    ///
    /// With `options.trim`, `visibleBounds` must hold every frame of the animation (fed before
    /// the first `fit`) so that all frames share one crop; without it no trim is applied, and
    /// it is ignored when `options.trim` is false. See `Resizer.fit` for the geometry.
    public init(canvasWidth: Int, canvasHeight: Int, options: FitOptions, visibleBounds: VisibleBounds? = nil) {
        let setup = FitSetup(canvasWidth: canvasWidth, canvasHeight: canvasHeight, options: options, visibleBounds: visibleBounds)
        size = setup.size
        upscaled = setup.upscaled
        warnings = setup.warnings
        resampler = setup.resampler
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
    }

    /// The next frame of a canvas decode (`CanvasFrame`), `size × size`, with the output pixels
    /// that changed since the frame before (all of them for the first). Only what the frame's
    /// damage reaches is resampled again; the bytes are those of `fit` on the whole canvas. No
    /// copy of the source is kept: the damage says what changed.
    package mutating func fit(_ frame: CanvasFrame) -> (image: Image, damage: RowDamage) {
        precondition(frame.canvasWidth == canvasWidth && frame.canvasHeight == canvasHeight,
                     "FrameFitter: a \(frame.canvasWidth)×\(frame.canvasHeight) frame for a \(canvasWidth)×\(canvasHeight) canvas")
        let none = RowDamage(rows: size)
        guard let resampler else {
            if let previousOutput { return (previousOutput, none) }
            let out = Image(width: size, height: size)
            previousOutput = out
            return (out, RowDamage.all(width: size, rows: size))
        }
        if var pixels = previousOutput?.pixels, let damage = frame.damage {
            // Written over the frame before in place: a copy of it only while the caller still
            // holds that frame.
            previousOutput = nil
            let changed = resampler.resample(regions: frame.regions, damage: damage, updating: &pixels)
            let out = Image(width: size, height: size, pixels: pixels)
            previousOutput = out
            guard let changed else { return (out, none) }
            previousSource = nil
            return (out, changed)
        }
        // The first frame, or one whose changes are not known: every pixel.
        let out = Image(width: size, height: size, pixels: resampler.resample(regions: frame.regions))
        previousOutput = out
        previousSource = nil
        return (out, RowDamage.all(width: size, rows: size))
    }

    /// The next frame, `size × size`. `image` must be `canvasWidth × canvasHeight`.
    public mutating func fit(_ image: Image) -> Image {
        precondition(image.width == canvasWidth && image.height == canvasHeight,
                     "FrameFitter: a \(image.width)×\(image.height) frame for a \(canvasWidth)×\(canvasHeight) canvas")
        // Animation frames mostly differ from the one before in a small part: only the output
        // pixels that part reaches are resampled again. A frame whose visible part is unchanged
        // (repeated GIF frames) shares the previous result's storage.
        let out: Image
        if let resampler {
            if let previousOutput, let previousSource {
                guard let pixels = resampler.resample(image, previous: previousSource, previousOutput: previousOutput.pixels)
                else { return previousOutput }
                out = Image(width: size, height: size, pixels: pixels)
            } else {
                out = Image(width: size, height: size, pixels: resampler.resample(image))
            }
        } else {
            if let previousOutput { return previousOutput }
            out = Image(width: size, height: size)
        }
        previousSource = image
        previousOutput = out
        return out
    }
}
