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
    public var fit: FitMode
    /// Crop fully transparent margins (over all frames) before fitting.
    public var trim: Bool
    /// Transparent margin kept on every side, in output pixels.
    public var inset: Int
    /// Average in linear light instead of sRGB-encoded values.
    public var linear: Bool

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
    public var animation: Animation
    /// True when the source was enlarged (smaller than the sticker).
    public var upscaled: Bool
    public var warnings: [String]

    public init(animation: Animation, upscaled: Bool, warnings: [String]) {
        self.animation = animation
        self.upscaled = upscaled
        self.warnings = warnings
    }
}

/// Entry point of the resize stage. (Stub: implemented in its own change.)
public enum Resizer {
    /// Fits every frame of `animation` into an `options.size` square with the same geometry.
    public static func fit(_ animation: Animation, options: FitOptions) -> FitResult {
        let n = options.size
        let frames = animation.frames.map { Frame(image: Image(width: n, height: n), delay: $0.delay) }
        return FitResult(animation: Animation(width: n, height: n, frames: frames, loopCount: animation.loopCount),
                         upscaled: false, warnings: ["resize not implemented yet"])
    }
}
