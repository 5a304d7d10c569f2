import ImageCore
import ImageDecoding

extension StickerConverter {
    /// Throws what `convert` would refuse `data` for, as far as the file's structure tells: its
    /// structure and limits (`ImageDecoder.preflight`: an empty or unknown file, a damaged or
    /// truncated one unless `options.lenient`, a canvas, frame count or JPEG scan count over the
    /// limits), an estimated peak memory over `Limits.maxMemory` (`ConversionMemory`) and, with
    /// `TooLongPolicy.fail`, an animation longer than its platform allows. What
    /// only decoding finds (damage inside compressed data, a size whose frames change too many
    /// pixels, nothing that fits the budget) is not found here. In the time of a walk over the
    /// file's structure: a dry run's check of the inputs it would convert.
    public static func preflight(_ data: [UInt8], options: ConversionOptions) throws {
        try ImageDecoder.preflight(data, options: DecodeReduction.decodeOptions(options))
        try ConversionMemory(data, options: options).check(options.limits)
        try checkDuration(data, options: options)
    }

    /// Throws `StickerError.tooLong` when an animation is longer than its platform allows and
    /// `options.tooLong` is `.fail`, from the delays its container stores (`DelayRetiming`, as
    /// the conversion retimes the decoded ones).
    private static func checkDuration(_ data: [UInt8], options: ConversionOptions) throws {
        guard options.tooLong == .fail, options.target.maxDurationMs != nil,
              let o = data.withUnsafeBytes({ ImageOutline.read($0, everyFrame: true) }),
              case .failure(let e)? = DelayRetiming.ofStored(o.storedDelays, frameCount: o.frameCount, target: options.target,
                                                             tooLong: .fail) else { return }
        throw e
    }
}
