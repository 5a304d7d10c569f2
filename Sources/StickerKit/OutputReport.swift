import PNGEncoding

/// What was chosen for one written sticker: the report's per-output entry.
public struct OutputReport: Sendable, Codable, Equatable {
    /// Side of the square sticker in pixels.
    public var size: Int
    /// Bytes of the whole file.
    public var bytes: Int
    /// How the pixels are stored.
    public var mode: OutputMode
    /// Palette entries, for `.palette` and `.paletteExact`.
    public var colors: Int?
    /// For `.truecolorLossy`: the step every colour channel was rounded to.
    public var posterizeStep: Int?
    /// Error-diffusion strength (0…1) of a `.palette` output.
    public var dithering: Float?
    /// The effort the written file was encoded at.
    public var effort: Effort
    /// Frames written: fewer than `framesInput` when frames were dropped to fit (their time
    /// given to the frames kept).
    public var frames: Int
    /// Frames of the input.
    public var framesInput: Int
    /// Frames per second over the whole loop, for an animation.
    public var fps: Double?
    /// One loop's duration in milliseconds, as shown, for an animation.
    public var durationMs: Double?
    /// 0…100 (100 = identical to the unquantized resize).
    public var quality: Int
    /// Structural similarity to the unquantized resize, over white and black (1 = identical).
    public var ssim: Double?
    /// Peak signal-to-noise ratio to the unquantized resize in dB (99 = identical).
    public var psnr: Double?
    /// What was given up or adjusted to fit (fit notes first, then the search's), one line each.
    public var warnings: [String]
    /// True when the sticker shows practically nothing (`NearlyEmptySticker`; its warning is
    /// among `warnings`): a warning to act on, where the others say what was adjusted.
    public var nearlyEmpty: Bool? = nil

    /// The warning that the sticker shows practically nothing (the last of `warnings`, when
    /// `nearlyEmpty`), to show where the others are only notes.
    public var emptyWarning: String? { nearlyEmpty == true ? warnings.last : nil }
    /// The platform, for any but Messages (whose reports stay as they were).
    public var platform: String? = nil
    /// The file's container, for any platform but Messages.
    public var container: StickerContainer? = nil
    /// The lossy codec's quality level chosen (`EncodeQuality.level`: WebP 0…100, WebM 0…63).
    public var level: Int? = nil
    /// How an animation longer than the platform allows was shortened (`--too-long`).
    public var tooLong: TooLongPolicy? = nil
    /// One loop's duration in milliseconds before it was shortened.
    public var durationInputMs: Double? = nil
    /// An animation's budget search: its real encodes in the order made, the sticker's setting
    /// among them.
    public var searched: [SearchStep]? = nil
    /// The size predictions from sampled frames the same search made (long timelines), when any.
    public var predictions: Int? = nil

    /// Records an animation's search: its real encodes, and its predictions (none: absent).
    mutating func record(search steps: [SearchStep], predictions: Int) {
        searched = steps
        self.predictions = predictions > 0 ? predictions : nil
    }

    init(size: Int, bytes: Int, mode: OutputMode, colors: Int?, dithering: Float?, effort: Effort, frames: Int,
                framesInput: Int, fps: Double? = nil, durationMs: Double? = nil, quality: Int, ssim: Double?, psnr: Double?,
                warnings: [String]) {
        self.size = size; self.bytes = bytes; self.mode = mode; self.colors = colors; self.dithering = dithering
        self.effort = effort; self.frames = frames; self.framesInput = framesInput; self.fps = fps
        self.durationMs = durationMs; self.quality = quality; self.ssim = ssim; self.psnr = psnr; self.warnings = warnings
    }
}

