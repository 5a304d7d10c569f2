import ImageCore

/// Decodes PNG files. (Stub: implemented in its own change.)
public enum PNGDecoder {
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        throw ImageError.unsupported(.png, "decoder not implemented yet")
    }
}
