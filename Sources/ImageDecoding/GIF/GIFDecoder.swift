import ImageCore

/// Decodes GIF files. (Stub: implemented in its own change.)
public enum GIFDecoder {
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        throw ImageError.unsupported(.gif, "decoder not implemented yet")
    }
}
