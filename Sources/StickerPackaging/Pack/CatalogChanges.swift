/// What writing a catalog did: every sticker of the pack with what became of it (in the pack's
/// order, then those removed), the stickers named otherwise than their source, and what the
/// user should know.
public struct CatalogChanges: Sendable, Equatable, Encodable {
    /// What became of one sticker folder.
    public enum Outcome: String, Sendable, Codable {
        /// Made from an input, new in the catalog.
        case added
        /// Made from an input, in place of the sticker stickerkit made before.
        case replaced
        /// Made from an input; the catalog already held exactly this sticker.
        case unchanged
        /// Made by stickerkit before, but edited since: kept as it is.
        case keptEdited = "kept-edited"
        /// Made by stickerkit before from an input not given this time: kept (pruning removes it).
        case keptWithoutInput = "kept-without-input"
        /// Made by stickerkit before from an input that failed this time: kept as it was.
        case keptInputFailed = "kept-input-failed"
        /// Not made by stickerkit: kept as it is.
        case keptHandMade = "kept-hand-made"
        /// Made by stickerkit before from an input not given this time, and pruned.
        case removed
    }

    /// One sticker folder of the pack.
    public struct Entry: Sendable, Equatable, Encodable {
        /// "Cat.sticker".
        public var folder: String
        /// What stickerkit made it from, when it did.
        public var source: String?
        public var outcome: Outcome
        /// Its accessibility label, for the stickers made in this run.
        public var label: String?
    }

    /// The pack's folder in the catalog ("Sticker Pack.stickerpack").
    public var packFolder: String
    /// The pack's stickers in order, then the removed ones.
    public var entries: [Entry]
    /// Stickers named otherwise than their source asked.
    public var renames: [CatalogRename]
    public var warnings: [CatalogWarning]
    /// Whether the icon set was written by this run.
    public var iconSetWritten: Bool
    /// Whether the icon set written holds the same files, byte for byte, as the catalog's before.
    public var iconSetUnchanged = false

    /// How many entries had `outcome`.
    public func count(_ outcome: Outcome) -> Int { entries.filter { $0.outcome == outcome }.count }

    /// Stickers stickerkit made in earlier runs and kept as they are this time (edited since,
    /// their input not given, or failed).
    public var keptFromEarlierRuns: Int { count(.keptWithoutInput) + count(.keptEdited) + count(.keptInputFailed) }

    /// Stickers the pack holds after the write (every entry not removed).
    public var stickerCount: Int { entries.count - count(.removed) }
}
