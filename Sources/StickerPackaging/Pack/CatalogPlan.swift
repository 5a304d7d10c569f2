import Foundation
import StickerKit

/// How a write turns the catalog on disk (if any) and the stickers made from inputs into the new
/// catalog: each sticker's folder name, what becomes of every folder of the pack, the pack's order
/// and the new record. Reads nothing but the digests of the existing sticker folders.
///
/// The rules:
/// - A sticker made from the same source as a recorded one takes that sticker's folder, also one
///   the user renamed (a folder no record names whose digest is a gone folder's is that folder,
///   renamed; its new name is recorded and kept); any other
///   takes its safe name, or that name plus " 2", " 3", … when the name is taken (ignoring case)
///   by a hand-made sticker, by another sticker of this write, or by a recorded sticker whose
///   source is still an input or that was edited. A recorded sticker whose source is no longer an
///   input hands its name over.
/// - A recorded sticker edited since it was written (its digest differs) is the user's work: kept
///   as it is, neither replaced nor pruned, unless `overwrite`. A record written by an earlier
///   version (FNV-1a digests) is compared as it was made and rewritten with SHA-256.
/// - Recorded stickers no input made this time stay, unless `prune`; those whose input failed this
///   time always stay.
/// - Stickers stickerkit made come first, by rank, then in natural order; the hand-made ones follow
///   in the order the pack listed them, then those it did not list. Without ranks, a pack whose
///   order is not that one (set in Xcode, or by an earlier run's labels) keeps its order for the
///   folders it lists, and the others follow.
struct CatalogPlan {
    /// One folder of the new pack.
    struct Folder {
        var name: String
        var source: String?
        var outcome: CatalogChanges.Outcome
        /// The sticker made from an input for this folder (written when added or replaced).
        var sticker: CatalogSticker?
        /// The folder of the old pack it takes the place of, when that is to be removed first.
        var replaces: String?
        /// The record's digest for it, when it is not written now.
        var recordedDigest: String?
        var rank: Int?
    }

    var pack: String
    /// The new pack's folders, in order.
    var folders: [Folder] = []
    /// Old folders to delete (pruned ones).
    var removed: [(name: String, source: String?)] = []
    var renames: [CatalogRename] = []
    var warnings: [CatalogWarning] = []

    init(stickers: [CatalogSticker], failedSources: Set<String>, gridSize: StickerSize, existing: ExistingCatalog?,
         prune: Bool, overwrite: Bool) throws {
        pack = existing?.packFolder ?? StickerCatalog.packFolderName
        let onDisk = existing?.onDisk ?? []
        let present = Set(onDisk)
        var recorded: [String: CatalogRecord.Sticker] = [:]
        if let record = existing?.record, record.pack == pack {
            for r in record.stickers where present.contains(r.folder) { recorded[r.folder] = r }
        }
        // Stickers the user renamed (in Xcode) are still stickerkit's, under their new names.
        let renamedByUser = existing?.renamed() ?? [:]
        recorded.merge(renamedByUser) { a, _ in a }
        // Unchanged folders take their SHA-256 digest, which upgrades an earlier version's record.
        var edited = Set<String>()
        for (folder, r) in recorded {
            if let digest = existing?.unchangedDigest(of: folder, recorded: r.digest) {
                recorded[folder]?.digest = digest
            } else {
                edited.insert(folder)
            }
        }
        let handMade = onDisk.filter { recorded[$0] == nil }

        // Names: the key of a folder is its name without extension, ignoring case.
        func key(_ folder: String) -> String { (folder as NSString).deletingPathExtension.lowercased() }
        var holder: [String: String] = [:]               // key → hand-made or claimed folder
        for f in handMade { holder[key(f)] = f }
        let sources = Set(stickers.compactMap(\.source)).union(failedSources)
        var claimed = Set<String>()
        var assigned = [String?](repeating: nil, count: stickers.count)
        var replacing = [String?](repeating: nil, count: stickers.count)

        // 1. The same source keeps its folder (its base name, with the content's extension).
        for (i, s) in stickers.enumerated() {
            guard let src = s.source else { continue }
            let base = StickerNaming.safeName(s.name)
            // Its own name (or a numbered one) first; else a folder the user renamed, now or in
            // an earlier run.
            let candidates = recorded.values.filter { $0.source == src && !claimed.contains($0.folder) }.sorted { $0.folder < $1.folder }
            let match = candidates.first { Self.isNumbered(key($0.folder), of: base.lowercased()) } ?? candidates.first
            guard let r = match else { continue }
            claimed.insert(r.folder)
            let name = (r.folder as NSString).deletingPathExtension + "." + s.content.folderExtension
            assigned[i] = name
            replacing[i] = r.folder
            holder[key(name)] = name
        }
        // 2. Every other sticker: its safe name, or the first free numbered one.
        for (i, s) in stickers.enumerated() where assigned[i] == nil {
            let base = StickerNaming.safeName(s.name)
            var candidate = base, n = 2
            var takenBy: String?
            while true {
                let k = candidate.lowercased()
                if holder[k] == nil {
                    if let r = recorded.keys.sorted().lazy.map({ recorded[$0]! }).first(where: { key($0.folder) == k && !claimed.contains($0.folder) }) {
                        // A recorded sticker of this name: handed over when its input is gone.
                        if !sources.contains(r.source ?? "\u{0}") && !edited.contains(r.folder) {
                            claimed.insert(r.folder)
                            replacing[i] = r.folder
                            break
                        }
                        takenBy = takenBy ?? r.folder
                    } else {
                        break
                    }
                } else {
                    takenBy = takenBy ?? holder[k]
                }
                candidate = "\(base) \(n)"
                n += 1
            }
            let name = candidate + "." + s.content.folderExtension
            assigned[i] = name
            holder[candidate.lowercased()] = name
            if candidate != base || base != s.name {
                renames.append(CatalogRename(source: s.source, wanted: s.name, folder: name, takenBy: candidate != base ? takenBy : nil))
            }
        }

        // 3. What becomes of each folder.
        for (i, s) in stickers.enumerated() {
            let name = assigned[i]!
            if let old = replacing[i], edited.contains(old), !overwrite {
                folders.append(Folder(name: old, source: recorded[old]?.source, outcome: .keptEdited, sticker: nil,
                                      replaces: nil, recordedDigest: recorded[old]?.digest, rank: s.rank))
                warnings.append(.editedKept(folder: old, source: s.source))
                continue
            }
            var outcome = CatalogChanges.Outcome.added
            if let old = replacing[i] {
                outcome = try old == name && recorded[old]?.digest == StickerCatalog.folder(of: s, named: name).digest && !edited.contains(old)
                    ? .unchanged : .replaced
            }
            folders.append(Folder(name: name, source: s.source, outcome: outcome, sticker: s,
                                  replaces: outcome == .replaced ? replacing[i] : nil,
                                  recordedDigest: outcome == .unchanged ? recorded[name]?.digest : nil, rank: s.rank))
        }
        // A sticker added again whose earlier folder someone removed from the catalog (in Xcode):
        // said, since the artwork given brings it back.
        let gone = (existing?.record?.stickers ?? []).filter { !present.contains($0.folder) && $0.source != nil }
        let renamedSources = Set(renamedByUser.values.compactMap(\.source))
        for f in folders where f.outcome == .added {
            guard let src = f.source, !renamedSources.contains(src), let r = gone.first(where: { $0.source == src }) else { continue }
            warnings.append(.removedAddedAgain(folder: r.folder, source: src))
        }
        var withoutInput: [String] = []
        for folder in recorded.keys.sorted(by: StickerNaming.precedes) where !claimed.contains(folder) {
            let r = recorded[folder]!
            if let src = r.source, failedSources.contains(src) {
                folders.append(Folder(name: folder, source: src, outcome: .keptInputFailed, sticker: nil, replaces: nil,
                                      recordedDigest: r.digest, rank: nil))
                continue
            }
            if prune && (!edited.contains(folder) || overwrite) {
                removed.append((folder, r.source))
                continue
            }
            if prune { warnings.append(.editedNotPruned(folder: folder)) } else { withoutInput.append(folder) }
            folders.append(Folder(name: folder, source: r.source, outcome: edited.contains(folder) ? .keptEdited : .keptWithoutInput,
                                  sticker: nil, replaces: nil, recordedDigest: r.digest, rank: nil))
        }
        if !withoutInput.isEmpty { warnings.append(.keptWithoutInput(folders: withoutInput)) }

        // 4. Order: stickerkit's by rank, then natural order; then the hand-made ones.
        folders = folders.enumerated().sorted { a, b in
            let (x, y) = (a.element, b.element)
            switch (x.rank, y.rank) {
            case let (p?, q?) where p != q: return p < q
            case (_?, nil): return true
            case (nil, _?): return false
            default:
                let (m, n) = ((x.name as NSString).deletingPathExtension, (y.name as NSString).deletingPathExtension)
                if m != n { return StickerNaming.precedes(m, n) }
                return a.offset < b.offset
            }
        }.map(\.element)
        let listed = existing?.listed ?? []
        var seen = Set<String>()
        var unlisted: [String] = []
        for f in listed where handMade.contains(f) && seen.insert(f).inserted {
            folders.append(Folder(name: f, source: nil, outcome: .keptHandMade))
        }
        for f in handMade where !seen.contains(f) {
            unlisted.append(f)
            folders.append(Folder(name: f, source: nil, outcome: .keptHandMade))
        }
        if !unlisted.isEmpty { warnings.append(.unlistedNowListed(folders: unlisted)) }
        // 5. Without ranks (no labels file), an order set by hand — in Xcode, or by an earlier
        // run's labels — is kept: the folders the pack lists keep its order, the others follow
        // in the order above (named in a warning, since they do not take their natural places).
        // A pack in the order above stays in it, new stickers in their natural places.
        if !folders.contains(where: { $0.rank != nil }) {
            let place = Dictionary(listed.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
            let ours = folders.map(\.name).filter { place[$0] != nil }
            if ours != ours.sorted(by: { place[$0]! < place[$1]! }) {
                folders = folders.enumerated().sorted { a, b in
                    switch (place[a.element.name], place[b.element.name]) {
                    case let (p?, q?): return p < q
                    case (_?, nil): return true
                    case (nil, _?): return false
                    default: return a.offset < b.offset
                    }
                }.map(\.element)
                let appended = folders.map(\.name).filter { place[$0] == nil }
                if !appended.isEmpty { warnings.append(.handOrderKept(appended: appended)) }
            }
        }
        let missing = listed.filter { !present.contains($0) }
        if !missing.isEmpty { warnings.append(.missingDropped(folders: missing)) }
        if let old = existing?.gridSize, old != gridSize.rawValue {
            warnings.append(.gridSizeChanged(from: old, to: gridSize.rawValue))
        }
    }

    /// Whether a folder key is `base` or `base N` (a numbered duplicate of it).
    static func isNumbered(_ key: String, of base: String) -> Bool {
        if key == base { return true }
        guard key.hasPrefix(base + " ") else { return false }
        let n = key.dropFirst(base.count + 1)
        return !n.isEmpty && n.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension CatalogPlan.Folder {
    init(name: String, source: String?, outcome: CatalogChanges.Outcome) {
        self.init(name: name, source: source, outcome: outcome, sticker: nil, replaces: nil, recordedDigest: nil, rank: nil)
    }
}
