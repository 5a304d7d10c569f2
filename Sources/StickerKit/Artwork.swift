import ImageCore
import ImageDecoding
import ImageResize

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

    /// The still in `bytes` resized to each of `targets` (the pixels `Resizer.fit` or
    /// `Resizer.resize` make of `firstFrame(bytes)`), decoded row by row into one resizer per
    /// target so that the image is never held whole: each keeps only the window of source rows
    /// its output rows read. With the source's size. Nil when the file is not a still that
    /// decodes by rows (`ImageDecoder.decodeRows` decides: an animation, an interlaced PNG or a
    /// JPEG turned by EXIF does not) or a target is empty: decode it whole. Throws `ImageError`
    /// as `firstFrame` does.
    public static func resizedByRows(_ bytes: [UInt8], targets: [ArtworkResize],
                                     limits: Limits = .default) throws -> (width: Int, height: Int, images: [Image])? {
        var resizers: [RowFitter] = []
        var empty = false
        let info = try ImageDecoder.decodeRows(bytes, options: DecodeOptions(limits: limits), start: { w, h in
            for target in targets {
                guard let r = target.rowResizer(canvasWidth: w, canvasHeight: h) else { empty = true; return }
                resizers.append(r)
            }
        }, row: { pixels, y in
            if !empty { for r in resizers { r.add(row: pixels, y: y) } }
        })
        guard let info, !empty else { return nil }
        return (info.width, info.height, resizers.map { $0.finish() })
    }
}
