import ImageCore
import ImageDecoding

extension StickerConverter {
    /// Throws what `convert` would refuse `data` for before decoding a pixel: the file's
    /// structure and limits (`ImageDecoder.preflight`: an empty or unknown file, a damaged or
    /// truncated one unless `options.lenient`, a canvas, frame count or JPEG scan count over the
    /// limits) and an estimated peak memory over `Limits.maxMemory` (`ConversionMemory`). What
    /// only decoding finds (damage inside compressed data, a size whose frames change too many
    /// pixels, nothing that fits the budget) is not found here. In the time of a walk over the
    /// file's structure: a dry run's check of the inputs it would convert.
    public static func preflight(_ data: [UInt8], options: ConversionOptions) throws {
        try ImageDecoder.preflight(data, options: DecodeReduction.decodeOptions(options))
        try ConversionMemory(data, options: options).check(options.limits)
    }
}
