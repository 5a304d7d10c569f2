/// One sticker of a catalog: already-encoded bytes (a PNG/APNG/GIF/JPEG `.sticker`) or a
/// sequence of still frames (a `.stickersequence`), held in memory or read from files when the
/// catalog is written.
public struct CatalogSticker: Sendable, Equatable {
    /// What the sticker is made of.
    public enum Content: Sendable, Equatable {
        /// One file; `fileExtension` without the dot ("png").
        case file(bytes: [UInt8], fileExtension: String)
        /// Still PNG frames played at `fps`, `repetitions` extra times after the first (0 = forever).
        case sequence(frames: [[UInt8]], fps: Double, repetitions: Int)
        /// One file on disk (e.g. a conversion cache's), read only while the catalog is written:
        /// a catalog of many stickers holds one sticker's bytes at a time.
        case storedFile(path: String, fileExtension: String)
        /// Still PNG frames on disk, in order, played as `sequence`'s are; read as `storedFile`.
        case storedSequence(framePaths: [String], fps: Double, repetitions: Int)

        /// The folder extension Xcode knows this content by: "sticker" or "stickersequence".
        var folderExtension: String {
            switch self {
            case .sequence, .storedSequence: "stickersequence"
            case .file, .storedFile: "sticker"
            }
        }
    }

    /// The sticker's name; its folder is `StickerNaming.safeName(name)` + `.sticker` or
    /// `.stickersequence`, made unique ignoring case (the catalog reports every rename).
    public var name: String
    /// The VoiceOver label; nil lets Messages use the sticker's name.
    public var label: String?
    /// Its file or frames.
    public var content: Content
    /// What the sticker was made from (an input path), recorded in the catalog so that a later
    /// update knows which sticker each input made. nil for a sticker with no source to remember.
    public var source: String?
    /// The sticker's place among the stickers stickerkit makes (e.g. its row in the labels
    /// file); stickers with a rank come first by rank, the others follow in natural order.
    public var rank: Int?

    /// A sticker named `name`, read aloud as `label`.
    public init(name: String, label: String?, content: Content, source: String? = nil, rank: Int? = nil) {
        self.name = name
        self.label = label
        self.content = content
        self.source = source
        self.rank = rank
    }
}
