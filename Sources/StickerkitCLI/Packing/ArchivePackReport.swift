import Foundation
import StickerKit

/// `pack --platform whatsapp|line --report FILE.json`: the archive written, which input each of
/// its stickers came from, every warning, and per input what was read and converted (as `resize
/// --report` writes it; a sticker taken from the cache as it was has no new measurements, one
/// kept as it is from a pack stickerkit wrote for the same app is `skipped` with that reason).
struct ArchivePackReport: Encodable {
    struct Sticker: Encodable {
        /// The archive's entry (`01.webp`, `01.png`, …).
        var entry: String
        var input: String
    }

    struct Summary: Encodable {
        var stickers: Int
        var inputs: Int
        var converted: Int
        var upToDate: Int
        /// Stickers kept as they are from packs stickerkit wrote for the same app.
        var kept: Int
        var failed: Int
        /// The archive's bytes, and whether the file at `-o` already held exactly them.
        var bytes: Int
        var unchanged: Bool
        var seconds: Double
    }

    var version = 1
    var archive: String
    var platform: String
    var maxBytes: Int
    var stickers: [Sticker]
    /// Where the pack's pictures (WhatsApp's tray icon, LINE's main and chat tab images) came from.
    var picturesFrom: String
    /// Every warning, as printed.
    var warnings: [String]
    var inputs: [BatchReport.File]
    var summary: Summary
}
