import Foundation
import StickerKit
import StickerPackaging

/// What `preview` shows of one path given: a sticker file, a sticker catalog or pack (shown in
/// the pack's order with its labels, sequences as animations), or a folder searched for both as
/// `check` searches it (`InputDiscovery` reading stickers).
///
/// Finding the stickers reads none of them (a catalog is checked as `check` checks it, one file
/// at a time); each is read when it is shown (`load`), so a preview holds one sticker's bytes
/// at a time however many it shows.
enum PreviewInput {
    /// The stickers found at `path` but files met in an earlier path under the same name
    /// (`seen`: each is shown once), none when nothing usable is there (`found.missing` says
    /// why), and what the search found and skipped.
    static func items(_ path: String, rules: CheckRules, seen: inout Set<InputDiscovery.SameInput>)
        -> (items: [Preview.Item], found: InputDiscovery.Outcome) {
        var found = InputDiscovery.discover([CommandLineBytes.path(for: path)], excluding: .init(), reading: .stickers)
        found.dropRepeats(seen: &seen)
        var items: [Preview.Item] = []
        for catalog in found.catalogs {
            guard let report = CheckRun.checkAsCatalog(catalog.string ?? catalog.display, rules: rules) else { continue }
            items += report.stickers.map(catalogItem)
        }
        // A WhatsApp pack (a ZIP archive that is one, or a .wastickers in a folder) is shown by
        // its stickers and tray icon, a LINE set by its stickers and its main and chat tab images,
        // checked as `check` checks them; any other ZIP archive by its images, each checked as a
        // sticker.
        for file in found.files {
            guard FileSystem.readHead(file.location, count: 4).map(ZipReader.opensAsZip) == true,
                  CheckRun.tooLarge(file.location, path: file.path) == nil else {
                items.append(fileItem(file.location, report: nil))
                continue
            }
            switch CheckRun.checkFile(file, { StickerChecker.check($0, path: $1, rules: rules) }) {
            case .archive(let report): items += packItems(report, of: file, found: &found)
            case .lineSet(let report): items += packItems(report.stickers + report.pictures, findings: report.findings, of: file, found: &found)
            case .images(let reports): items += reports.map { entryItem($0, of: file) }
            case .sticker(let r): found.missing.append((file.path, r.unreadableReason ?? "cannot read the archive"))
            }
        }
        for archive in found.archives { items += packItems(CheckRun.checkArchive(archive), of: archive, found: &found) }
        return (items, found)
    }

    /// The stickers and tray icon of the WhatsApp pack `file` (`report`, its check), each with
    /// its report (`packItems(_:findings:of:found:)`).
    static func packItems(_ report: WastickersCheckReport, of file: InputFile, found: inout InputDiscovery.Outcome) -> [Preview.Item] {
        packItems(report.stickers + (report.tray.map { [$0] } ?? []), findings: report.findings, of: file, found: &found)
    }

    /// The entries `shown` of the pack archive `file`, each with its report; what the pack's check
    /// found about the pack as a whole (`findings`) is a warning each, and an archive that cannot
    /// be read at all is an input that failed (in `found.missing`).
    static func packItems(_ shown: [StickerCheckReport], findings: [StickerFinding], of file: InputFile,
                          found: inout InputDiscovery.Outcome) -> [Preview.Item] {
        if shown.isEmpty {
            let unread = findings.first { $0.severity == .error && $0.code == .unreadable }
            found.missing.append((file.path, unread?.message ?? "a ZIP archive with no sticker or pack picture in it"))
            return []
        }
        for f in findings where f.severity != .info {
            found.notices.append(Notice(BytePath(f.path ?? file.path), "\(f.code.rawValue): \(f.message)"))
        }
        return shown.map { entryItem($0, of: file) }
    }

    /// The entry of the archive `file` that `report` (named `ARCHIVE/ENTRY`) checked.
    static func entryItem(_ report: StickerCheckReport, of file: InputFile) -> Preview.Item {
        // By bytes: an entry name that opens with a combining mark joins the "/" before it
        // into one Character, so counting Characters would cut into the name.
        let entry = String(decoding: report.path.utf8.dropFirst(file.path.utf8.count + 1), as: UTF8.self)
        return Preview.Item(source: .archiveEntry(archive: file.location, entry: entry), name: BytePath(entry).lastComponent.string ?? entry,
                            report: report, inCatalog: false)
    }

    static func fileItem(_ location: BytePath, report: StickerCheckReport?) -> Preview.Item {
        let name = location.lastComponent
        return Preview.Item(source: .file(location), name: name.string ?? name.display, report: report, inCatalog: report != nil)
    }

    /// A sticker of a catalog; a sequence is shown as one APNG of its frames.
    static func catalogItem(_ report: StickerCheckReport) -> Preview.Item {
        guard let frames = report.sequenceFrames else { return fileItem(BytePath(report.path), report: report) }
        return Preview.Item(source: .sequence(frames: frames), name: (report.path as NSString).lastPathComponent,
                            report: report, inCatalog: true)
    }

    /// One sticker as shown: the bytes its copy holds (nil: none is written), what `check`
    /// found, the bytes its contact-sheet picture is decoded from, and why it could not be shown.
    struct Shown {
        var bytes: [UInt8]? = nil
        var report: StickerCheckReport
        var firstFrame: [UInt8]? = nil
        var failure: CommandFailure? = nil
    }

    /// Reads (or, for a sequence, makes) `item`'s bytes and checks a file not checked yet. A
    /// file that cannot be read from disk, a sequence that cannot be made, and a file `check`
    /// could not read as an image (no image format, a broken structure, too large to hold:
    /// `unreadableReason`) are shown by their report with `failure`, and no copy is made: a
    /// browser would show a broken picture where the page shows why.
    static func load(_ item: Preview.Item, rules: CheckRules) -> Shown {
        switch item.source {
        case .file(let location):
            let path = location.string ?? location.display
            if let tooLarge = CheckRun.tooLarge(location, path: path) {
                let report = item.report ?? tooLarge
                return Shown(report: report, failure: .failed(path, report.unreadableReason ?? tooLarge.unreadableReason!))
            }
            do {
                let bytes = try PathChecks.readFile(location, failing: .failed)
                let report = item.report ?? StickerChecker.check(bytes, path: path, rules: rules)
                if let why = report.unreadableReason { return Shown(report: report, failure: .failed(path, why)) }
                return Shown(bytes: bytes, report: report, firstFrame: bytes)
            } catch {
                return Shown(report: item.report ?? CheckRun.unreadable(path), failure: error)
            }
        case .archiveEntry(let archive, let entry):
            let report = item.report!
            if let why = report.unreadableReason { return Shown(report: report, failure: .failed(report.path, why)) }
            switch ArchiveInputs.bytes(ofEntry: entry, in: archive, limits: .default) {
            case .success(let data): return Shown(bytes: data, report: report, firstFrame: data)
            case .failure(let why): return Shown(report: report, failure: .failed(report.path, why.description))
            }
        case .sequence(let frames):
            let report = item.report!
            let files = frames.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
            guard let first = files.first else {
                return Shown(report: report, failure: .failed(report.path, "the sequence has no frames to show"))
            }
            do {
                let apng = try SequencePreview.apng(frames: files, durationMs: report.facts.durationMs ?? Double(files.count) * 100,
                                                    loopCount: report.facts.loopCount ?? 0)
                return Shown(bytes: apng, report: report, firstFrame: first)
            } catch {
                return Shown(report: report, failure: .failed(report.path, "\(error)"))
            }
        }
    }
}
