import Foundation

/// What is at a catalog's path before it is written: nothing, a catalog to update, or something
/// else that is never replaced without being asked.
enum CatalogTarget {
    case absent
    /// An empty folder: nothing to lose.
    case emptyFolder
    case catalog(ExistingCatalog)
    /// A file, or a folder that is not a sticker catalog.
    case notACatalog(isFile: Bool)

    /// Looks at `url`. Throws when it is a catalog whose pack or record cannot be read (updating
    /// it would mean guessing what is in it).
    static func inspect(_ url: URL) throws -> CatalogTarget {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: url.path, isDirectory: &isDir) else { return .absent }
        guard isDir.boolValue else { return .notACatalog(isFile: true) }
        let names = (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
        if names.allSatisfy({ $0 == ".DS_Store" }) { return .emptyFolder }
        let isCatalog = names.contains { n in
            n == "Contents.json" || n == CatalogRecord.fileName || n.hasSuffix(".stickerpack") || n.hasSuffix(".stickersiconset")
        }
        return isCatalog ? .catalog(try ExistingCatalog(url)) : .notACatalog(isFile: false)
    }
}
