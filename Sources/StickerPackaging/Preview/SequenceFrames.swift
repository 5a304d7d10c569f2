import ImageCore
import StickerKit

/// A sequence's frames decoded from their files on each walk of the encoder, so that its
/// preview holds the files (compressed) and one decoded frame at a time, not every frame.
struct SequenceFrames: FrameSequence {
    /// The frame files (PNG bytes), in order.
    let files: [[UInt8]]
    /// The first frame's size, which every frame must have.
    let width: Int
    let height: Int

    var count: Int { files.count }
    var bytesPerPixel: Int { 4 }

    /// Throws `ImageError` when a frame does not decode or is not the first frame's size.
    func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        for (i, file) in files.enumerated() {
            let image = try Artwork.firstFrame(file)
            guard image.width == width && image.height == height else {
                throw ImageError(.png, SequencePreviewError.framesDiffer(firstWidth: width, firstHeight: height,
                                                                        width: image.width, height: image.height))
            }
            try image.pixels.withUnsafeBytes { try body(i, $0, nil) }
        }
    }
}
