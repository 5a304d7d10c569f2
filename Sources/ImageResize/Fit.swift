import ImageCore

/// How artwork is placed in the square.
public enum FitMode: String, Sendable, CaseIterable, Codable {
    /// Long side to the square's side, centred, transparent padding (default).
    case contain
    /// Fill the square and crop the centre.
    case cover
}

/// Options of the fit-and-resize stage.
public struct FitOptions: Sendable, Equatable {
    /// Side of the output square in pixels (300, 408 or 618 for stickers).
    public var size: Int
    /// How the artwork is placed in the square.
    public var fit: FitMode
    /// Crop fully transparent margins (over all frames) before fitting.
    public var trim: Bool
    /// Transparent margin kept on every side, in output pixels.
    public var inset: Int
    /// Average in linear light instead of sRGB-encoded values.
    public var linear: Bool

    /// Options for a `size × size` sticker; by default contain, no trim, no inset, sRGB averaging.
    public init(size: Int, fit: FitMode = .contain, trim: Bool = false, inset: Int = 0, linear: Bool = false) {
        self.size = size
        self.fit = fit
        self.trim = trim
        self.inset = inset
        self.linear = linear
    }
}

/// What fitting produced: every frame as a `size × size` image, and notes for the user.
public struct FitResult: Sendable {
    /// Every frame `size × size`, delays and loop count as in the source.
    public var animation: Animation
    /// True when the source was enlarged (smaller than the sticker).
    public var upscaled: Bool
    /// One line per note for the user (enlargement, adjusted options).
    public var warnings: [String]

    /// A result from its parts.
    public init(animation: Animation, upscaled: Bool, warnings: [String]) {
        self.animation = animation
        self.upscaled = upscaled
        self.warnings = warnings
    }
}

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
    public static func fit(_ animation: Animation, options: FitOptions) -> FitResult {
        var warnings: [String] = []
        var size = options.size
        if size < 1 || size > maxSize {
            let clamped = min(max(size, 1), maxSize)
            warnings.append("size \(size) is outside 1…\(maxSize): using \(clamped)")
            size = clamped
        }
        var inset = options.inset
        if inset < 0 || 2 * inset >= size {
            let clamped = min(max(inset, 0), (size - 1) / 2)
            warnings.append("inset \(inset) does not fit a \(size)×\(size) sticker: using \(clamped)")
            inset = clamped
        }

        let frames = animation.frames
        var crop = TrimBounds(x: 0, y: 0, width: animation.width, height: animation.height)
        if options.trim, let bounds = TrimBounds.union(of: frames) { crop = bounds }
        func blank() -> FitResult {
            let out = frames.map { Frame(image: Image(width: size, height: size), delay: $0.delay) }
            return FitResult(animation: Animation(width: size, height: size, frames: out, loopCount: animation.loopCount),
                             upscaled: false, warnings: warnings)
        }
        guard crop.width > 0, crop.height > 0 else {
            warnings.append("source is \(animation.width)×\(animation.height): nothing to fit")
            return blank()
        }

        let g = FitGeometry(width: crop.width, height: crop.height, size: size, inset: inset, mode: options.fit)
        let x = AxisWeights(sourceCount: crop.width, origin: crop.x, outputCount: size, scale: g.scale,
                            offset: g.offsetX, windowStart: g.windowX.lowerBound, windowEnd: g.windowX.upperBound)
        let y = AxisWeights(sourceCount: crop.height, origin: crop.y, outputCount: size, scale: g.scale,
                            offset: g.offsetY, windowStart: g.windowY.lowerBound, windowEnd: g.windowY.upperBound)
        let upscaled = g.scale > 1
        if upscaled {
            warnings.append("source is \(crop.width)×\(crop.height), smaller than the \(size)×\(size) sticker: enlarged")
        }
        let resampler = AreaResampler(x: x, y: y, sourceWidth: animation.width, linear: options.linear)
        var out: [Frame] = []
        out.reserveCapacity(frames.count)
        for (i, frame) in frames.enumerated() {
            // Consecutive identical frames (common in GIFs) resample once.
            if i > 0, frame.image == frames[i - 1].image {
                out.append(Frame(image: out[i - 1].image, delay: frame.delay))
                continue
            }
            let pixels = resampler.resample(frame.image)
            out.append(Frame(image: Image(width: size, height: size, pixels: pixels), delay: frame.delay))
        }
        return FitResult(animation: Animation(width: size, height: size, frames: out, loopCount: animation.loopCount),
                         upscaled: upscaled, warnings: warnings)
    }
}
