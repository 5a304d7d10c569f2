import ImageCore
import ImageDecoding

/// Artwork read outside a conversion: which format a file holds, and its first frame (for app
/// icons, contact sheets and folders of still frames).
public enum Artwork {
    /// The format of `bytes`, from their first bytes (never from a file name), or nil when they
    /// are no image StickerKit reads. Sixteen bytes are enough.
    public static func format(of bytes: [UInt8]) -> ImageFormat? {
        ImageDecoder.sniff(bytes)
    }

    /// The first frame of the image file in `bytes` at full size, decoded as a conversion decodes
    /// it; later frames are not decoded. Throws `ImageError` when the bytes are no image, are
    /// damaged, or exceed `limits`.
    public static func firstFrame(_ bytes: [UInt8], limits: Limits = .default) throws -> Image {
        try ImageDecoder.decode(bytes, options: DecodeOptions(limits: limits, firstFrameOnly: true)).animation.frames[0].image
    }
}
