import ImageCore
import ImageDecoding
import ImageResize

/// Makes a platform's pack picture (one of `StickerTarget.packIcons`) from one image: the whole
/// artwork fitted with its aspect into the `width × height` box (transparent padding), then
/// Messages' still budget search at the picture's byte cap (lossless whenever it fits, which a
/// picture this small nearly always does). A square box is `Resizer.fit`'s square (the stickers'
/// geometry); a rectangle (LINE's 96×74 tab) is `Resizer.resize`, the same exact area average
/// when reducing.
public enum PackIconRenderer {
    /// The files of `target`'s pack pictures (`StickerTarget.packIcons`, in order) from the image
    /// file `data`: a picture that animates (`PackIcon.animates`), from an animated `data`
    /// (`isAnimation(file:)`), is an animation made as `target` makes its animated stickers (an
    /// APNG for LINE, a WebM for Telegram), on the picture's square and within its cap
    /// (`StickerTarget.animationTarget(for:)`); every other is the still PNG of the first frame
    /// (`render(_:icon:fit:)`), decoded once for all of them: by rows when the file allows, else
    /// whole within `limits.maxMemory`, a JPEG reduced as far as the largest picture allows
    /// (`Artwork.firstFrame(_:forPictures:fit:limits:)`). Throws `ImageError` when `data` does
    /// not decode or its decode would pass the memory budget.
    public static func render(file data: [UInt8], target: StickerTarget, fit: FitMode = .contain,
                              limits: Limits = .default) throws -> [Result<[UInt8], StickerError>] {
        let animated = isAnimation(file: data)
        // The stills, all from one decode: by rows when the file allows (never held whole).
        let stills = target.packIcons.filter { !($0.animates && animated) }
        var fitted: [Int: Image] = [:]
        if !stills.isEmpty, let rows = try Artwork.resizedByRows(data, targets: stills.map { resize($0, fit: fit) }, limits: limits) {
            for k in stills.indices { fitted[k] = rows.images[k] }
        }
        var firstFrame: Image? = nil
        let largest = (width: target.packIcons.map(\.width).max() ?? 0, height: target.packIcons.map(\.height).max() ?? 0)
        var still = 0
        return try target.packIcons.map { icon in
            if icon.animates && animated {
                var options = ConversionOptions()
                options.target = target.animationTarget(for: icon)
                options.fit = fit
                options.limits = limits
                // A platform conversion makes exactly one sticker.
                return try StickerConverter.convert(data, options: options).outputs[0].result.map(\.bytes)
            }
            defer { still += 1 }
            if let image = fitted[still] { return encode(image, icon: icon, allowsGray: target.allowsGrayPNG) }
            let image = try firstFrame ?? Artwork.firstFrame(data, forPictures: largest, fit: fit, limits: limits).image
            firstFrame = image
            return render(image, icon: icon, fit: fit, allowsGray: target.allowsGrayPNG)
        }
    }

    /// Whether the image file `data` is an animation by its structure (more than one frame, or
    /// an APNG), whose pictures that animate are animations: named by
    /// `StickerTarget.fileName(of:animated:)` with this answer.
    public static func isAnimation(file data: [UInt8]) -> Bool {
        data.withUnsafeBytes { ImageOutline.read($0) }.map { $0.frameCount > 1 || $0.format == .apng } ?? false
    }

    /// The PNG file of `icon` from `image`, or why it cannot fit.
    /// Without `allowsGray`, never a gray PNG (`StickerTarget.allowsGrayPNG`).
    public static func render(_ image: Image, icon: PackIcon, fit: FitMode = .contain,
                              allowsGray: Bool = true) -> Result<[UInt8], StickerError> {
        switch resize(icon, fit: fit) {
        case .square(let options):
            return encode(Resizer.fit(Animation(still: image), options: options).animation.frames[0].image, icon: icon,
                          allowsGray: allowsGray)
        case let .rectangle(width, height, fit, _):
            return encode(Resizer.resize(image, width: width, height: height, fit: fit), icon: icon, allowsGray: allowsGray)
        }
    }

    /// How `render(_:icon:fit:)` resizes an image for `icon`.
    static func resize(_ icon: PackIcon, fit: FitMode) -> ArtworkResize {
        icon.width == icon.height ? .square(FitOptions(size: icon.width, fit: fit))
            : .rectangle(width: icon.width, height: icon.height, fit: fit, background: nil)
    }

    /// The PNG file of `icon` from its `fitted` image, or why it cannot fit.
    private static func encode(_ fitted: Image, icon: PackIcon, allowsGray: Bool) -> Result<[UInt8], StickerError> {
        var options = ConversionOptions()
        options.maxBytes = icon.maxBytes
        options.target.allowsGrayPNG = allowsGray
        let builder = StickerBuilder(size: .regular, side: icon.width, fitWarnings: [], loopCount: 0)
        return BudgetSearch.encodeStill(fitted, options: options, builder: builder, clock: StageClock()).map(\.bytes)
    }
}
