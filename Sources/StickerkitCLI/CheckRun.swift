import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

/// File discovery and table rendering for `check` (kept apart from the command for tests).
enum CheckRun {
    /// What `check` looks at in a folder: every format Stickerkit reads, and the image formats it
    /// recognises by name only, which are reported rather than passed over.
    static let imageExtensions = ImageFormat.readableExtensions.union(ImageFormat.unreadExtensions)

    static func run(paths: [String], rules: CheckRules) throws -> CheckReport {
        var stickers: [StickerCheckReport] = []
        var packs: [PackCheckReport] = []
        var catalogs: [CatalogCheckReport] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                throw CommandExit.usage("\(path): error: no such file or folder")
            }
            if !isDir.boolValue {
                stickers.append(checkFile(path, rules: rules))
                continue
            }
            if let catalog = checkAsCatalog(path, rules: rules) {
                catalogs.append(catalog)
                continue
            }
            var groups: [String: [StickerCheckReport]] = [:]
            var order: [String] = []
            let (files, found) = imageFiles(under: path)
            for folder in found { catalogs.append(checkAsCatalog(folder, rules: rules)!) }
            for file in files {
                let r = checkFile(file, rules: rules)
                stickers.append(r)
                let g = packFolder(of: file)
                if groups[g] == nil { order.append(g) }
                groups[g, default: []].append(r)
            }
            for g in order where groups[g]!.count > 1 {
                packs.append(StickerChecker.checkPack(folder: g, stickers: groups[g]!))
            }
        }
        return CheckReport(stickers: stickers, packs: packs, catalogs: catalogs)
    }

    /// A sticker catalog (`.xcstickers`) or a sticker pack (`.stickerpack`) checked as one, or nil
    /// for any other folder.
    static func checkAsCatalog(_ path: String, rules: CheckRules) -> CatalogCheckReport? {
        let name = (path.hasSuffix("/") ? String(path.dropLast()) : path) as NSString
        switch name.pathExtension.lowercased() {
        case "xcstickers": return CatalogChecker.check(catalog: path, rules: rules)
        case "stickerpack": return CatalogChecker.check(pack: path, rules: rules)
        default: return nil
        }
    }

    static func checkFile(_ path: String, rules: CheckRules) -> StickerCheckReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            return StickerCheckReport(path: path, bytes: 0, facts: StickerFacts(format: nil), transparent: nil,
                                      findings: [StickerFinding(.error, .unreadable, "cannot read the file")])
        }
        return StickerChecker.check([UInt8](data), path: path, rules: rules)
    }

    /// Image files below `root`, sorted, skipping hidden entries and app-icon sets; and the sticker
    /// catalogs and packs found there, which are checked as such rather than file by file.
    static func imageFiles(under root: String, extensions: Set<String> = imageExtensions) -> (files: [String], catalogs: [String]) {
        var out: [String] = []
        var catalogs: [String] = []
        func walk(_ dir: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let p = (dir as NSString).appendingPathComponent(name)
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { continue }
                if isDir.boolValue {
                    if name.hasSuffix(".stickersiconset") || name.hasSuffix(".appiconset") { continue }
                    if name.hasSuffix(".xcstickers") || name.hasSuffix(".stickerpack") { catalogs.append(p); continue }
                    walk(p)
                } else if extensions.contains((name as NSString).pathExtension.lowercased()) {
                    out.append(p)
                }
            }
        }
        walk(root)
        return (out, catalogs)
    }

    /// The pack a file belongs to: its enclosing `.stickerpack` if any, else its folder.
    static func packFolder(of file: String) -> String {
        var dir = (file as NSString).deletingLastPathComponent
        let parent = dir
        while !dir.isEmpty && dir != "/" && dir != "." {
            if dir.hasSuffix(".stickerpack") { return dir }
            dir = (dir as NSString).deletingLastPathComponent
        }
        return parent
    }

    static func table(_ report: CheckReport) -> String {
        func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
        func lpad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
        func rows(_ stickers: [StickerCheckReport]) -> String {
            var out = pad("STATUS", 7) + pad("FORMAT", 7) + pad("SIZE", 11) + lpad("BYTES", 10) + lpad("FRAMES", 7) + "  FILE\n"
            for s in stickers {
                let status = s.verdict == .error ? "ERROR" : s.verdict == .warning ? "warn" : "ok"
                let size = s.facts.width.map { "\($0)×\(s.facts.height ?? 0)" } ?? "-"
                out += pad(status, 7) + pad(s.facts.format ?? "?", 7) + pad(size, 11) + lpad(StickerChecker.grouped(s.bytes), 10)
                    + lpad("\(s.facts.frames)", 7) + "  " + s.path + "\n"
                for f in s.findings {
                    out += "         \(pad(f.severity.rawValue, 8)) \(f.code.rawValue): \(f.path.map { $0 + ": " } ?? "")\(f.message)\n"
                }
            }
            return out
        }
        var out = ""
        if !report.stickers.isEmpty || report.catalogs.isEmpty { out += rows(report.stickers) }
        for p in report.packs {
            for f in p.findings { out += "pack \(p.folder): \(f.severity.rawValue) \(f.code.rawValue): \(f.message)\n" }
        }
        for c in report.catalogs {
            if !out.isEmpty { out += "\n" }
            out += "catalog \(c.path)" + (c.gridSize.map { " (grid size \($0))" } ?? "") + ": "
                + "\(c.stickers.count) sticker\(c.stickers.count == 1 ? "" : "s")\n"
            if !c.stickers.isEmpty { out += rows(c.stickers) }
            for f in c.findings {
                out += "\(pad(f.severity == .error ? "ERROR" : f.severity.rawValue, 8)) \(f.code.rawValue): \(f.path.map { $0 + ": " } ?? "")\(f.message)\n"
            }
        }
        let files = report.stickers.count
        if report.catalogs.isEmpty {
            out += "\(files) file\(files == 1 ? "" : "s")"
        } else {
            let inCatalogs = report.catalogs.reduce(0) { $0 + $1.stickers.count }
            out += "\(inCatalogs) sticker\(inCatalogs == 1 ? "" : "s") in \(report.catalogs.count) catalog\(report.catalogs.count == 1 ? "" : "s")"
            if files > 0 { out += " and \(files) file\(files == 1 ? "" : "s")" }
        }
        out += ": \(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")\n"
        return out
    }
}
