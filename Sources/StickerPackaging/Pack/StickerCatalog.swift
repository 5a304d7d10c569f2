import Foundation
import StickerKit

/// An Xcode sticker catalog (`NAME.xcstickers`) that Xcode opens without edits:
///
///     NAME.xcstickers/Contents.json                      {"info":{"author":"xcode","version":1}}
///     NAME.xcstickers/.stickerkit.json                   which stickers stickerkit made (CatalogRecord)
///     NAME.xcstickers/Sticker Pack.stickerpack/Contents.json   grid-size + sticker order
///     …/Sticker Pack.stickerpack/X.sticker/{Contents.json, X.png}
///     …/Sticker Pack.stickerpack/Y.stickersequence/{Contents.json, Y-001.png, …}
///     NAME.xcstickers/iMessage App Icon.stickersiconset/…  (when an icon set is given)
///
/// Writing into an existing catalog updates it (`CatalogPlan` has the rules): the stickers made
/// from these sources are added or replaced, the ones stickerkit made earlier from sources not
/// given stay unless pruned, and everything it did not make — hand-made stickers, other sets,
/// the icon set when none is given, any other file — is kept as it is. The new catalog is built
/// in a hidden sibling folder and renamed into place, so the catalog on disk is always either
/// the old one or the new one. Every JSON file is written by `JSONEncoder` with sorted keys.
public struct StickerCatalog: Sendable {
    /// The grid size Messages shows the pack at (Contents.json's `grid-size`).
    public var gridSize: StickerSize
    /// The stickers made from inputs, in any order (the catalog orders them).
    public var stickers: [CatalogSticker]
    /// The iMessage app icon set to write, if any.
    public var iconSet: IconSetFiles?
    /// Sources given this time whose stickers could not be made (their conversion failed): the
    /// stickers made from them before are kept as they are, never pruned or renamed away.
    public var failedSources: Set<String> = []

    /// The pack's folder inside a new catalog.
    public static let packFolderName = "Sticker Pack.stickerpack"
    /// The icon set's folder inside the catalog.
    public static let iconSetFolderName = "iMessage App Icon.stickersiconset"

    /// How a write treats what it finds.
    public struct UpdateOptions: Sendable, Equatable {
        /// Remove the stickers stickerkit made earlier from sources not given this time.
        public var prune: Bool
        /// Replace what stickerkit did not make or what was edited since it made it: a file or
        /// folder at the path that is not a catalog, edited stickers, a hand-made icon set.
        public var overwrite: Bool

        public init(prune: Bool = false, overwrite: Bool = false) {
            self.prune = prune
            self.overwrite = overwrite
        }
    }

    /// Whether `path` is, or is inside, an Xcode asset catalog (`.xcstickers`, `.xcassets`): never
    /// artwork to pack.
    public static func holds(_ path: String) -> Bool {
        URL(fileURLWithPath: path).standardizedFileURL.pathComponents.contains {
            let e = ($0 as NSString).pathExtension.lowercased()
            return e == "xcstickers" || e == "xcassets"
        }
    }

    /// The grid size of the catalog at `path` (its pack's `grid-size`), when it is a catalog with
    /// a valid one; nil otherwise (no catalog yet, or one that does not read: the write says why).
    public static func gridSize(of path: String) -> StickerSize? {
        guard let existing = try? ExistingCatalog(URL(fileURLWithPath: path)) else { return nil }
        return existing.gridSize.flatMap(StickerSize.init(rawValue:))
    }

    /// A catalog of `stickers` at `gridSize`, with an icon set if given.
    public init(gridSize: StickerSize, stickers: [CatalogSticker], iconSet: IconSetFiles? = nil) {
        self.gridSize = gridSize
        self.stickers = stickers
        self.iconSet = iconSet
    }

    /// Whether a catalog can be written to `path` with `options`, checked before any work is
    /// done: throws what `write` would throw about the path (`notACatalog`,
    /// `unreadableCatalogFile`, `iconSetNotStickerkits` when `withIconSet`), and nothing else.
    public static func checkTarget(_ path: String, options: UpdateOptions, withIconSet: Bool) throws {
        let dest = URL(fileURLWithPath: path).standardizedFileURL
        switch try CatalogTarget.inspect(dest) {
        case .absent, .emptyFolder: return
        case .notACatalog(let isFile):
            if !options.overwrite { throw PackError.notACatalog(path: path, isFile: isFile) }
        case .catalog:
            let folder = dest.appendingPathComponent(iconSetFolderName)
            let foreign = IconSetFiles(slots: IconSlot.messagesAppIcon, pngs: []).foreignFiles(in: folder)
            if withIconSet && !foreign.isEmpty && !options.overwrite {
                throw PackError.iconSetNotStickerkits(path: folder.path, files: Array(foreign.prefix(3)))
            }
        }
    }

    /// Writes the catalog to `path`, or updates the catalog there; returns what changed.
    ///
    /// - Throws: `PackError.notACatalog` when `path` holds a file or a folder that is not a
    ///   catalog (unless `overwrite`), `.unreadableCatalogFile` when the existing pack's
    ///   Contents.json or record does not read, `.iconSetNotStickerkits` when an icon set is
    ///   given and the catalog's holds hand-made icons (unless `overwrite`), `.cannotWrite`.
    ///   Nothing on disk changes when it throws.
    @discardableResult
    public func write(to path: String, options: UpdateOptions = .init()) throws -> CatalogChanges {
        let dest = URL(fileURLWithPath: path).standardizedFileURL
        CatalogFiles.removeLeftovers(of: dest)
        let (plan, existing, changes) = try planned(path, options: options)
        try FileManager.default.createDirectory(at: dest.deletingLastPathComponent(), withIntermediateDirectories: true)
        try CatalogFiles.replace(dest) { tmp in try build(plan, at: tmp, from: existing) }
        return changes
    }

    /// What `write(to: path, options:)` would change, found the same way, with nothing written
    /// or removed (a dry run). Throws as `write` does before it writes.
    public func changes(at path: String, options: UpdateOptions = .init()) throws -> CatalogChanges {
        try planned(path, options: options).changes
    }

    /// The plan of a write to `path`, the catalog there, and the changes the write reports.
    private func planned(_ path: String, options: UpdateOptions) throws
        -> (plan: CatalogPlan, existing: ExistingCatalog?, changes: CatalogChanges) {
        let dest = URL(fileURLWithPath: path).standardizedFileURL
        try Self.checkTarget(path, options: options, withIconSet: iconSet != nil)
        var existing: ExistingCatalog?
        if case .catalog(let c) = try CatalogTarget.inspect(dest) { existing = c }
        let plan = try CatalogPlan(stickers: stickers, failedSources: failedSources, gridSize: gridSize, existing: existing,
                                   prune: options.prune, overwrite: options.overwrite)

        let iconSetUnchanged = iconSet?.isWritten(in: dest.appendingPathComponent(Self.iconSetFolderName).path) ?? false
        var warnings = plan.warnings
        let hasIconSet = iconSet != nil || !(existing?.iconSets.isEmpty ?? true)
        if !hasIconSet { warnings.append(.noIconSet(catalog: path)) }
        var entries = plan.folders.map { f in
            CatalogChanges.Entry(folder: f.name, source: f.source, outcome: f.outcome, label: f.sticker?.label)
        }
        entries += plan.removed.map { CatalogChanges.Entry(folder: $0.name, source: $0.source, outcome: .removed) }
        return (plan, existing, CatalogChanges(packFolder: plan.pack, entries: entries, renames: plan.renames, warnings: warnings,
                                               iconSetWritten: iconSet != nil, iconSetUnchanged: iconSetUnchanged))
    }

    /// Builds the new catalog at `root`: the existing one again (its files linked, not copied:
    /// `CatalogFiles.linkTree`) with the plan applied, every file it changes written anew.
    private func build(_ plan: CatalogPlan, at root: URL, from existing: ExistingCatalog?) throws {
        let fm = FileManager.default
        do {
            if let existing {
                try CatalogFiles.linkTree(from: existing.url, to: root)
            } else {
                try fm.createDirectory(at: root, withIntermediateDirectories: false)
            }
        } catch let e as PackError {
            throw e
        } catch {
            throw PackError.cannotWrite(path: root.path, reason: CatalogFiles.reason(error))
        }
        let rootContents = root.appendingPathComponent("Contents.json")
        if !fm.fileExists(atPath: rootContents.path) {
            try CatalogFiles.writeJSON(CatalogContents.Root(), to: rootContents)
        }
        let pack = root.appendingPathComponent(plan.pack)
        try createFolder(pack)

        for old in plan.removed.map(\.name) + plan.folders.compactMap(\.replaces) {
            try remove(pack.appendingPathComponent(old))
        }
        var entries: [CatalogRecord.Sticker] = []
        for folder in plan.folders {
            if let sticker = folder.sticker, folder.outcome == .added || folder.outcome == .replaced {
                let dir = pack.appendingPathComponent(folder.name)
                try remove(dir)
                try createFolder(dir)
                let files = try Self.folder(of: sticker, named: folder.name)
                for (name, bytes) in files.all {
                    try CatalogFiles.write(bytes, to: dir.appendingPathComponent(name))
                }
                entries.append(.init(folder: folder.name, source: folder.source, digest: files.digest))
            } else if let digest = folder.recordedDigest {
                entries.append(.init(folder: folder.name, source: folder.source, digest: digest))
            }
        }
        try CatalogFiles.writeJSON(CatalogContents.Pack(properties: .init(gridSize: gridSize.rawValue),
                                                        stickers: plan.folders.map { .init(filename: $0.name) }),
                                   to: pack.appendingPathComponent("Contents.json"))
        if let iconSet {
            let dir = root.appendingPathComponent(Self.iconSetFolderName)
            try remove(dir)
            try iconSet.write(into: dir.path)
        }
        try CatalogRecord(pack: plan.pack, stickers: entries.sorted { $0.folder.utf8.lexicographicallyPrecedes($1.folder.utf8) })
            .write(in: root)
    }

    private func createFolder(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw PackError.cannotWrite(path: url.path, reason: CatalogFiles.reason(error))
        }
    }

    private func remove(_ url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw PackError.cannotWrite(path: url.path, reason: CatalogFiles.reason(error))
        }
    }

    /// `wave-001.png`, `wave-002.png`, …: at least three digits, so that they sort in order.
    static func frameNames(base: String, count: Int) -> [String] {
        let digits = max(3, String(count).count)
        return (1...max(count, 1)).prefix(count).map { i in
            let n = String(i)
            return "\(base)-\(String(repeating: "0", count: digits - n.count))\(n).png"
        }
    }

    static func json<T: Encodable>(_ value: T) -> [UInt8] {
        var data = (try? CatalogFiles.encoder().encode(value)) ?? Data()
        data.append(0x0A)
        return [UInt8](data)
    }
}
