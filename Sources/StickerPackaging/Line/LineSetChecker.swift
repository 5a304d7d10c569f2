import ImageDecoding
import StickerKit

/// Checks a LINE upload archive (a ZIP of a set's stickers with its `main.png` and `tab.png`, as
/// `LinePack` writes and LINE Creators Market takes) against LINE's rules: 8, 16, 24, 32 or 40
/// stills, or 8, 16 or 24 animations, never both; each sticker by `PlatformChecker`'s LINE rules;
/// the main image (240×240, an APNG for a set of animations) and the chat tab image (96×74) as
/// LINE's pack pictures; stickers named `01.png`, `02.png`, … as LINE matches them; the archive
/// within 20 MB. Structure only, as `check --platform` reads files: no pixel is decoded. Entries
/// are expanded one at a time, each within `WastickersChecker.maxEntryBytes`; folders and the
/// metadata a Mac's Finder adds are passed over.
public enum LineSetChecker {
    /// The most entries read: a set holds at most 40 stickers and its two pictures; an archive
    /// with more files is named and not read.
    public static let maxEntries = 64

    /// Whether the archive `reader` reads is a LINE set: it holds LINE's main or chat tab image
    /// (`main.png`, `tab.png`) at its root.
    public static func isLineSet(_ reader: ZipReader) -> Bool {
        let pictures = Set(LinePack.pictureNames)
        return reader.entries.contains { !$0.isFolder && !$0.isFinderMetadata && pictures.contains($0.name.lowercased()) }
    }

    /// Checks the archive `bytes`; `path` names it in the report (and, followed by each entry's
    /// name, its entries).
    public static func check(_ bytes: [UInt8], path: String) -> LineSetCheckReport {
        let target = StickerTarget.line
        var report = LineSetCheckReport(path: path, stickers: [], pictures: [], findings: [])
        guard let (zip, entries) = PackArchive.open(bytes, maxEntries: maxEntries, tooMany: {
            "\($0) files: a LINE set holds at most \(LinePack.stillCounts.last ?? 0) stickers and its main and chat tab images; not read"
        }, findings: &report.findings) else { return report }
        func inside(_ e: ZipEntry) -> String { path + "/" + e.name }
        var setFindings: [StickerFinding] = []
        var pictures: [String: StickerCheckReport] = [:]
        var stickerNames: [String] = []
        for e in entries {
            let lower = e.name.lowercased()
            let data: [UInt8]
            do { data = try zip.contents(of: e, limit: WastickersChecker.maxEntryBytes) } catch {
                let unread = StickerCheckReport.unreadable(path: inside(e), bytes: e.size, "\(error)")
                if LinePack.pictureNames.contains(lower) { pictures[lower] = unread } else { report.stickers.append(unread) }
                continue
            }
            if let icon = target.packIcons.first(where: { $0.fileName == lower }) {
                pictures[lower] = PlatformChecker.check(data, path: inside(e), packIcon: icon, target: target)
                continue
            }
            let format = ImageDecoder.sniff(data)
            if format == .png || format == .apng || lower.hasSuffix(".png") {
                report.stickers.append(PlatformChecker.check(data, path: inside(e), target: target))
                stickerNames.append(e.name)
            } else {
                let what = format.map { "a \($0.displayName)" } ?? Artwork.otherFormat(of: Array(data.prefix(64))) ?? "not an image"
                report.findings.append(.init(.warning, .notASticker, "\(what), no part of a LINE set (PNG stickers, "
                                             + LinePack.pictureNames.joined(separator: " and ") + ")", path: inside(e)))
            }
        }
        report.pictures = LinePack.pictureNames.compactMap { pictures[$0] }
        for icon in target.packIcons where pictures[icon.fileName] == nil {
            setFindings.append(.init(.error, .missingFile, "no \(icon.fileName): a LINE set needs its \(icon.role) (\(icon.dimensions) PNG)"))
        }
        let readable = report.stickers.filter { $0.facts.format != nil }
        let animations = readable.filter { $0.facts.frames > 1 }.count
        do { try LinePack.check(count: report.stickers.count, animations: animations) } catch {
            if case .mixedKinds = error { setFindings.append(.init(.error, .mixedKinds, error.description)) } else {
                setFindings.append(.init(.error, .stickerCount, error.description))
            }
        }
        // LINE matches a set's stickers by name: 01.png to the set's count, each once.
        let expected = Set((0..<stickerNames.count).map(LinePack.stickerName))
        let misnamed = stickerNames.filter { !expected.contains($0.lowercased()) }
        if !misnamed.isEmpty {
            setFindings.append(.init(.warning, .notASticker, "LINE takes a set of \(stickerNames.count) stickers named 01.png to "
                                     + "\(LinePack.stickerName(stickerNames.count - 1)); named otherwise: " + misnamed.prefix(5).joined(separator: ", ") + (misnamed.count > 5 ? ", …" : "")))
        }
        if let main = pictures[LinePack.pictureNames[0]], main.facts.format != nil, !readable.isEmpty {
            let animatedSet = animations == readable.count, animatedMain = main.facts.frames > 1
            if animatedSet != animatedMain {
                setFindings.append(.init(.warning, .format, animatedSet
                    ? "the main image is a still: LINE asks for an animated set's main image as an animation (APNG)"
                    : "the main image is an animation: LINE shows a set of stills with a still main image", path: main.path))
            }
        }
        if bytes.count > LinePack.maxArchiveBytes {
            setFindings.append(.init(.error, .budget, "\(StickerChecker.grouped(bytes.count)) bytes: LINE takes an archive of at most "
                                     + "\(StickerChecker.grouped(LinePack.maxArchiveBytes)) in one upload"))
        }
        report.findings = setFindings + report.findings
        return report
    }
}
