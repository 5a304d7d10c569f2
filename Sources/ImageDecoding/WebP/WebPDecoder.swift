import ImageCore

/// Decodes WebP files. (Stub: implemented in its own change.)
public enum WebPDecoder {
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        throw ImageError.unsupported(.webp, "decoder not implemented yet")
    }
}
