/// The quality a codec is asked for: the one knob the budget search turns, whatever the codec.
///
/// Per codec (`StickerCodec.qualityLevels` gives each range):
/// - PNG/APNG: only `.lossless`. PNG's quality lives upstream, in how many colours the quantizer
///   keeps; the frames arrive already quantized (`StickerFrames.Pixels.indexed`) or truecolour.
/// - WebP: `.lossless` (VP8L), or `.level(q)` with q in 0…100, libwebp's lossy `quality`.
/// - WebM (VP9): `.level(q)` with q in 0…63, meaning quantizer level (`cq_level`) 63 − q, so that
///   here too a higher level is better and larger. VP9 in 4:2:0 has no lossless form.
///
/// For every lossy codec the file size grows with the level on nearly every input (not strictly:
/// a search bisecting it must keep the best level that was seen to fit, not assume monotony).
public enum EncodeQuality: Hashable, Sendable {
    case lossless
    case level(Int)
}
