import ImageCore
import ImageResize
import PNGEncoding

/// Everything that decides what a conversion writes. Two runs with equal options on equal input
/// give identical bytes.
public struct ConversionOptions: Sendable, Equatable {
    /// The sticker sizes to make, one output each.
    public var sizes: [StickerSize]
    /// How artwork that is not square fills the square: whole with transparent padding
    /// (`.contain`) or cropped to fill (`.cover`).
    public var fit: FitMode
    /// Crop fully transparent margins (over all frames) before fitting.
    public var trim: Bool
    /// Transparent margin kept on every side, in output pixels.
    public var inset: Int
    /// Average in linear light instead of sRGB values when resizing.
    public var linear: Bool
    /// Largest whole file allowed, in bytes (by default Messages' limit, `ByteBudget.messages`).
    public var maxBytes: Int
    /// How hard the encoder works on the written file: smaller files for more time, which can
    /// leave room in the budget for more colours.
    public var effort: Effort
    /// pngquant-style MIN…MAX quality: never write below MIN, stop improving at MAX.
    public var quality: ClosedRange<Int>
    /// Lowest frame rate frame decimation may go down to, for animations.
    public var minFPS: Double
    /// Largest input the decoders accept (dimensions, pixels, frames, bytes), checked before
    /// allocating.
    public var limits: Limits
    /// Salvage what decodes from a damaged file (with a warning) instead of failing it.
    public var lenient: Bool
    /// Force palette output with at most this many colours (2…256); nil lets the budget search
    /// choose among lossless, lossy truecolour and palettes.
    public var maxColors: Int?
    /// The platform the stickers are for. Messages (the default) makes every `sizes` entry
    /// within `maxBytes`; any other makes one sticker by its own rules (`StickerTarget`), its
    /// byte caps lowered to `maxBytes` when that is smaller.
    public var target: StickerTarget = .imessage
    /// What to do with an animation longer than `target` allows.
    public var tooLong: TooLongPolicy = .speedup
    /// Whether each lossy Messages sticker's report gets its SSIM and PSNR against the
    /// unquantized resize (`OutputReport.ssim`, `psnr`; lossless stickers always have 1 and 99).
    /// Measuring costs a few per cent of a conversion's CPU (7–8 % over the animated corpus) and
    /// never changes the bytes; off, a lossy sticker's report has no SSIM or PSNR. Other
    /// platforms always measure: their report's quality comes from the decoded sticker.
    public var measuresQuality = true

    /// Options with Messages' defaults: the regular size, the whole artwork, Messages' byte
    /// limit, default effort, any quality, down to 8 fps. `maxColors` is clamped to 2…256.
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
