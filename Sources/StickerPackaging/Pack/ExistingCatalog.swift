import Foundation

/// A sticker catalog already on disk, as much of it as an update needs: its pack (grid size,
/// listed stickers, sticker folders present), its icon sets and stickerkit's record.
struct ExistingCatalog {
    let url: URL
    /// The sticker pack folder: the one the record names, else "Sticker Pack.stickerpack", else
    /// the only pack there is; "Sticker Pack.stickerpack" (to be made) when there is none.
    let packFolder: String
    /// Contents.json's `grid-size`, if the pack has one.
    let gridSize: String?
    /// Folder names in the pack's Contents.json order (some may be missing on disk).
    let listed: [String]
    /// `.sticker` and `.stickersequence` folders present in the pack.
    let onDisk: [String]
    let record: CatalogRecord?
    /// `.stickersiconset` folders at the catalog's root.
    let iconSets: [String]

    init(_ url: URL) throws {
        let fm = FileManager.default
        self.url = url
        record = try CatalogRecord.read(in: url)
        let names = ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
        let packs = names.filter { $0.hasSuffix(".stickerpack") && CatalogFiles.isFolder(url.appendingPathComponent($0)) }
        iconSets = names.filter { $0.hasSuffix(".stickersiconset") && CatalogFiles.isFolder(url.appendingPathComponent($0)) }
        if let r = record, packs.contains(r.pack) {
            packFolder = r.pack
        } else if packs.contains(StickerCatalog.packFolderName) || packs.count != 1 {
            packFolder = StickerCatalog.packFolderName
        } else {
            packFolder = packs[0]
        }
        let pack = url.appendingPathComponent(packFolder)
        onDisk = ((try? fm.contentsOfDirectory(atPath: pack.path)) ?? [])
            .filter { ($0.hasSuffix(".sticker") || $0.hasSuffix(".stickersequence")) && CatalogFiles.isFolder(pack.appendingPathComponent($0)) }
            .sorted(by: StickerNaming.precedes)
        let contents = pack.appendingPathComponent("Contents.json")
        let read = BoundedRead.of(contents, limit: BoundedRead.maxJSONBytes)
        if case .tooLarge(let size) = read {
            throw PackError.unreadableCatalogFile(path: contents.path, reason: BoundedRead.jsonTooLarge(size))
        }
        if let data = read.bytes.map({ Data($0) }) {
            do {
                let decoded = try JSONDecoder().decode(PackListing.self, from: data)
                gridSize = decoded.properties?.gridSize
                listed = decoded.stickers?.map(\.filename) ?? []
            } catch {
                throw PackError.unreadableCatalogFile(path: contents.path, reason: CatalogFiles.jsonReason(error))
            }
        } else {
            gridSize = nil
            listed = []
        }
    }

    /// The parts of a pack's Contents.json an update reads; every key optional, as Xcode's own
    /// template starts without stickers.
    private struct PackListing: Decodable {
        struct Properties: Decodable {
            var gridSize: String?
            enum CodingKeys: String, CodingKey { case gridSize = "grid-size" }
        }
        var properties: Properties?
        var stickers: [CatalogContents.FileReference]?
    }

    /// The folders of the pack that stickerkit made and the user renamed since (Xcode renames a
    /// sticker's folder only): for each recorded folder that is gone, the one folder no record
    /// names whose digest is the recorded one (by `StickerFolderDigest`, which leaves the
    /// folder's name out), keyed by its new name, with its recorded digest (the plan upgrades an
    /// earlier version's, as for every recorded folder). Each folder not recorded is digested
    /// once per hash the gone folders' digests were made with.
    func renamed() -> [String: CatalogRecord.Sticker] {
        guard let record, record.pack == packFolder else { return [:] }
        let present = Set(onDisk)
        let gone = record.stickers.filter { !present.contains($0.folder) }
        guard !gone.isEmpty else { return [:] }
        let recordedNames = Set(record.stickers.map(\.folder))
        let hashes = Set(gone.map { StickerFolderDigest.Hash(recorded: $0.digest) })
        var byDigest: [String: [String]] = [:]
        let pack = url.appendingPathComponent(packFolder)
        for f in onDisk where !recordedNames.contains(f) {
            for hash in hashes {
                if let d = StickerFolderDigest.of(folder: pack.appendingPathComponent(f), hash: hash) { byDigest[d, default: []].append(f) }
            }
        }
        var found: [String: CatalogRecord.Sticker] = [:]
        for r in gone {
            let kind = (r.folder as NSString).pathExtension
            guard let f = byDigest[r.digest]?.first(where: { found[$0] == nil && ($0 as NSString).pathExtension == kind }) else { continue }
            var moved = r
            moved.folder = f
            found[f] = moved
        }
        return found
    }

    /// The SHA-256 digest of a sticker folder of the pack when it still matches its `recorded`
    /// digest (SHA-256, or FNV-1a from an earlier version); nil when it was edited since.
    func unchangedDigest(of folder: String, recorded: String) -> String? {
        StickerFolderDigest.unchanged(folder: url.appendingPathComponent(packFolder).appendingPathComponent(folder), recorded: recorded)
    }
}
