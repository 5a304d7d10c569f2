import ImageCore
import ImageDecoding
import ImageResize
import ImageQuantize
import PNGEncoding

/// One written sticker: its size, its bytes and what was chosen.
public struct StickerOutput: Sendable {
    public var size: StickerSize
    public var bytes: [UInt8]
    public var report: OutputReport
}

/// Why one size of one input produced nothing.
public struct StickerError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// Nothing fits the byte budget.
        case overBudget
        /// It fits, but below the requested minimum quality: reported as skipped, nothing written.
        case belowMinimumQuality
        case other
    }
    public var kind: Kind
    public var message: String
    public init(_ message: String, kind: Kind = .other) { self.message = message; self.kind = kind }
    public var description: String { message }
}

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

/// The pipeline: decode → fit and resize → quantize → encode → budget search. Touches no files.
public enum StickerConverter {
    /// Converts one file's bytes to every size in `options.sizes`. Throws `ImageError` when the
    /// input cannot be decoded; per-size failures (nothing fits the budget) are in the result.
    public static func convert(_ data: [UInt8], options: ConversionOptions) throws -> ConversionResult {
        let clock = StageClock()
        var decoded = try clock.measure(\.decode) {
            try ImageDecoder.decode(data, options: DecodeOptions(limits: options.limits, lenient: options.lenient))
        }
        var result = convert(releasing: &decoded, options: options)
        result.timings.decode = clock.timings.decode
        return result
    }

    /// Converts an already decoded image to every size in `options.sizes`.
    public static func convert(_ decoded: DecodedImage, options: ConversionOptions) -> ConversionResult {
        var copy = decoded
        return convert(releasing: &copy, options: options)
    }

    /// The pipeline over `decoded`, whose frames are released once the last size is resized, so
    /// that the decoded frames and the budget search's working set are not held at the same time
    /// (when the caller holds no other reference to them).
    static func convert(releasing decoded: inout DecodedImage, options: ConversionOptions) -> ConversionResult {
        let clock = StageClock()
        let (width, height, frameCount) = (decoded.animation.width, decoded.animation.height, decoded.animation.frames.count)
        let animated = decoded.animation.isAnimated || decoded.format == .apng
        var outputs: [(size: StickerSize, result: Result<StickerOutput, StickerError>)] = []
        for (k, size) in options.sizes.enumerated() {
            var fitted = clock.measure(\.resize) {
                Resizer.fit(decoded.animation, options: FitOptions(size: size.pixels, fit: options.fit, trim: options.trim,
                                                                   inset: options.inset, linear: options.linear))
            }
            if k == options.sizes.count - 1 {
                decoded.animation = Animation(still: Image(width: 1, height: 1))
            }
            let warnings = fitted.warnings
            let frames = fitted.animation
            fitted.animation = Animation(still: Image(width: 1, height: 1))
            var result = BudgetSearch.encode(frames, animated: animated, options: options, clock: clock)
            if case .success(var output) = result {
                output.size = size
                output.report.warnings = warnings + output.report.warnings
                result = .success(output)
            }
            outputs.append((size, result))
        }
        return ConversionResult(format: decoded.format, width: width, height: height,
                                frames: frameCount, warnings: decoded.warnings, outputs: outputs,
                                timings: clock.timings)
    }
}
