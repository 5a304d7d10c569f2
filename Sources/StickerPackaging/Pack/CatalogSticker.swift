import StickerKit
/// One sticker of a catalog: already-encoded bytes (a PNG/APNG/GIF/JPEG `.sticker`) or a
/// sequence of still frames (a `.stickersequence`).
public struct CatalogSticker: Sendable, Equatable {
    /// What the sticker is made of.
    public enum Content: Sendable, Equatable {
        /// One file; `fileExtension` without the dot ("png").
        case file(bytes: [UInt8], fileExtension: String)
        /// Still PNG frames played at `fps`, `repetitions` extra times after the first (0 = forever).
        case sequence(frames: [[UInt8]], fps: Double, repetitions: Int)
    }

    /// The sticker's name; its folder is `StickerNaming.safeName(name)` + `.sticker` or
    /// `.stickersequence` (made unique ignoring case).
    public var name: String
    /// The VoiceOver label; nil lets Messages use the sticker's name.
    public var label: String?
    /// Its file or frames.
    public var content: Content

    /// A sticker named `name`, read aloud as `label`.
    public init(name: String, label: String?, content: Content) {
        self.name = name
        self.label = label
        self.content = content
    }
}
