import Foundation
import ImageCore
import ImageDecoding
import StickerKit

/// Checks a WhatsApp pack archive (`.wastickers`, as `WastickersPack` writes and other sticker
/// tools make, stored or deflated) against WhatsApp's rules: 3 to 30 stickers, all stills or all
/// animations, each sticker by `PlatformChecker`'s WhatsApp rules (512×512 WebP within its cap),
/// the tray icon (96×96 PNG within 50 KB: `tray.png`, else the one PNG the archive holds, as
/// packs from other tools name it `cover.png`), and one line each of title and author, at most
/// `WastickersPack.maxTextLength` characters. Structure only, as `check --platform` reads
/// files: no pixel is decoded. Entries are expanded one at a time, each within `maxEntryBytes`;
/// folders and the metadata a Mac's Finder adds (`__MACOSX/`, `.DS_Store`) are passed over.
public enum WastickersChecker {
    /// The most bytes an entry may expand to: far over WhatsApp's 500 KB cap, so an oversized
    /// sticker is still measured and named; past it the entry is named and not read.
    public static let maxEntryBytes = 16 << 20
    /// The most entries read: a pack holds at most 30 stickers, its tray icon, title and author;
    /// an archive with more files is named and not read (each could expand to `maxEntryBytes`).
    public static let maxEntries = 64
    /// The most bytes read from `title.txt` or `author.txt`.
    static let maxTextBytes = 4096

    /// Checks the archive `bytes`; `path` names it in the report (and, followed by each entry's
    /// name, its entries).
    public static func check(_ bytes: [UInt8], path: String) -> WastickersCheckReport {
        let target = StickerTarget.whatsapp
        var report = WastickersCheckReport(path: path, title: nil, author: nil, stickers: [], tray: nil, findings: [])
        guard let (zip, entries) = PackArchive.open(bytes, maxEntries: maxEntries, tooMany: {
            "\($0) files: a WhatsApp pack holds at most \(WastickersPack.stickerRange.upperBound) stickers, its tray icon, title and author; not read"
        }, findings: &report.findings) else { return report }
        func inside(_ e: ZipEntry) -> String { path + "/" + e.name }
        let trayIcon = target.packIcons[0]
        // The tray: its own name, else the only PNG (found by its bytes, read below).
        let named = entries.first { $0.name.lowercased() == trayIcon.fileName }
        // PNGs that may be the tray; the bytes of the first only (one entry's bytes held at a time).
        var pngs: [ZipEntry] = []
        var firstPNG: [UInt8] = []
        var text: [String: String] = [:]
        for e in entries {
            let lower = e.name.lowercased()
            if lower == WastickersPack.titleName || lower == WastickersPack.authorName {
                let label = lower == WastickersPack.titleName ? "title" : "author"
                let (line, problem) = readText(zip, e)
                if let line { text[lower] = line }
                if let problem { report.findings.append(.init(.error, .packText, "the pack's \(label): \(problem)", path: inside(e))) }
                continue
            }
            let data: [UInt8]
            do { data = try zip.contents(of: e, limit: maxEntryBytes) } catch {
                let unread = StickerCheckReport.unreadable(path: inside(e), bytes: e.size, "\(error)")
                if e.name == named?.name { report.tray = unread } else { report.stickers.append(unread) }
                continue
            }
            let format = ImageDecoder.sniff(data)
            if e.name == named?.name {
                report.tray = PlatformChecker.check(data, path: inside(e), packIcon: trayIcon, target: target)
            } else if format == .webp || lower.hasSuffix(".webp") {
                // A sticker, or a file named as one (a PNG named 05.webp is named as a PNG).
                report.stickers.append(PlatformChecker.check(data, path: inside(e), target: target))
            } else if format == .png || format == .apng {
                if pngs.isEmpty { firstPNG = data }
                pngs.append(e)
            } else {
                let what = format.map { "a \($0.displayName)" } ?? Artwork.otherFormat(of: Array(data.prefix(64))) ?? "not an image"
                report.findings.append(.init(.warning, .notASticker, "\(what), no part of a WhatsApp pack (WebP stickers, "
                                             + "the tray icon, \(WastickersPack.titleName), \(WastickersPack.authorName))", path: inside(e)))
            }
        }
        // PNGs: the tray when the archive has no tray.png and holds one; otherwise no sticker.
        if report.tray == nil, named == nil, pngs.count == 1 {
            report.tray = PlatformChecker.check(firstPNG, path: inside(pngs[0]), packIcon: trayIcon, target: target)
            pngs.removeAll()
        }
        for p in pngs {
            report.findings.append(.init(.warning, .notASticker, "a PNG: not a sticker (WhatsApp takes stickers as WebP) "
                                         + "nor the tray icon (\(trayIcon.fileName))", path: inside(p)))
        }
        report.title = text[WastickersPack.titleName]
        report.author = text[WastickersPack.authorName]
        var packFindings: [StickerFinding] = []
        if report.tray == nil && named == nil {
            packFindings.append(.init(.error, .missingFile, "no tray icon: a WhatsApp pack needs a \(trayIcon.dimensions) PNG "
                                      + "(\(trayIcon.fileName)) within \(StickerChecker.grouped(trayIcon.maxBytes)) bytes"))
        }
        for (name, label) in [(WastickersPack.titleName, "title"), (WastickersPack.authorName, "author")]
        where !entries.contains(where: { $0.name.lowercased() == name }) {
            packFindings.append(.init(.error, .missingFile, "no \(name): WhatsApp needs the pack's \(label)"))
        }
        let readable = report.stickers.filter { $0.facts.format != nil }
        do {
            try WastickersPack.check(count: report.stickers.count, animations: readable.filter { $0.facts.frames > 1 }.count)
        } catch {
            packFindings.append(.init(.error, code(of: error), error.description))
        }
        report.findings = packFindings + report.findings
        return report
    }

    private static func code(of error: WastickersError) -> StickerFinding.Code {
        if case .mixedKinds = error { return .mixedKinds }
        return .stickerCount
    }

    /// `title.txt` or `author.txt` as the pack's one line of text (a byte order mark and the
    /// whitespace around it dropped), or why it is not one.
    private static func readText(_ zip: ZipReader, _ e: ZipEntry) -> (line: String?, problem: String?) {
        let data: [UInt8]
        do { data = try zip.contents(of: e, limit: maxTextBytes) } catch { return (nil, "\(error)") }
        guard let s = String(bytes: data, encoding: .utf8) else { return (nil, "not UTF-8 text") }
        let t = (s.hasPrefix("\u{FEFF}") ? String(s.dropFirst()) : s).trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty { return (nil, "empty") }
        if t.contains(where: \.isNewline) { return (t, "more than one line") }
        if t.count > WastickersPack.maxTextLength {
            return (t, "\(t.count) characters; WhatsApp takes at most \(WastickersPack.maxTextLength)")
        }
        return (t, nil)
    }
}
