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
    /// or the frames differ in size. Holds one decoded frame at a time (`SequenceFrames`).
    public static func apng(frames: [[UInt8]], durationMs: Double, loopCount: Int) throws -> [UInt8] {
        guard let file = frames.first else { return [] }
        let first = try Artwork.firstFrame(file)
        // Exact when the duration is whole milliseconds: 250 ms over 3 frames is 1/12 s each.
        let each = Delay(numerator: max(1, Int(durationMs.rounded())), denominator: 1000 * frames.count)
        // Decoded again on each of the encoder's walks: one frame held at a time.
        return try PNGEncoder.encodeAnimation(truecolor: SequenceFrames(files: frames, width: first.width, height: first.height),
                                              delays: Array(repeating: each, count: frames.count), loopCount: loopCount,
                                              effort: .fast, alwaysAnimated: frames.count > 1)
    }
}
