import ImageCore

/// The result of converting one input: the decoded facts and, per size, an output or an error.
public struct ConversionResult: Sendable {
    /// The input's format, sniffed from its bytes.
    public var format: ImageFormat
    /// The input's canvas, in pixels.
    public var width: Int
    public var height: Int
    /// The input's frame count (1 for a still).
    public var frames: Int
    /// What the decoder noted about the input (damage salvaged, odd metadata), one line each.
    public var warnings: [String]
    /// Per requested size, in the order of `ConversionOptions.sizes`: the sticker, or why there
    /// is none.
    public var outputs: [(size: StickerSize, result: Result<StickerOutput, StickerError>)]
    /// Time spent per stage, all sizes together.
    public var timings: StageTimings
}
