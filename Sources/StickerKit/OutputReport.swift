import PNGEncoding

/// What was chosen for one written sticker: the report's per-output entry.
public struct OutputReport: Sendable, Codable, Equatable {
    public var size: Int
    public var bytes: Int
    public var mode: OutputMode
    public var colors: Int?
    /// For `.truecolorLossy`: the step every colour channel was rounded to.
    public var posterizeStep: Int?
    public var dithering: Float?
    /// The effort the written file was encoded at.
    public var effort: Effort
    public var frames: Int
    public var framesInput: Int
    public var fps: Double?
    public var durationMs: Double?
    /// 0…100 (100 = identical to the unquantized resize).
    public var quality: Int
    public var ssim: Double?
    public var psnr: Double?
    public var warnings: [String]

    public init(size: Int, bytes: Int, mode: OutputMode, colors: Int?, dithering: Float?, effort: Effort, frames: Int,
                framesInput: Int, fps: Double? = nil, durationMs: Double? = nil, quality: Int, ssim: Double?, psnr: Double?,
                warnings: [String]) {
        self.size = size; self.bytes = bytes; self.mode = mode; self.colors = colors; self.dithering = dithering
        self.effort = effort; self.frames = frames; self.framesInput = framesInput; self.fps = fps
        self.durationMs = durationMs; self.quality = quality; self.ssim = ssim; self.psnr = psnr; self.warnings = warnings
    }
}

