import Foundation
import StickerKit

/// File helpers shared by the catalog and the icon set.
enum CatalogFiles {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return e
    }

    static func writeJSON<T: Encodable>(_ value: T, to url: URL) throws {
        var data = try encoder().encode(value)
        data.append(0x0A)
        try write([UInt8](data), to: url)
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        do {
            try Data(bytes).write(to: url)
        } catch {
            throw PackError.cannotWrite(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Moves `new` to `dest`; an existing `dest` is moved aside first and deleted only after
    /// the rename succeeded (restored if it failed).
    static func replace(_ dest: URL, with new: URL, token: String) throws {
        let fm = FileManager.default
        guard fm.fileExists(atPath: dest.path) else {
            try fm.moveItem(at: new, to: dest)
            return
        }
        let old = dest.deletingLastPathComponent().appendingPathComponent(".\(dest.lastPathComponent).old-\(token)")
        try fm.moveItem(at: dest, to: old)
        do {
            try fm.moveItem(at: new, to: dest)
        } catch {
            try? fm.moveItem(at: old, to: dest)
            try? fm.removeItem(at: new)
            throw error
        }
        try? fm.removeItem(at: old)
    }
}
