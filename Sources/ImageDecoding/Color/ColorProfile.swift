import ImageCore

/// Converts pixels tagged with an embedded ICC profile (or a PNG gAMA) to sRGB.
/// (Stub: implemented with lcms2 in its own change.)
public enum ColorProfile {
    /// Converts `image` in place from the colour space described by `iccProfile` to sRGB.
    /// Returns a note for the user when a conversion happened, nil when the profile is already
    /// sRGB-equivalent. Throws only for a profile that cannot be parsed in strict mode.
    public static func convertToSRGB(_ image: inout Image, iccProfile: [UInt8], format: ImageFormat) throws -> String? {
        nil
    }
}
