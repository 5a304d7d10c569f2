/// What `check` found in a WhatsApp pack archive (`.wastickers`, `WastickersChecker`).
public struct WastickersCheckReport: Sendable, Codable, Equatable {
    /// The archive as given.
    public var path: String
    /// The pack's title and author (`title.txt`, `author.txt`), when they could be read.
    public var title: String?
    public var author: String?
    /// One report per sticker, in the archive's order; each path is the archive's, then the
    /// entry's name.
    public var stickers: [StickerCheckReport]
    /// The tray icon's report, when the archive has one.
    public var tray: StickerCheckReport?
    /// Findings about the pack as a whole and about entries that are no sticker, each with the
    /// path it is about.
    public var findings: [StickerFinding]

    public init(path: String, title: String?, author: String?, stickers: [StickerCheckReport], tray: StickerCheckReport?,
                findings: [StickerFinding]) {
        self.path = path
        self.title = title
        self.author = author
        self.stickers = stickers
        self.tray = tray
        self.findings = findings
    }

    /// Every finding: the pack's, its stickers' and its tray icon's.
    public var allFindings: [StickerFinding] { findings + stickers.flatMap(\.findings) + (tray?.findings ?? []) }
}
