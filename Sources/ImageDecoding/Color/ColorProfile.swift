import CLCMS2
import ImageCore

/// Converts pixels tagged with an embedded ICC profile to sRGB with lcms2.
///
/// Stickers are shown as sRGB, so a photo tagged "Adobe RGB (1998)" must be converted or it looks
/// dull. Alpha is never touched.
enum ColorProfile {
    /// Converts `image` in place from the colour space described by `iccProfile` to sRGB
    /// (perceptual intent, which lcms2 turns into relative colorimetric for matrix profiles).
    ///
    /// Returns a one-line note for the user when pixels changed; nil, without touching the
    /// pixels, when the profile behaves like sRGB. An RGB profile converts RGBA data; a gray
    /// profile converts gray data stored as RGBA with r == g == b (the red channel is read).
    /// A profile for another colour space (CMYK, Lab…) is ignored with a note.
    /// Throws `ImageError` (`ColorProfileError`) for a profile lcms2 cannot use; lenient callers may
    /// ignore it.
    static func convertToSRGB(_ image: inout Image, iccProfile: [UInt8], format: ImageFormat) throws -> String? {
        try convert(&image, iccProfile: iccProfile, format: format).note
    }

    /// The one rule for an embedded profile on RGB or gray pixels, which can be read without
    /// it: convert with it; when it is broken (unreadable, damaged, or lcms2 builds no transform
    /// from it), use the pixels as sRGB — what the PNG, JPEG and WebP specifications say to
    /// assume without a profile — and say so. Strict decoding included: the image is whole,
    /// only its colours are uncertain. (CMYK pixels need their profile: `cmykToSRGB`.)
    static func convertOrIgnore(_ image: inout Image, iccProfile: [UInt8], format: ImageFormat) -> ColorProfileOutcome {
        let conversion = rgbConversion(iccProfile: iccProfile, format: format, isGray: { image.isGray })
        conversion.apply(to: &image)
        return conversion.outcome
    }

    /// The note for a profile that is ignored because of `problem`.
    static func ignoredNote(_ problem: any ImageErrorReason) -> String {
        "ignored: \(problem.message); colours used as sRGB"
    }

    /// `convertOrIgnore` decided before the pixels exist, for a decoder that converts rows as
    /// they come: the outcome (and note) and the conversion to run on every pixel. `isGray` is
    /// asked only for a gray profile (which converts gray data only).
    static func rgbConversion(iccProfile: [UInt8], format: ImageFormat, isGray: () -> Bool) -> ColorConversion {
        do {
            return try conversion(iccProfile: iccProfile, format: format, isGray: isGray)
        } catch let error as ImageError {
            return ColorConversion(outcome: .ignored(note: ignoredNote(error.reason)))
        } catch {
            return ColorConversion(outcome: .ignored(note: "ignored the embedded ICC profile (\(error)); colours used as sRGB"))
        }
    }

    private static func convert(_ image: inout Image, iccProfile: [UInt8], format: ImageFormat) throws -> ColorProfileOutcome {
        let conversion = try conversion(iccProfile: iccProfile, format: format, isGray: { image.isGray })
        conversion.apply(to: &image)
        return conversion.outcome
    }

    private static func conversion(iccProfile: [UInt8], format: ImageFormat, isGray: () -> Bool) throws -> ColorConversion {
        let profile = try ICCProfile(bytes: iccProfile, format: format)
        let inputFormat: cmsUInt32Number
        switch profile.colorSpace {
        case cmsSigRgbData: inputFormat = LCMSFormat.rgba8
        case cmsSigGrayData:
            // Reading only the red channel of a colour image would throw its colour away.
            guard isGray() else {
                return ColorConversion(outcome: .ignored(note: "ignored embedded ICC profile '\(profile.name)': it describes gray data, the image has colour"))
            }
            inputFormat = LCMSFormat.grayIn4Bytes
        default:
            return ColorConversion(outcome: .ignored(note: "ignored embedded ICC profile '\(profile.name)': it describes \(profile.colorSpaceName) data, the image is RGB"))
        }
        guard let transform = profile.transformToSRGB(from: inputFormat, to: LCMSFormat.rgba8) else {
            throw ImageError(format, ColorProfileError.notConvertible(name: profile.name, bytes: iccProfile.count))
        }
        if isIdentity(transform, grayInput: profile.colorSpace == cmsSigGrayData) {
            cmsDeleteTransform(transform)
            return ColorConversion(outcome: .unchanged)
        }
        return ColorConversion(outcome: .converted(note: "converted from embedded ICC profile '\(profile.name)' to sRGB"),
                               transform: transform)
    }

    /// Converts `pixelCount` CMYK pixels (4 bytes each) to opaque sRGB RGBA.
    ///
    /// `inverted` is true for Adobe-style CMYK (255 = no ink), which is what Photoshop writes and
    /// libjpeg returns for files with an Adobe marker. With a CMYK profile lcms2 does the work;
    /// without one, or with a profile for another colour space, a naive conversion
    /// `R = (1 − C)(1 − K)` is used. CMYK pixels need their profile to be read at all, so a
    /// broken one (`problem`: found before, such as chunks that do not make one profile; or one
    /// lcms2 cannot open) fails strict decoding; lenient decoding falls back to the naive
    /// conversion, saying so.
    /// - Returns: the RGBA bytes and a note for the user.
    static func cmykToSRGB(_ cmyk: UnsafePointer<UInt8>, pixelCount: Int, inverted: Bool,
                           iccProfile: [UInt8]?, problem: ImageError? = nil, format: ImageFormat,
                           lenient: Bool) throws -> (pixels: [UInt8], note: String) {
        let conversion = try cmykConversion(inverted: inverted, iccProfile: iccProfile, problem: problem, format: format,
                                            lenient: lenient)
        var out = [UInt8](repeating: 255, count: pixelCount * 4)
        out.withUnsafeMutableBufferPointer { o in
            guard let base = o.baseAddress else { return }
            conversion.convertCMYK(cmyk, base, pixelCount: pixelCount)
        }
        return (out, conversion.outcome.note!)
    }

    /// `cmykToSRGB` decided before the pixels exist (see there), for a decoder that converts
    /// rows as they come; its outcome carries the note.
    static func cmykConversion(inverted: Bool, iccProfile: [UInt8]?, problem: ImageError? = nil, format: ImageFormat,
                               lenient: Bool) throws -> ColorConversion {
        var profileProblem: String?
        if let problem {
            if !lenient { throw problem }
            profileProblem = problem.message
        } else if let iccProfile {
            do {
                let profile = try ICCProfile(bytes: iccProfile, format: format)
                if profile.colorSpace == cmsSigCmykData,
                   let transform = profile.transformToSRGB(from: inverted ? LCMSFormat.cmyk8Inverted : LCMSFormat.cmyk8,
                                                           to: LCMSFormat.rgba8) {
                    return ColorConversion(outcome: .converted(note: "converted CMYK with embedded ICC profile '\(profile.name)' to sRGB"),
                                           transform: transform)
                }
                profileProblem = "embedded ICC profile '\(profile.name)' describes \(profile.colorSpaceName) data, not CMYK"
            } catch let error as ImageError {
                if !lenient { throw error }
                profileProblem = error.message
            }
        }
        let note = profileProblem.map { "converted CMYK to sRGB with a naive formula (\($0))" }
            ?? "converted CMYK to sRGB with a naive formula (no embedded ICC profile)"
        return ColorConversion(outcome: .converted(note: note), naiveCMYKInverted: inverted)
    }

    /// True when the transform leaves a spread of colours within ±1, i.e. the profile is sRGB
    /// (whatever its name or byte layout), so converting would only cost time.
    static func isIdentity(_ transform: cmsHTRANSFORM, grayInput: Bool) -> Bool {
        let levels: [UInt8] = [0, 17, 64, 128, 190, 255]
        var samples: [UInt8] = []
        for r in levels {
            for g in levels {
                for b in levels {
                    samples += grayInput ? [r, r, r, 255] : [r, g, b, 255]
                    if grayInput { break }
                }
                if grayInput { break }
            }
        }
        var out = [UInt8](repeating: 0, count: samples.count)
        cmsDoTransform(transform, samples, &out, cmsUInt32Number(samples.count / 4))
        var i = 0
        while i < samples.count {
            for c in 0..<3 where abs(Int(out[i + c]) - Int(samples[i + c])) > 1 { return false }
            i += 4
        }
        return true
    }

    /// Runs `transform` over RGBA bytes in place; lcms2 handles identical input and output
    /// buffers when both formats have the same pixel size, and leaves the alpha byte alone
    /// because the transform is created without `cmsFLAGS_COPY_ALPHA`.
    static func transformInPlace(_ transform: cmsHTRANSFORM, _ pixels: UnsafeMutablePointer<UInt8>,
                                 pixelCount: Int, bytesPerPixel: Int) {
        // cmsDoTransform takes a 32-bit count: go in slices.
        let slice = 1 << 20
        var start = 0
        while start < pixelCount {
            let n = min(slice, pixelCount - start)
            let p = pixels + start * bytesPerPixel
            cmsDoTransform(transform, p, p, cmsUInt32Number(n))
            start += n
        }
    }

    static func transformRows(_ transform: cmsHTRANSFORM, input: UnsafePointer<UInt8>,
                              output: UnsafeMutablePointer<UInt8>, pixelCount: Int) {
        let slice = 1 << 20
        var start = 0
        while start < pixelCount {
            let n = min(slice, pixelCount - start)
            cmsDoTransform(transform, input + start * 4, output + start * 4, cmsUInt32Number(n))
            start += n
        }
    }

    /// `R = (255 − C)(255 − K) / 255`; with inverted (Adobe) data the stored bytes already are
    /// `255 − C` and `255 − K`. Alpha is set to 255.
    static func naiveCMYKToRGBA(_ cmyk: UnsafePointer<UInt8>, _ rgba: UnsafeMutablePointer<UInt8>,
                                pixelCount: Int, inverted: Bool) {
        let flip: UInt32 = inverted ? 0 : 255
        var i = 0
        while i < pixelCount {
            let s = cmyk + i * 4
            let c = UInt32(s[0]) ^ flip, m = UInt32(s[1]) ^ flip, y = UInt32(s[2]) ^ flip, k = UInt32(s[3]) ^ flip
            let d = rgba + i * 4
            d[0] = UInt8(truncatingIfNeeded: (c * k + 127) / 255)
            d[1] = UInt8(truncatingIfNeeded: (m * k + 127) / 255)
            d[2] = UInt8(truncatingIfNeeded: (y * k + 127) / 255)
            d[3] = 255
            i += 1
        }
    }
}
