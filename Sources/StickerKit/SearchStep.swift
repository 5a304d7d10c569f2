/// One real encode an animation's budget search made: the setting it tried and the size of the
/// file it gave, in the order the search made them — a palette's colour count (`AnimationBudget`:
/// Messages' APNG, and Signal's, Discord's and LINE's), or a lossy codec's level, or lossless
/// (`CodecBudgetSearch`: WhatsApp's WebP, Telegram's WebM). A report lists them beside the
/// setting chosen, so the settings around it and their sizes can be seen without encoding them
/// again.
public struct SearchStep: Sendable, Codable, Equatable {
    /// Palette entries asked for (an APNG's search).
    public var colors: Int?
    /// The lossy codec's quality level (`EncodeQuality.level`: WebP 0…100, WebM 0…63); a codec's
    /// step without one is lossless.
    public var level: Int?
    /// Frames kept.
    public var frames: Int
    /// Bytes of the whole file; for an encode that stopped once it was far over the budget
    /// (`estimated`), its size extrapolated from the frames it wrote.
    public var bytes: Int
    /// Whether the file fitted the byte budget as it was encoded (a file a little over may still
    /// have been shrunk into it, see `OutputReport.bytes`).
    public var fits: Bool
    /// True when the encode stopped early and `bytes` is an extrapolation (absent otherwise).
    public var estimated: Bool?

    public init(colors: Int? = nil, level: Int? = nil, frames: Int, bytes: Int, fits: Bool, estimated: Bool? = nil) {
        self.colors = colors; self.level = level; self.frames = frames; self.bytes = bytes; self.fits = fits
        self.estimated = estimated
    }
}
