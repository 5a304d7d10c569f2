/// What to do with an animation longer than its platform allows (`StickerTarget.maxDurationMs`).
/// Whatever is chosen is said in the sticker's report; nothing is shortened silently.
public enum TooLongPolicy: String, Sendable, Hashable, CaseIterable, Codable {
    /// Play the whole animation faster, so that one loop takes exactly the limit (then thin frames
    /// to the platform's frame rate). The default: every frame of the artwork is still seen.
    case speedup
    /// Keep the start, up to the limit, at the original speed.
    case trim
    /// Write nothing for it; report the duration and the limit.
    case fail
}
