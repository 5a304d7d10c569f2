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
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                throw ValidationError("\(path): no such file or folder")
            }
            if !isDir.boolValue {
                stickers.append(checkFile(path, rules: rules))
                continue
            }
            var groups: [String: [StickerCheckReport]] = [:]
            var order: [String] = []
            for file in imageFiles(under: path) {
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
        return CheckReport(stickers: stickers, packs: packs)
    }

    static func checkFile(_ path: String, rules: CheckRules) -> StickerCheckReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            return StickerCheckReport(path: path, bytes: 0, facts: StickerFacts(format: nil), transparent: nil,
                                      findings: [StickerFinding(.error, .unreadable, "cannot read the file")])
        }
        return StickerChecker.check([UInt8](data), path: path, rules: rules)
    }

    /// Image files below `root`, sorted, skipping hidden entries and app-icon sets.
    static func imageFiles(under root: String) -> [String] {
        var out: [String] = []
        func walk(_ dir: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let p = (dir as NSString).appendingPathComponent(name)
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { continue }
                if isDir.boolValue {
                    if name.hasSuffix(".stickersiconset") || name.hasSuffix(".appiconset") { continue }
                    walk(p)
                } else if imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                    out.append(p)
                }
            }
        }
        walk(root)
        return out
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
        var out = pad("STATUS", 7) + pad("FORMAT", 7) + pad("SIZE", 11) + lpad("BYTES", 10) + lpad("FRAMES", 7) + "  FILE\n"
        for s in report.stickers {
            let status = s.verdict == .error ? "ERROR" : s.verdict == .warning ? "warn" : "ok"
            let size = s.facts.width.map { "\($0)×\(s.facts.height ?? 0)" } ?? "-"
            out += pad(status, 7) + pad(s.facts.format ?? "?", 7) + pad(size, 11) + lpad(StickerChecker.grouped(s.bytes), 10)
                + lpad("\(s.facts.frames)", 7) + "  " + s.path + "\n"
            for f in s.findings { out += "         \(pad(f.severity.rawValue, 8)) \(f.code.rawValue): \(f.message)\n" }
        }
        for p in report.packs {
            for f in p.findings { out += "pack \(p.folder): \(f.severity.rawValue) \(f.code.rawValue): \(f.message)\n" }
        }
        out += "\(report.stickers.count) file\(report.stickers.count == 1 ? "" : "s"): \(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")\n"
        return out
    }
}
