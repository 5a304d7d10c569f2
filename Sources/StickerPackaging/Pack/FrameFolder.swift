import Foundation
import ImageCore

/// A folder of still frames that `pack` turns into one animated sticker: no subfolders, two or
/// more images, all named one common prefix followed by a number (`wave_01.png`, `wave_02.png`,
/// … or `1.png`, `2.png`, …). Frames play in number order.
public struct FrameFolder: Sendable, Equatable {
    /// The folder.
    public var path: String
    /// Frame files in number order (ties by UTF-8 bytes).
    public var frames: [String]

    /// The sticker's name: the folder's name without a `.frames` ending.
    public var stickerName: String {
        let name = (path as NSString).lastPathComponent
        return name.hasSuffix(".frames") && name.count > 7 ? String(name.dropLast(7)) : name
    }

    /// `dir` as a frame folder, or nil when it is not one.
    public init?(_ dir: String) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: dir) else { return nil }
        var numbered: [(Int, String)] = []
        var prefix: String?
        for name in names where !name.hasPrefix(".") {
            let p = (dir as NSString).appendingPathComponent(name)
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: p, isDirectory: &isDir), !isDir.boolValue else { return nil }
            guard ImageFormat.readableExtensions.contains((name as NSString).pathExtension.lowercased()) else { continue }
            let stem = (name as NSString).deletingPathExtension
            let digits = stem.reversed().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 9, let n = Int(String(digits.reversed())) else { return nil }
            let head = String(stem.dropLast(digits.count))
            if let prefix, prefix != head { return nil }
            prefix = head
            numbered.append((n, p))
        }
        guard numbered.count >= 2 else { return nil }
        path = dir
        frames = numbered.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1.utf8.lexicographicallyPrecedes($1.1.utf8) }.map(\.1)
    }

    /// Frame folders among `inputs`: an input folder itself, or any folder below one (a frame
    /// folder's own contents are not searched further). Sorted by path within each input. Hidden
    /// folders, sticker catalogs (`.xcstickers`, whose sequences hold numbered frames) and the
    /// folders in `excluding` (absolute paths) are never searched.
    public static func find(in inputs: [String], excluding: [String] = []) -> [FrameFolder] {
        var out: [FrameFolder] = []
        let fm = FileManager.default
        let skip = Set(excluding.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        func visit(_ dir: String) {
            if StickerCatalog.holds(dir) || skip.contains(URL(fileURLWithPath: dir).standardizedFileURL.path) { return }
            if let f = FrameFolder(dir) { out.append(f); return }
            guard let names = try? fm.contentsOfDirectory(atPath: dir) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let p = (dir as NSString).appendingPathComponent(name)
                var isDir: ObjCBool = false
                if fm.fileExists(atPath: p, isDirectory: &isDir), isDir.boolValue { visit(p) }
            }
        }
        for input in inputs {
            var isDir: ObjCBool = false
            if fm.fileExists(atPath: input, isDirectory: &isDir), isDir.boolValue { visit(input) }
        }
        return out
    }
}
