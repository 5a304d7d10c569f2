/// What `check` found in a LINE upload archive (`LineSetChecker`; the ZIP `pack --platform line`
/// writes).
public struct LineSetCheckReport: Sendable, Codable, Equatable {
    /// The archive as given.
    public var path: String
    /// One report per sticker, in the archive's order; each path is the archive's, then the
    /// entry's name.
    public var stickers: [StickerCheckReport]
    /// The reports of the main and chat tab images (`main.png`, `tab.png`) the archive holds.
    public var pictures: [StickerCheckReport]
    /// Findings about the set as a whole and about entries that are no part of it, each with the
    /// path it is about.
    public var findings: [StickerFinding]

    public init(path: String, stickers: [StickerCheckReport], pictures: [StickerCheckReport], findings: [StickerFinding]) {
        self.path = path
        self.stickers = stickers
        self.pictures = pictures
        self.findings = findings
    }

    /// Every finding: the set's, its stickers' and its pictures'.
    public var allFindings: [StickerFinding] { findings + stickers.flatMap(\.findings) + pictures.flatMap(\.findings) }
}
