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
        let decoded = try clock.measure(\.decode) {
            try ImageDecoder.decode(data, options: DecodeOptions(limits: options.limits, lenient: options.lenient))
        }
        var result = convert(decoded, options: options)
        result.timings.decode = clock.timings.decode
        return result
    }

    /// Converts an already decoded image to every size in `options.sizes`.
    public static func convert(_ decoded: DecodedImage, options: ConversionOptions) -> ConversionResult {
        let source = decoded.animation
        let clock = StageClock()
        var outputs: [(size: StickerSize, result: Result<StickerOutput, StickerError>)] = []
        for size in options.sizes {
            let fitted = clock.measure(\.resize) {
                Resizer.fit(source, options: FitOptions(size: size.pixels, fit: options.fit, trim: options.trim,
                                                        inset: options.inset, linear: options.linear))
            }
            var result = BudgetSearch.encode(fitted.animation, options: options, clock: clock)
            if case .success(var output) = result {
                output.size = size
                output.report.warnings = fitted.warnings + output.report.warnings
                result = .success(output)
            }
            outputs.append((size, result))
        }
        return ConversionResult(format: decoded.format, width: source.width, height: source.height,
                                frames: source.frames.count, warnings: decoded.warnings, outputs: outputs,
                                timings: clock.timings)
    }
}
