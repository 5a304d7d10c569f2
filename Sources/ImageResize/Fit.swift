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
}
