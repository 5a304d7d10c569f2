import ArgumentParser
import Foundation
import ImageCore
import StickerKit
import StickerPackaging

/// File discovery and table rendering for `check` (kept apart from the command for tests).
enum CheckRun {
    /// The report of every path, the inputs that could not be checked at all (a missing path,
    /// a folder without images or catalogs), each one line for stderr, and what was skipped on
    /// the way; the others are checked. Folders are searched by `InputDiscovery` reading
    /// stickers, as `preview` searches them.
    static func run(paths: [String], rules: CheckRules) -> (report: CheckReport, failed: [CommandFailure], skipped: Skipped) {
        var failed: [CommandFailure] = []
        var skipped = Skipped()
        var stickers: [StickerCheckReport] = []
        var packs: [PackCheckReport] = []
        var catalogs: [CatalogCheckReport] = []
        for path in paths {
            let found = search(path, failed: &failed, skipped: &skipped)
            catalogs += found.catalogs.compactMap { checkAsCatalog($0.string ?? $0.display, rules: rules) }
            var groups: [String: [StickerCheckReport]] = [:]
            var order: [String] = []
            for file in found.files {
                let r = checkFile(file) { StickerChecker.check($0, path: file.path, rules: rules) }
                stickers.append(r)
                let g = packFolder(of: file.path)
                if groups[g] == nil { order.append(g) }
                groups[g, default: []].append(r)
            }
            for g in order where groups[g]!.count > 1 {
                packs.append(StickerChecker.checkPack(folder: g, stickers: groups[g]!))
            }
        }
        return (CheckReport(stickers: stickers, packs: packs, catalogs: catalogs), failed, skipped)
    }

    /// What a search passed over: links (a loop, a folder already searched, a broken link), each
    /// a warning, and preview folders, each a note.
    struct Skipped {
        var links: [Notice] = []
        var outputs: [Notice] = []

        func show(on terminal: Terminal) {
            for n in links { terminal.warning(n.line) }
            for n in outputs { terminal.note("\(n.path): note: \(n.message)") }
        }
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

    /// One path searched as `check` and `check --platform` search it (`InputDiscovery` reading
    /// stickers): what it holds, its missing paths added to `failed` and what the search passed
    /// over to `skipped`.
    static func search(_ path: String, failed: inout [CommandFailure], skipped: inout Skipped) -> InputDiscovery.Outcome {
        let found = InputDiscovery.discover([CommandLineBytes.path(for: path)], excluding: .init(), reading: .stickers)
        failed += found.missing.map { CommandFailure.failed($0.path, $0.reason) }
        skipped.links += found.notices
        skipped.outputs += found.skippedOutputs
        return found
    }

    /// `check`'s report of one file: `check` applied to its bytes, or an error finding when it
    /// cannot be read.
    static func checkFile(_ file: InputFile, _ check: ([UInt8]) -> StickerCheckReport) -> StickerCheckReport {
        if let report = tooLarge(file.location, path: file.path) { return report }
        guard let bytes = try? FileSystem.readFile(file.location) else { return unreadable(file.path) }
        return check(bytes)
    }

    /// The report of a file that cannot be read.
    static func unreadable(_ path: String) -> StickerCheckReport {
        StickerCheckReport(path: path, bytes: 0, facts: StickerFacts(format: nil), transparent: nil,
                           findings: [StickerFinding(.error, .unreadable, "cannot read the file")])
    }

    /// The report of a file whose bytes alone pass what one file may hold (`--max-memory`'s
    /// default), judged from its size and first bytes instead of read (a 420 MB file was read
    /// whole: 433 MB resident); nil for any other.
    static func tooLarge(_ location: BytePath, path: String) -> StickerCheckReport? {
        guard let size = (try? FileStatus.of(location))??.bytes,
              (try? StickerConverter.checkFileSize(size, head: [], limits: .default)) == nil else { return nil }
        let format = Artwork.format(of: FileSystem.readHead(location, count: 64) ?? [])
        return StickerCheckReport(path: path, bytes: size, facts: StickerFacts(format: format?.displayName), transparent: nil,
                                  findings: [StickerFinding(.error, .unreadable, "not read: \(Limits.describeMegabytes(size)), "
                                                            + "more than one file may hold in memory (\(Limits.describeMegabytes(Limits.defaultMemory)))")])
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
                    + lpad("\(s.facts.frames)", 7) + "  " + MessageText.escape(s.path) + "\n"
                for f in s.findings {
                    out += "         \(pad(f.severity.rawValue, 8)) \(f.code.rawValue): \(MessageText.escape((f.path.map { $0 + ": " } ?? "") + f.message))\n"
                }
            }
            return out
        }
        var out = ""
        if !report.stickers.isEmpty || report.catalogs.isEmpty { out += rows(report.stickers) }
        for p in report.packs {
            for f in p.findings { out += "pack \(MessageText.escape(p.folder)): \(f.severity.rawValue) \(f.code.rawValue): \(MessageText.escape(f.message))\n" }
        }
        for c in report.catalogs {
            if !out.isEmpty { out += "\n" }
            out += "catalog \(MessageText.escape(c.path))" + (c.gridSize.map { " (grid size \($0))" } ?? "") + ": "
                + "\(c.stickers.count) sticker\(c.stickers.count == 1 ? "" : "s")\n"
            if !c.stickers.isEmpty { out += rows(c.stickers) }
            for f in c.findings {
                out += "\(pad(f.severity == .error ? "ERROR" : f.severity.rawValue, 8)) \(f.code.rawValue): \(MessageText.escape((f.path.map { $0 + ": " } ?? "") + f.message))\n"
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
