import Foundation

extension StickerCatalog {
    /// A sticker's folder named `folder`: its files (stored ones read now, so a catalog holds one
    /// sticker's bytes at a time), its Contents.json, and what that says (`StickerFolderDigest`).
    struct Folder {
        var files: [(name: String, bytes: [UInt8])]
        var contents: [UInt8]
        var properties: [(String, String)]

        /// The files written, Contents.json last.
        var all: [(name: String, bytes: [UInt8])] { files + [("Contents.json", contents)] }
        /// Its `StickerFolderDigest`.
        var digest: String { StickerFolderDigest.of(properties: properties, files: files.map { ($0.name, $0.bytes) }) }
    }

    /// The folder named `folder` that `sticker` is written as.
    ///
    /// - Throws: `PackError.cannotReadSticker` when a stored file does not read.
    static func folder(of sticker: CatalogSticker, named folder: String) throws -> Folder {
        let base = (folder as NSString).deletingPathExtension
        func one(_ bytes: [UInt8], _ ext: String) -> Folder {
            let file = base + "." + ext
            let c = CatalogContents.Sticker(properties: .init(filename: file, accessibilityLabel: sticker.label))
            return Folder(files: [(file, bytes)], contents: json(c), properties: StickerFolderDigest.properties(c))
        }
        func sequence(_ frames: [[UInt8]], _ fps: Double, _ repetitions: Int) -> Folder {
            let names = frameNames(base: base, count: frames.count)
            let c = CatalogContents.Sequence(properties: .init(accessibilityLabel: sticker.label, duration: fps, durationType: "fps",
                                                               repetitions: repetitions),
                                             frames: names.map { .init(filename: $0) })
            return Folder(files: Array(zip(names, frames)).map { ($0, $1) }, contents: json(c),
                          properties: StickerFolderDigest.properties(c))
        }
        switch sticker.content {
        case let .file(bytes, ext):
            return one(bytes, ext)
        case let .storedFile(path, ext):
            return one(try read(path), ext)
        case let .sequence(frames, fps, repetitions):
            return sequence(frames, fps, repetitions)
        case let .storedSequence(paths, fps, repetitions):
            return sequence(try paths.map(read), fps, repetitions)
        }
    }

    /// A stored sticker file's bytes.
    private static func read(_ path: String) throws -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw PackError.cannotReadSticker(path: path, reason: CatalogFiles.reason(error))
        }
    }
}
