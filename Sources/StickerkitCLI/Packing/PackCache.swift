import Foundation
import StickerKit
import StickerPackaging

/// Where `pack` keeps the stickers it converted (for a catalog, a WhatsApp or a LINE archive), so
/// that a rerun converts only what changed.
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

    /// Converts `files` into the cache as `resize` converts them (the batch runner, `jobs` at a
    /// time, under the cache's manifest), each under its `entryName`: only inputs or settings
    /// that changed since the cached sticker was made are converted again (`force`: all). Returns
    /// each file's report, in order, with the stickers of inputs no longer given removed. The
    /// runner says each failure in one line; the conversions' warnings it shows on a terminal are
    /// said here too when stderr is not one (unless `quiet`).
    func convert(_ files: [InputFile], options: ConversionOptions, jobs: Int, force: Bool, terminal: Terminal,
                 quiet: Bool) -> [BatchReport.File] {
        let keyed = files.map { InputFile(location: $0.location, relative: BytePath(Self.entryName(for: $0.path)), entry: $0.entry) }
        let runner = BatchRunner(settings: .init(options: options, outputDirectory: directory, jobs: jobs, overwrite: true, force: force),
                                 terminal: terminal)
        let plan = runner.plan(keyed)
        let reports = runner.run(keyed, plan: plan)
        removeStale(keeping: Set(keyed.flatMap { input in options.sizes.map { (plan.path(for: input, size: $0) as NSString).lastPathComponent } }))
        if !terminal.chatty && !quiet {
            // On a terminal the runner showed these already (and anywhere, a sticker that
            // shows practically nothing).
            for r in reports {
                for w in r.warnings { terminal.warn(r.input, w) }
                for o in r.outputs { for w in o.details?.warnings ?? [] where w != o.details?.emptyWarning { terminal.warn(r.input, w) } }
            }
        }
        return reports
    }

    /// Removes the cached stickers of inputs no longer given (their names are not in `keep`);
    /// only this cache's own `NAME-<hash>.EXT` stickers, never anything else in the folder.
    func removeStale(keeping keep: Set<String>) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        for name in names where !keep.contains(name) && PackCache.isEntryName(name) {
            try? fm.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }

    /// The extensions of the stickers the cache holds: Messages' and LINE's PNG, WhatsApp's WebP.
    static let stickerExtensions: Set<String> = ["png", "webp"]

    /// `NAME-<16 hex digits>.png` (or `.webp`): a name `entryName` made.
    static func isEntryName(_ name: String) -> Bool {
        stickerExtensions.contains((name as NSString).pathExtension) && hasHashSuffix((name as NSString).deletingPathExtension)
    }

    /// Whether `name` ends in `-` and 16 hex digits.
    static func hasHashSuffix(_ name: String) -> Bool {
        guard let dash = name.lastIndex(of: "-") else { return false }
        let hash = name[name.index(after: dash)...]
        return hash.count == 16 && hash.allSatisfy(\.isHexDigit)
    }
}
