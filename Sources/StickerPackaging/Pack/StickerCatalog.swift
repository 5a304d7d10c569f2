import Foundation
import StickerKit

/// An Xcode sticker catalog (`NAME.xcstickers`) that Xcode opens without edits:
///
///     NAME.xcstickers/Contents.json                      {"info":{"author":"xcode","version":1}}
///     NAME.xcstickers/Sticker Pack.stickerpack/Contents.json   grid-size + sticker order
///     …/Sticker Pack.stickerpack/X.sticker/{Contents.json, X.png}
///     …/Sticker Pack.stickerpack/Y.stickersequence/{Contents.json, Y-001.png, …}
///     NAME.xcstickers/iMessage App Icon.stickersiconset/…  (when an icon set is given)
///
/// Stickers are listed in `StickerNaming.precedes` order of their folder names (case-insensitive,
/// then bytewise), whatever order they were given in. Every JSON file is written by `JSONEncoder`
/// with sorted keys.
public struct StickerCatalog: Sendable {
    /// The grid size Messages shows the pack at (Contents.json's `grid-size`).
    public var gridSize: StickerSize
    /// The stickers, in any order (the catalog lists them sorted).
    public var stickers: [CatalogSticker]
    /// The iMessage app icon set written beside the pack, if any.
    public var iconSet: IconSetFiles?

    /// The pack's folder inside the catalog.
    public static let packFolderName = "Sticker Pack.stickerpack"
    /// The icon set's folder inside the catalog.
    public static let iconSetFolderName = "iMessage App Icon.stickersiconset"

    /// A catalog of `stickers` at `gridSize`, with an icon set if given.
    public init(gridSize: StickerSize, stickers: [CatalogSticker], iconSet: IconSetFiles? = nil) {
        self.gridSize = gridSize
        self.stickers = stickers
        self.iconSet = iconSet
    }

    /// Folder name per sticker (same order as `stickers`): safe, unique ignoring case.
    public var folderNames: [String] {
        let bases = StickerNaming.unique(stickers.map { StickerNaming.safeName($0.name) })
        return zip(bases, stickers).map { base, s in
            if case .sequence = s.content { return base + ".stickersequence" }
            return base + ".sticker"
        }
    }

    /// Writes the catalog to `path` atomically: it is built in a hidden sibling folder, then
    /// renamed into place, replacing any previous catalog only once the new one is complete.
    public func write(to path: String) throws {
        let fm = FileManager.default
        let dest = URL(fileURLWithPath: path).standardizedFileURL
        let parent = dest.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let token = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        let tmp = parent.appendingPathComponent(".\(dest.lastPathComponent).tmp-\(token)")
        do {
            try build(at: tmp)
        } catch {
            try? fm.removeItem(at: tmp)
            throw error
        }
        try CatalogFiles.replace(dest, with: tmp, token: token)
    }

    func build(at root: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: root, withIntermediateDirectories: false)
        try CatalogFiles.writeJSON(CatalogContents.Root(), to: root.appendingPathComponent("Contents.json"))

        let pack = root.appendingPathComponent(Self.packFolderName)
        try fm.createDirectory(at: pack, withIntermediateDirectories: false)
        let names = folderNames
        for (folder, sticker) in zip(names, stickers) {
            let dir = pack.appendingPathComponent(folder)
            try fm.createDirectory(at: dir, withIntermediateDirectories: false)
            let base = (folder as NSString).deletingPathExtension
            switch sticker.content {
            case let .file(bytes, ext):
                let file = base + "." + ext
                try CatalogFiles.write(bytes, to: dir.appendingPathComponent(file))
                try CatalogFiles.writeJSON(CatalogContents.Sticker(properties: .init(filename: file, accessibilityLabel: sticker.label)),
                                           to: dir.appendingPathComponent("Contents.json"))
            case let .sequence(frames, fps, repetitions):
                let digits = max(3, String(frames.count).count)
                var refs: [CatalogContents.FileReference] = []
                for (i, frame) in frames.enumerated() {
                    let n = String(i + 1)
                    let file = "\(base)-\(String(repeating: "0", count: digits - n.count))\(n).png"
                    try CatalogFiles.write(frame, to: dir.appendingPathComponent(file))
                    refs.append(.init(filename: file))
                }
                let props = CatalogContents.Sequence.Properties(accessibilityLabel: sticker.label, duration: fps,
                                                                durationType: "fps", repetitions: repetitions)
                try CatalogFiles.writeJSON(CatalogContents.Sequence(properties: props, frames: refs),
                                           to: dir.appendingPathComponent("Contents.json"))
            }
        }
        let ordered = names.sorted(by: StickerNaming.precedes)
        try CatalogFiles.writeJSON(CatalogContents.Pack(properties: .init(gridSize: gridSize.rawValue),
                                                        stickers: ordered.map { .init(filename: $0) }),
                                   to: pack.appendingPathComponent("Contents.json"))
        if let icons = iconSet {
            try icons.write(into: root.appendingPathComponent(Self.iconSetFolderName).path)
        }
    }
}
