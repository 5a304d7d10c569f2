import ImageCore
import ImageResize

/// Makes a platform's pack picture (one of `StickerTarget.packIcons`) from one image: the whole
/// artwork fitted with its aspect into the `width × height` box (transparent padding), then
/// Messages' still budget search at the picture's byte cap (lossless whenever it fits, which a
/// picture this small nearly always does). A square box is `Resizer.fit`'s square (the stickers'
/// geometry); a rectangle (LINE's 96×74 tab) is `Resizer.resize`, the same exact area average
/// when reducing.
public enum PackIconRenderer {
    /// The PNG file of `icon` from `image`, or why it cannot fit.
    public static func render(_ image: Image, icon: PackIcon, fit: FitMode = .contain) -> Result<[UInt8], StickerError> {
        let fitted = icon.width == icon.height
            ? Resizer.fit(Animation(still: image), options: FitOptions(size: icon.width, fit: fit)).animation.frames[0].image
            : Resizer.resize(image, width: icon.width, height: icon.height, fit: fit)
        var options = ConversionOptions()
        options.maxBytes = icon.maxBytes
        let builder = StickerBuilder(size: .regular, side: icon.width, fitWarnings: [], loopCount: 0)
        return BudgetSearch.encodeStill(fitted, options: options, builder: builder, clock: StageClock()).map(\.bytes)
    }
}
