import ImageCore

/// The result of converting one input: the decoded facts and, per size, an output or an error.
public struct ConversionResult: Sendable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    public var frames: Int
    public var warnings: [String]
    public var outputs: [(size: StickerSize, result: Result<StickerOutput, StickerError>)]
    /// Time spent per stage, all sizes together.
    public var timings: StageTimings
}
