import ImageCore

/// Decodes JPEG files. (Stub: implemented in its own change.)
public enum JPEGDecoder {
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        throw ImageError.unsupported(.jpeg, "decoder not implemented yet")
    }
}
