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
        var archives: [WastickersCheckReport] = []
        var lineSets: [LineSetCheckReport] = []
        var seen = Set<InputDiscovery.SameInput>()
        for path in paths {
            let found = search(path, failed: &failed, skipped: &skipped, seen: &seen)
            catalogs += found.catalogs.compactMap { checkAsCatalog($0.string ?? $0.display, rules: rules) }
            var groups: [String: [StickerCheckReport]] = [:]
            var order: [String] = []
            for file in found.files {
                let checked: [StickerCheckReport]
                switch checkFile(file, { StickerChecker.check($0, path: $1, rules: rules) }) {
                case .archive(let a): archives.append(a); continue
                case .lineSet(let l): lineSets.append(l); continue
                case .sticker(let s): checked = [s]
                case .images(let all): checked = all
                }
                for r in checked {
                    stickers.append(r)
                    let g = packFolder(of: r.path)
                    if groups[g] == nil { order.append(g) }
                    groups[g, default: []].append(r)
                }
            }
            for g in order where groups[g]!.count > 1 {
                packs.append(StickerChecker.checkPack(folder: g, stickers: groups[g]!))
            }
            archives += found.archives.map(checkArchive)
        }
        return (CheckReport(stickers: stickers, packs: packs, catalogs: catalogs, wastickers: archives, lineSets: lineSets), failed, skipped)
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
    /// stickers): what it holds but files met in an earlier path under the same name (`seen`,
    /// `Outcome.dropRepeats`), its missing paths added to `failed` and what the search
    /// passed over to `skipped`.
    static func search(_ path: String, failed: inout [CommandFailure], skipped: inout Skipped,
                       seen: inout Set<InputDiscovery.SameInput>) -> InputDiscovery.Outcome {
        var found = InputDiscovery.discover([CommandLineBytes.path(for: path)], excluding: .init(), reading: .stickers)
        found.dropRepeats(seen: &seen)
        failed += found.missing.map { CommandFailure.failed($0.path, $0.reason) }
        skipped.links += found.notices
        skipped.outputs += found.skippedOutputs
        return found
    }

    /// What `check` made of one file.
    enum Checked {
        case sticker(StickerCheckReport)
        /// Its bytes are a WhatsApp pack: checked as one (`WastickersChecker`).
        case archive(WastickersCheckReport)
        /// Its bytes are a LINE upload archive: checked as a set (`LineSetChecker`).
        case lineSet(LineSetCheckReport)
        /// Its bytes are any other ZIP archive: each image in it checked as a sticker
        /// (`ArchiveInputs.images`, named `ARCHIVE/ENTRY`), as `resize` takes them.
        case images([StickerCheckReport])
    }

    /// `check`'s report of one file: a WhatsApp pack or a LINE set checked as one, the images of any other ZIP
    /// archive each by `check` (its bytes and its path), any other file by `check` applied to
    /// its bytes, or an error finding when it cannot be read.
    static func checkFile(_ file: InputFile, _ check: ([UInt8], String) -> StickerCheckReport) -> Checked {
        withBytes(of: file, unread: { .sticker($0) }) { bytes in
            guard ZipReader.opensAsZip(bytes) else { return .sticker(check(bytes, file.path)) }
            guard let reader = try? ZipReader(bytes), !ArchiveInputs.isWhatsAppPack(file.location, reader) else {
                return .archive(WastickersChecker.check(bytes, path: file.path))
            }
            if LineSetChecker.isLineSet(reader) { return .lineSet(LineSetChecker.check(bytes, path: file.path)) }
            let entries = ArchiveInputs.images(in: reader, archive: file.location)
            if let problem = entries.isEmpty ? .noImage : ArchiveInputs.beyondBounds(reader, images: entries.count, archiveBytes: bytes.count) {
                return .sticker(.unreadable(path: file.path, bytes: bytes.count, problem.description))
            }
            return .images(entries.map { e in
                let path = file.path + "/" + e.name
                do {
                    return check(try ArchiveInputs.contents(of: e, in: reader, limits: .default), path)
                } catch {
                    return .unreadable(path: path, bytes: e.size, "\(error)")
                }
            })
        }
    }

    /// A `.wastickers` found in a folder, checked as a WhatsApp pack whatever its bytes (a file
    /// that is no ZIP archive is an `unreadable` finding of the pack).
    static func checkArchive(_ file: InputFile) -> WastickersCheckReport {
        withBytes(of: file, unread: {
            WastickersCheckReport(path: file.path, title: nil, author: nil, stickers: [], tray: nil, findings: $0.findings)
        }) { WastickersChecker.check($0, path: file.path) }
    }

    /// `body` applied to the bytes of `file`, or `unread` to the report of why they are not read
    /// (larger than one file may hold, or unreadable).
    private static func withBytes<T>(of file: InputFile, unread: (StickerCheckReport) -> T, _ body: ([UInt8]) -> T) -> T {
        if let report = tooLarge(file.location, path: file.path) { return unread(report) }
        guard let bytes = try? FileSystem.readFile(file.location) else { return unread(unreadable(file.path)) }
        return body(bytes)
    }

    /// The report of a file that cannot be read.
    static func unreadable(_ path: String) -> StickerCheckReport {
        .unreadable(path: path, bytes: 0, "cannot read the file")
    }

    /// The report of a file whose bytes alone pass what one file may hold (`--max-memory`'s
    /// default), judged from its size and first bytes instead of read (a 420 MB file was read
    /// whole: 433 MB resident); nil for any other.
    static func tooLarge(_ location: BytePath, path: String) -> StickerCheckReport? {
        guard let size = (try? FileStatus.of(location))??.bytes,
              (try? StickerConverter.checkFileSize(size, head: [], limits: .default)) == nil else { return nil }
        let format = Artwork.format(of: FileSystem.readHead(location, count: 64) ?? [])
        return .tooLarge(path: path, bytes: size, format: format?.displayName)
    }

    /// The pack a file belongs to: its enclosing `.stickerpack` if any, else its folder. Taken
    /// apart as bytes (`BytePath`): Foundation's `deletingLastPathComponent`, applied again to
    /// its own one-character result (`o` of `o/b.png`), stopped the process.
    static func packFolder(of file: String) -> String {
        let parent = BytePath(file).parent
        var dir = parent
        while !dir.bytes.isEmpty && dir != BytePath("/") && dir != BytePath(".") {
            if dir.bytes.count >= 12 && Array(dir.bytes.suffix(12)) == Array(".stickerpack".utf8) { return dir.string ?? dir.display }
            dir = dir.parent
        }
        return parent.string ?? parent.display
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
        func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
        func findingLines(_ findings: [StickerFinding]) -> String {
            findings.map { f in
                "\(pad(f.severity == .error ? "ERROR" : f.severity.rawValue, 8)) \(f.code.rawValue): \(MessageText.escape((f.path.map { $0 + ": " } ?? "") + f.message))\n"
            }.joined()
        }
        var out = ""
        if !report.stickers.isEmpty || (report.catalogs.isEmpty && report.wastickers.isEmpty && report.lineSets.isEmpty) { out += rows(report.stickers) }
        for p in report.packs {
            for f in p.findings { out += "pack \(MessageText.escape(p.folder)): \(f.severity.rawValue) \(f.code.rawValue): \(MessageText.escape(f.message))\n" }
        }
        for c in report.catalogs {
            if !out.isEmpty { out += "\n" }
            out += "catalog \(MessageText.escape(c.path))" + (c.gridSize.map { " (grid size \($0))" } ?? "") + ": "
                + "\(c.stickers.count) sticker\(c.stickers.count == 1 ? "" : "s")\n"
            if !c.stickers.isEmpty { out += rows(c.stickers) }
            out += findingLines(c.findings)
        }
        for w in report.wastickers {
            if !out.isEmpty { out += "\n" }
            out += "WhatsApp pack \(MessageText.escape(w.path)): " + count(w.stickers.count, "sticker")
            if let title = w.title { out += ", \u{201C}\(MessageText.escape(title))\u{201D}" }
            if let author = w.author { out += " by \(MessageText.escape(author))" }
            out += "\n"
            let listed = w.stickers + (w.tray.map { [$0] } ?? [])
            if !listed.isEmpty { out += rows(listed) }
            out += findingLines(w.findings)
        }
        for l in report.lineSets {
            if !out.isEmpty { out += "\n" }
            out += "LINE set \(MessageText.escape(l.path)): " + count(l.stickers.count, "sticker") + "\n"
            let listed = l.stickers + l.pictures
            if !listed.isEmpty { out += rows(listed) }
            out += findingLines(l.findings)
        }
        let files = report.stickers.count
        if report.catalogs.isEmpty && report.wastickers.isEmpty && report.lineSets.isEmpty {
            out += count(files, "file")
        } else {
            let inside = report.catalogs.reduce(0) { $0 + $1.stickers.count } + report.wastickers.reduce(0) { $0 + $1.stickers.count }
                + report.lineSets.reduce(0) { $0 + $1.stickers.count }
            var holders: [String] = []
            if !report.catalogs.isEmpty { holders.append(count(report.catalogs.count, "catalog")) }
            if !report.wastickers.isEmpty { holders.append(count(report.wastickers.count, "WhatsApp pack")) }
            if !report.lineSets.isEmpty { holders.append(count(report.lineSets.count, "LINE set")) }
            out += count(inside, "sticker") + " in " + holders.joined(separator: " and ")
            if files > 0 { out += " and " + count(files, "file") }
        }
        out += ": \(report.errors) error\(report.errors == 1 ? "" : "s"), \(report.warnings) warning\(report.warnings == 1 ? "" : "s")\n"
        return out
    }
}
