import ImageCore
import ImageResize

/// Makes a platform's pack icon (`StickerTarget.packIcon`) from one image: the whole artwork
/// fitted into the square (`fit`, transparent padding), then Messages' still budget search at the
/// icon's byte cap (lossless whenever it fits, which a 96 or 100 px PNG nearly always does).
public enum PackIconRenderer {
    /// The PNG file of `icon` from `image`, or why it cannot fit.
    public static func render(_ image: Image, icon: PackIcon, fit: FitMode = .contain) -> Result<[UInt8], StickerError> {
        let fitted = Resizer.fit(Animation(still: image), options: FitOptions(size: icon.side, fit: fit)).animation.frames[0].image
        var options = ConversionOptions()
        options.maxBytes = icon.maxBytes
        let builder = StickerBuilder(size: .regular, side: icon.side, fitWarnings: [], loopCount: 0)
        return BudgetSearch.encodeStill(fitted, options: options, builder: builder, clock: StageClock()).map(\.bytes)
    }
}
