import CLCMS2
import ImageCore

/// A conversion to sRGB decided once from a file's profile (`ColorProfile`), run over its pixels
/// in any slices: the whole image, or rows as a streaming decode delivers them. lcms2 converts
/// each pixel on its own, so the bytes do not depend on the slicing.
final class ColorConversion {
    /// What the conversion does, with the note for the user.
    let outcome: ColorProfileOutcome
    private let transform: cmsHTRANSFORM?
    /// For CMYK without a usable profile: the naive formula, on inverted (Adobe) data or not.
    private let naiveInverted: Bool?

    /// Nothing to run (`outcome` is unchanged or ignored), or `transform` (owned: deleted with this).
    init(outcome: ColorProfileOutcome, transform: cmsHTRANSFORM? = nil) {
        self.outcome = outcome
        self.transform = transform
        naiveInverted = nil
    }

    /// The naive CMYK formula (`ColorProfile.naiveCMYKToRGBA`).
    init(outcome: ColorProfileOutcome, naiveCMYKInverted inverted: Bool) {
        self.outcome = outcome
        transform = nil
        naiveInverted = inverted
    }

    deinit { if let transform { cmsDeleteTransform(transform) } }

    /// True when RGBA pixels change (`apply` does something).
    var changesPixels: Bool { transform != nil }

    /// Converts `pixelCount` RGBA pixels in place (alpha untouched).
    func apply(_ pixels: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
        guard let transform else { return }
        ColorProfile.transformInPlace(transform, pixels, pixelCount: pixelCount, bytesPerPixel: 4)
    }

    /// `apply` over a whole image.
    func apply(to image: inout Image) {
        guard transform != nil else { return }
        let count = image.width * image.height
        image.pixels.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            apply(base, pixelCount: count)
        }
    }

    /// Converts `pixelCount` CMYK pixels (4 bytes each, as libjpeg gives them) to opaque RGBA.
    func convertCMYK(_ cmyk: UnsafePointer<UInt8>, _ rgba: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
        if let transform {
            ColorProfile.transformRows(transform, input: cmyk, output: rgba, pixelCount: pixelCount)
        } else {
            ColorProfile.naiveCMYKToRGBA(cmyk, rgba, pixelCount: pixelCount, inverted: naiveInverted ?? false)
        }
    }
}
