import CLCMS2
import ImageCore

/// An embedded ICC profile opened by lcms2; closes itself.
final class ICCProfile {
    let handle: cmsHPROFILE
    /// The profile's description ("Adobe RGB (1998)"), or "unnamed".
    let name: String
    let colorSpace: cmsColorSpaceSignature

    init(bytes: [UInt8], format: ImageFormat) throws {
        guard bytes.count >= 132, bytes.count <= Int(UInt32.max),
              let h = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }) else {
            throw ImageError(format, ColorProfileError.invalidProfile(bytes: bytes.count))
        }
        handle = h
        colorSpace = cmsGetColorSpace(h)
        var buffer = [CChar](repeating: 0, count: 256)
        let n = cmsGetProfileInfoASCII(h, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
        let text = n > 0 ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let trimmed = text.trimmingCharacters(in: " ")
        name = trimmed.isEmpty ? "unnamed" : trimmed
    }

    deinit { cmsCloseProfile(handle) }

    var colorSpaceName: String {
        switch colorSpace {
        case cmsSigRgbData: "RGB"
        case cmsSigGrayData: "gray"
        case cmsSigCmykData: "CMYK"
        case cmsSigLabData: "Lab"
        case cmsSigXYZData: "XYZ"
        default: "another colour space's"
        }
    }

    /// A transform from this profile to sRGB, or nil when lcms2 cannot build one.
    func transformToSRGB(from input: cmsUInt32Number, to output: cmsUInt32Number) -> cmsHTRANSFORM? {
        guard let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        return cmsCreateTransform(handle, input, srgb, output, cmsUInt32Number(INTENT_PERCEPTUAL), 0)
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set || s.first == "\n" { s = s.dropFirst() }
        while s.last == set || s.last == "\n" { s = s.dropLast() }
        return String(s)
    }
}
