import Foundation

/// Which stickers of a catalog stickerkit made, kept in the catalog itself as `.stickerkit.json`
/// beside its root `Contents.json`.
///
/// The record travels with the catalog: it is committed with the Xcode project, so a pack run on
/// any machine, or after a clone, still tells the stickers it made (which it may replace or prune)
/// from those someone made by hand (which it never touches). It is a hidden file because Xcode's
/// asset catalog compiler reads only `Contents.json` and the folders of known types (`.sticker`,
/// `.stickerpack`, …) and passes over dot-files, as it passes over the `.DS_Store` files Finder
/// leaves in every folder; Xcode's navigator does not show it either.
///
/// Each entry holds a digest of what stickerkit wrote (`StickerFolderDigest`): a sticker edited
/// since (a new image, a label changed in Xcode) no longer matches it and is then treated as the
/// user's work, replaced or pruned only when asked (`overwrite`).
struct CatalogRecord: Codable, Equatable, Sendable {
    struct Sticker: Codable, Equatable, Sendable {
        /// The sticker's folder in the pack: "Cat.sticker".
        var folder: String
        /// What it was made from: the input's path relative to the folder holding the catalog.
        var source: String?
        /// `StickerFolderDigest` of the folder as stickerkit wrote it.
        var digest: String
    }

    static let fileName = ".stickerkit.json"

    /// The format of this file.
    var version = 1
    /// The sticker pack folder the entries are in.
    var pack: String
    /// Sorted by folder name.
    var stickers: [Sticker]

    static func read(in catalog: URL) throws -> CatalogRecord? {
        let url = catalog.appendingPathComponent(fileName)
        let read = BoundedRead.of(url, limit: BoundedRead.maxJSONBytes)
        if case .tooLarge(let size) = read { throw PackError.unreadableCatalogFile(path: url.path, reason: BoundedRead.jsonTooLarge(size)) }
        guard let data = read.bytes.map({ Data($0) }) else { return nil }
        do {
            return try JSONDecoder().decode(CatalogRecord.self, from: data)
        } catch {
            throw PackError.unreadableCatalogFile(path: url.path, reason: CatalogFiles.jsonReason(error))
        }
    }

    func write(in catalog: URL) throws {
        try CatalogFiles.writeJSON(self, to: catalog.appendingPathComponent(Self.fileName))
    }
}
