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
