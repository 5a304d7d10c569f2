import StickerKit

/// A WhatsApp sticker pack as a `.wastickers` archive, the file WhatsApp sticker-maker apps
/// import: a ZIP (`StoredZip`) holding the stickers as WebP (`01.webp`, `02.webp`, … in pack
/// order), the tray icon (`tray.png`, 96×96 PNG) and the pack's `title.txt` and `author.txt`
/// (UTF-8, one line). WhatsApp's pack rules: 3 to 30 stickers, all stills or all animations.
/// The archive's comment marks it as stickerkit's (`isStickerkitArchive`), so a rerun may
/// replace it while any other file at that path is kept unless the user says otherwise.
public struct WastickersPack: Sendable {
    /// How many stickers a WhatsApp pack holds.
    public static let stickerRange = 3...30
    /// The longest title and author WhatsApp takes (its sample app's validation: 128 characters).
    public static let maxTextLength = 128
    /// The entries that hold the pack's title and author.
    public static let titleName = "title.txt"
    public static let authorName = "author.txt"
    /// The archive comment that marks an archive stickerkit wrote.
    public static let marker = "stickerkit .wastickers"

    public struct Sticker: Sendable {
        public var webp: [UInt8]
        public var animated: Bool
        public init(webp: [UInt8], animated: Bool) {
            self.webp = webp
            self.animated = animated
        }
    }

    public var title: String
    public var author: String
    public var trayPNG: [UInt8]
    public var stickers: [Sticker]

    public init(title: String, author: String, trayPNG: [UInt8], stickers: [Sticker]) {
        self.title = title
        self.author = author
        self.trayPNG = trayPNG
        self.stickers = stickers
    }

    /// The tray icon's entry name: the file name of WhatsApp's pack picture (`tray.png`).
    public static var trayName: String { StickerTarget.whatsapp.packIcons.first?.fileName ?? "tray.png" }

    /// WhatsApp's pack rules for `count` stickers, `animations` of them animated.
    public static func check(count: Int, animations: Int) throws(WastickersError) {
        if count < stickerRange.lowerBound { throw .tooFewStickers(count) }
        if count > stickerRange.upperBound { throw .tooManyStickers(count) }
        if animations > 0 && animations < count { throw .mixedKinds(stills: count - animations, animations: animations) }
    }

    /// The entry name of the sticker at `index` (0-based): `01.webp`, `02.webp`, …
    public static func stickerName(_ index: Int) -> String {
        (index < 9 ? "0" : "") + "\(index + 1).webp"
    }

    /// The archive's bytes, after the pack rules (`check`).
    public func archive() throws(WastickersError) -> [UInt8] {
        try Self.check(count: stickers.count, animations: stickers.filter(\.animated).count)
        var entries = stickers.enumerated().map { StoredZip.Entry(name: Self.stickerName($0.offset), bytes: $0.element.webp) }
        entries.append(.init(name: Self.trayName, bytes: trayPNG))
        entries.append(.init(name: Self.titleName, bytes: Array(title.utf8)))
        entries.append(.init(name: Self.authorName, bytes: Array(author.utf8)))
        return StoredZip(entries: entries, comment: Self.marker).bytes()
    }

    /// How many of an archive's last bytes `isStickerkitArchive` needs: the end of central
    /// directory record and the longest comment it may carry.
    public static let markerTailBytes = 22 + 0xFFFF

    /// Whether `bytes` are an archive stickerkit wrote (its comment is `marker`), or the last
    /// `markerTailBytes` of one.
    public static func isStickerkitArchive(_ bytes: [UInt8]) -> Bool {
        StoredZip.comment(of: bytes) == marker
    }
}
