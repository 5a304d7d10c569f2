import CLCMS2

/// lcms2 pixel-format words. The `TYPE_*` macros are built with `|` and are not imported into
/// Swift, so they are spelled out here from lcms2.h's bit layout:
/// colour space << 16, flavor << 13, extra channels << 7, channels << 3, bytes per channel.
enum LCMSFormat {
    static let rgba8: cmsUInt32Number = (4 << 16) | (1 << 7) | (3 << 3) | 1           // TYPE_RGBA_8
    /// One gray channel followed by three ignored bytes: gray data stored as RGBA.
    static let grayIn4Bytes: cmsUInt32Number = (3 << 16) | (3 << 7) | (1 << 3) | 1
    static let cmyk8: cmsUInt32Number = (6 << 16) | (4 << 3) | 1                        // TYPE_CMYK_8
    static let cmyk8Inverted: cmsUInt32Number = (6 << 16) | (1 << 13) | (4 << 3) | 1    // TYPE_CMYK_8_REV
}
