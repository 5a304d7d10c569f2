/// One thing `check` found about a sticker, a pack or a catalog.
public struct StickerFinding: Sendable, Codable, Equatable {
    /// How bad a finding is. Ordered: info < warning < error.
    public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
        /// Facts worth showing (frame count, duration).
        case info
        /// Accepted by Messages but not recommended (GIF, JPEG, odd sizes, opaque).
        case warning
        /// Breaks the contract: Messages or Xcode refuses it, or shows it wrongly.
        case error

        var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
    }

    /// What the finding is about, stable for scripts.
    public enum Code: String, Sendable, Codable, CaseIterable {
        case unreadable, format, square, size, budget, opaque, animation, frameRate = "frame-rate", mixedSizes = "mixed-sizes"
        /// A still that shows practically nothing: no pixel more than 3 % opaque (`NearlyEmptySticker`).
        case nearlyEmpty = "nearly-empty"
        /// Pixels not decoded: decoding them whole would pass the memory one file may use.
        case notDecoded = "not-decoded"
        /// A catalog's Contents.json is missing.
        case missingContents = "missing-contents"
        /// A Contents.json is not valid JSON.
        case invalidJSON = "invalid-json"
        /// A key of a Contents.json is missing, of the wrong type, or holds a value Xcode does not know.
        case badKey = "bad-key"
        /// A file or folder a Contents.json lists is not there.
        case missingFile = "missing-file"
        /// A sticker folder the pack does not list, or a file its folder's Contents.json does not.
        case unlisted
        /// A sticker listed twice, or an icon slot filled twice.
        case duplicate
        /// Something in a pack that is not a sticker.
        case notASticker = "not-a-sticker"
        /// A sticker whose pixel size is not its pack's grid size.
        case gridSize = "grid-size"
        /// The catalog has no sticker pack, or more than one.
        case pack
        /// The catalog has no iMessage app icon set.
        case noIconSet = "no-icon-set"
        /// An icon slot of Apple's table has no image.
        case iconMissing = "icon-missing"
        /// An icon's pixel size is not its slot's.
        case iconSize = "icon-size"
        /// An icon has transparent pixels (app icons must be opaque).
        case iconOpaque = "icon-opaque"
        /// An icon set entry that is no slot of the iMessage app icon.
        case iconUnknown = "icon-unknown"
        /// A WhatsApp pack with fewer or more stickers than WhatsApp takes.
        case stickerCount = "sticker-count"
        /// A WhatsApp pack holding both stills and animations.
        case mixedKinds = "mixed-kinds"
        /// A WhatsApp pack's title or author missing, empty, not one line of UTF-8, or too long.
        case packText = "pack-text"
    }

    public var severity: Severity
    public var code: Code
    /// One line for people, naming the offending values.
    public var message: String
    /// The file or folder the finding is about, for findings inside a catalog (the catalog's
    /// path as given, then the path inside it); nil when it is the checked file itself.
    public var path: String?

    public init(_ severity: Severity, _ code: Code, _ message: String, path: String? = nil) {
        self.severity = severity
        self.code = code
        self.message = message
        self.path = path
    }
}
