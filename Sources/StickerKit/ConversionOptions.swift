import ImageCore
import ImageDecoding
import ImageResize
import PNGEncoding

/// Everything that decides what a conversion writes. Two runs with equal options on equal input
/// give identical bytes.
public struct ConversionOptions: Sendable, Equatable {
    public var sizes: [StickerSize]
    public var fit: FitMode
    public var trim: Bool
    public var inset: Int
    public var linear: Bool
    /// Largest whole file allowed, in bytes (by default Messages' limit, `ByteBudget.messages`).
    public var maxBytes: Int
    public var effort: Effort
    /// pngquant-style MIN…MAX quality: never write below MIN, stop improving at MAX.
    public var quality: ClosedRange<Int>
    /// Lowest frame rate frame decimation may go down to, for animations.
    public var minFPS: Double
    public var limits: Limits
    public var lenient: Bool
    /// Force palette output with at most this many colours (2…256); nil lets the budget search
    /// choose among lossless, lossy truecolour and palettes.
    public var maxColors: Int?

    public init(sizes: [StickerSize] = [.regular], fit: FitMode = .contain, trim: Bool = false, inset: Int = 0,
                linear: Bool = false, maxBytes: Int = ByteBudget.messages, effort: Effort = .default,
                quality: ClosedRange<Int> = 0...100, minFPS: Double = 8, limits: Limits = .default, lenient: Bool = false,
                maxColors: Int? = nil) {
        self.sizes = sizes
        self.fit = fit
        self.trim = trim
        self.inset = inset
        self.linear = linear
        self.maxBytes = maxBytes
        self.effort = effort
        self.quality = quality
        self.minFPS = minFPS
        self.limits = limits
        self.lenient = lenient
        self.maxColors = maxColors.map { min(256, max(2, $0)) }
    }
}
