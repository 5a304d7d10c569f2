import Foundation
import StickerKit
import StickerPackaging

/// `pack --report FILE.json`: what became of every sticker of the catalog, every rename and
/// warning, and per input what was read and converted (as `resize --report` writes it).
struct PackReport: Encodable {
    struct Summary: Encodable {
        var stickers: Int
        var added: Int
        var replaced: Int
        var unchanged: Int
        var removed: Int
        var keptHandMade: Int
        var keptByStickerkit: Int
        var inputs: Int
        var frameFolders: Int
        var converted: Int
        var upToDate: Int
        var failed: Int
        var iconSetWritten: Bool
        var seconds: Double
    }

    var version = 1
    var catalog: String
    var gridSize: StickerSize
    var maxBytes: Int
    var stickers: [CatalogChanges.Entry]
    var renames: [CatalogRename]
    /// Every warning, as printed.
    var warnings: [String]
    var inputs: [BatchReport.File]
    var summary: Summary
}
