import ImageCore
import ImageQuantize
import PNGEncoding

/// The budget search for animations. (First step: only the first frame is kept; APNG output
/// comes with the animation encoder.)
enum AnimationBudget {
    static func encode(_ animation: Animation, options: ConversionOptions, clock: StageClock) -> Result<StickerOutput, StickerError> {
        var result = BudgetSearch.encodeStill(animation.frames[0].image, options: options, clock: clock)
        if case .success(var o) = result {
            o.report.framesInput = animation.frames.count
            o.report.warnings.append("animation: only the first of \(animation.frames.count) frames kept (APNG output not implemented yet)")
            result = .success(o)
        }
        return result
    }
}
