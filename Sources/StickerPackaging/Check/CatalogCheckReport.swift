/// What `check` found in a sticker catalog (or a sticker pack folder checked on its own).
public struct CatalogCheckReport: Sendable, Codable, Equatable {
    /// The catalog (or pack) as given.
    public var path: String
    /// The pack's `grid-size`, when it has a valid one.
    public var gridSize: String?
    /// One report per sticker, in the pack's order (a `.stickersequence` is one sticker; its path
    /// is the sequence's folder, its bytes the sum of its frames').
    public var stickers: [StickerCheckReport]
    /// Findings about the catalog's structure, each with the path inside the catalog it is about.
    public var findings: [StickerFinding]
    /// Whether the catalog has an iMessage app icon set (nil for a pack checked on its own).
    public var hasIconSet: Bool?

    public init(path: String, gridSize: String?, stickers: [StickerCheckReport], findings: [StickerFinding], hasIconSet: Bool?) {
        self.path = path
        self.gridSize = gridSize
        self.stickers = stickers
        self.findings = findings
        self.hasIconSet = hasIconSet
    }

    /// Errors in the structure and in the stickers.
    public var errors: Int { (findings + stickers.flatMap(\.findings)).filter { $0.severity == .error }.count }
}
