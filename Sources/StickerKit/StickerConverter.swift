import ImageCore
import ImageDecoding
import ImageResize
import ImageQuantize
import PNGEncoding

/// What was chosen for one written sticker: the report's per-output entry.
public struct OutputReport: Sendable, Codable, Equatable {
    public var size: Int
    public var bytes: Int
    /// "truecolor", "palette" (or "palette-exact" when lossless).
    public var mode: String
    public var colors: Int?
    public var dithering: Float?
    public var effort: String
    public var frames: Int
    public var framesInput: Int
    public var fps: Double?
    public var durationMs: Double?
    /// 0…100 (100 = identical to the unquantized resize).
    public var quality: Int
    public var ssim: Double?
    public var psnr: Double?
    public var warnings: [String]
}

/// One written sticker: its size, its bytes and what was chosen.
public struct StickerOutput: Sendable {
    public var size: StickerSize
    public var bytes: [UInt8]
    public var report: OutputReport
}

/// Why one size of one input produced nothing.
public struct StickerError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
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
}

/// The pipeline: decode → fit and resize → quantize → encode → budget search. Touches no files.
public enum StickerConverter {
    /// Converts one file's bytes to every size in `options.sizes`. Throws `ImageError` when the
    /// input cannot be decoded; per-size failures (nothing fits the budget) are in the result.
    public static func convert(_ data: [UInt8], options: ConversionOptions) throws -> ConversionResult {
        let decoded = try ImageDecoder.decode(data, options: DecodeOptions(limits: options.limits, lenient: options.lenient))
        let a = decoded.animation
        return ConversionResult(format: decoded.format, width: a.width, height: a.height, frames: a.frames.count,
                                warnings: decoded.warnings, outputs: [])
    }
}
