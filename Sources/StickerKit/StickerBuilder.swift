import ImageCore
import PNGEncoding

/// Makes the finished sticker of one size and its report, for the still and the animation
/// searches alike: the size, the fit's notes (first in the report's warnings) and the
/// animation's loop count are known before the search starts.
struct StickerBuilder {
    let size: StickerSize
    /// Side of the sticker in pixels.
    let side: Int
    /// What fitting the source into the square noted (enlargement, adjusted options).
    let fitWarnings: [String]
    /// Times an animation plays (0 = forever), written into its acTL.
    let loopCount: Int
    /// Whether a lossy sticker's SSIM and PSNR are computed for its report
    /// (`ConversionOptions.measuresQuality`).
    var measuresQuality = true

    /// `compare()` when the report measures quality, else nil (the report then has no SSIM or
    /// PSNR for a lossy sticker).
    func metrics(_ compare: () -> QualityMetrics) -> QualityMetrics? {
        measuresQuality ? compare() : nil
    }

    /// The report's SSIM and PSNR: measured, exact for a lossless `mode`, else unknown.
    private static func scores(_ metrics: QualityMetrics?, mode: OutputMode) -> (ssim: Double?, psnr: Double?) {
        if let metrics { return (metrics.ssim, metrics.psnr) }
        return mode == .truecolor || mode == .paletteExact ? (1, 99) : (nil, nil)
    }

    /// A still: one frame, no duration.
    func still(_ bytes: [UInt8], mode: OutputMode, colors: Int?, dithering: Float?, effort: Effort, quality: Int,
               metrics: QualityMetrics?, posterizeStep: Int? = nil) -> StickerOutput {
        let scores = StickerBuilder.scores(metrics, mode: mode)
        var report = OutputReport(size: side, bytes: bytes.count, mode: mode, colors: colors, dithering: dithering,
                                  effort: effort, frames: 1, framesInput: 1, quality: quality,
                                  ssim: scores.ssim, psnr: scores.psnr, warnings: fitWarnings)
        report.posterizeStep = posterizeStep
        return StickerOutput(size: size, bytes: bytes, report: report)
    }

    /// An animation keeping `kept` of its `framesInput` frames over `duration`.
    func animation(_ bytes: [UInt8], mode: OutputMode, effort: Effort, colors: Int?, kept: Int, framesInput: Int,
                   duration: Delay, quality: Int, metrics: QualityMetrics?, warnings: [String],
                   search: (steps: [SearchStep], predictions: Int)? = nil) -> StickerOutput {
        let seconds = duration.seconds
        let scores = StickerBuilder.scores(metrics, mode: mode)
        var report = OutputReport(
            size: side, bytes: bytes.count, mode: mode, colors: colors,
            dithering: mode == .palette ? AnimationBudget.dithering : nil, effort: effort,
            frames: kept, framesInput: framesInput,
            fps: seconds > 0 ? Double(kept) / seconds : nil, durationMs: duration.milliseconds,
            quality: quality, ssim: scores.ssim, psnr: scores.psnr, warnings: fitWarnings + warnings)
        if let search { report.record(search: search.steps, predictions: search.predictions) }
        return StickerOutput(size: size, bytes: bytes, report: report)
    }
}
