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

    /// A still: one frame, no duration.
    func still(_ bytes: [UInt8], mode: OutputMode, colors: Int?, dithering: Float?, effort: Effort, quality: Int,
               metrics: QualityMetrics?, posterizeStep: Int? = nil) -> StickerOutput {
        var report = OutputReport(size: side, bytes: bytes.count, mode: mode, colors: colors, dithering: dithering,
                                  effort: effort, frames: 1, framesInput: 1, quality: quality,
                                  ssim: metrics?.ssim ?? 1, psnr: metrics?.psnr ?? 99, warnings: fitWarnings)
        report.posterizeStep = posterizeStep
        return StickerOutput(size: size, bytes: bytes, report: report)
    }

    /// An animation keeping `kept` of its `framesInput` frames over `duration`.
    func animation(_ bytes: [UInt8], mode: OutputMode, effort: Effort, colors: Int?, kept: Int, framesInput: Int,
                   duration: Delay, quality: Int, metrics: QualityMetrics?, warnings: [String]) -> StickerOutput {
        let seconds = duration.seconds
        return StickerOutput(size: size, bytes: bytes, report: OutputReport(
            size: side, bytes: bytes.count, mode: mode, colors: colors,
            dithering: mode == .palette ? AnimationBudget.dithering : nil, effort: effort,
            frames: kept, framesInput: framesInput,
            fps: seconds > 0 ? Double(kept) / seconds : nil, durationMs: duration.milliseconds,
            quality: quality, ssim: metrics?.ssim ?? 1, psnr: metrics?.psnr ?? 99, warnings: fitWarnings + warnings))
    }
}
