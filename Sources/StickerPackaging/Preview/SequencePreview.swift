import Foundation
import ImageCore
import PNGEncoding
import StickerKit

/// A `.stickersequence` as one animated PNG, so that a page's `<img>` plays it as Messages does:
/// its frames in order, each shown for the sequence's duration divided evenly, looping as its
/// `repetitions` say. Lossless (the preview shows the frames as they are) and encoded fast.
public enum SequencePreview {
    /// The APNG of the frame files `frames` (PNG bytes, in order), shown over `durationMs` in all
    /// and played `loopCount` times (0: forever). Throws `ImageError` when a frame does not decode
    /// or the frames differ in size.
    public static func apng(frames: [[UInt8]], durationMs: Double, loopCount: Int) throws -> [UInt8] {
        let images = try frames.map { try Artwork.firstFrame($0) }
        guard let first = images.first else { return [] }
        if let other = images.first(where: { $0.width != first.width || $0.height != first.height }) {
            throw ImageError(.png, SequencePreviewError.framesDiffer(firstWidth: first.width, firstHeight: first.height,
                                                                              width: other.width, height: other.height))
        }
        // Exact when the duration is whole milliseconds: 250 ms over 3 frames is 1/12 s each.
        let each = Delay(numerator: max(1, Int(durationMs.rounded())), denominator: 1000 * images.count)
        return try PNGEncoder.encodeAnimation(frames: images, delays: Array(repeating: each, count: images.count),
                                              loopCount: loopCount, effort: .fast, alwaysAnimated: images.count > 1)
    }
}
