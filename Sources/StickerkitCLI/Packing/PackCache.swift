import Foundation
import StickerKit
import StickerPackaging

/// Where `pack` keeps the stickers it converted, so that a rerun converts only what changed.
///
/// The default place is the user's cache folder, never the project: `~/Library/Caches/stickerkit`
/// on macOS, `$XDG_CACHE_HOME/stickerkit` (or `~/.cache/stickerkit`) elsewhere, one folder per
/// catalog named after it and keyed by its absolute path (`catalogs/NAME.xcstickers-<hash>`). Git
/// never sees it, Xcode never compiles it, and deleting it only costs a full conversion on the
/// next run. `--cache DIR` puts it anywhere else.
///
/// Single files are cached by the batch runner under names unique per input
/// (`NAME-<hash of its absolute path>.EXT`, so equal names from different folders never meet);
/// frame folders by `FrameFolderCache` under `frames/`.
struct PackCache {
    let directory: String

    /// The default cache of the catalog at `catalog`.
    static func defaultDirectory(for catalog: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let abs = URL(fileURLWithPath: catalog).standardizedFileURL
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        #if os(macOS)
        let base = (home as NSString).appendingPathComponent("Library/Caches")
        #else
        let xdg = environment["XDG_CACHE_HOME"] ?? ""
        let base = xdg.hasPrefix("/") ? xdg : (home as NSString).appendingPathComponent(".cache")
        #endif
        let name = "\(abs.lastPathComponent)-\(ContentDigest.of(abs.path))"
        return ((base as NSString).appendingPathComponent("stickerkit/catalogs") as NSString).appendingPathComponent(name)
    }

    /// The cache's name for an input file: its name, a hash of its absolute path, its extension.
    static func entryName(for path: String) -> String {
        let abs = URL(fileURLWithPath: path).standardizedFileURL
        let name = abs.lastPathComponent
        let ext = (name as NSString).pathExtension
        let stem = (name as NSString).deletingPathExtension
        return "\(stem)-\(ContentDigest.of(abs.path))" + (ext.isEmpty ? "" : ".\(ext)")
    }

    /// Whether `path` is inside `directory` (both made absolute).
    static func isInside(_ path: String, _ directory: String) -> Bool {
        let p = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let d = URL(fileURLWithPath: directory).standardizedFileURL.pathComponents
        return p.count >= d.count && Array(p.prefix(d.count)) == d
    }

    /// Removes the cached stickers of inputs no longer given (their names are not in `keep`);
    /// only this cache's own `NAME-<hash>.png` files, never anything else in the folder.
    func removeStale(keeping keep: Set<String>) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasSuffix(".png") && !keep.contains(name) && PackCache.isEntryName(name) {
            try? fm.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }

    /// `NAME-<16 hex digits>.png`: a name `entryName` made.
    static func isEntryName(_ name: String) -> Bool {
        name.hasSuffix(".png") && hasHashSuffix((name as NSString).deletingPathExtension)
    }

    /// Whether `name` ends in `-` and 16 hex digits.
    static func hasHashSuffix(_ name: String) -> Bool {
        guard let dash = name.lastIndex(of: "-") else { return false }
        let hash = name[name.index(after: dash)...]
        return hash.count == 16 && hash.allSatisfy(\.isHexDigit)
    }
}
