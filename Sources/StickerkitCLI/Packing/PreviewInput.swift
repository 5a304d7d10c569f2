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
        // WhatsApp packs found in folders are not shown (their stickers sit inside an archive):
        // each is named, never passed over in silence.
        found.notices += found.archives.map { Notice($0.location, "skipped: a WhatsApp pack (.wastickers), not shown; `stickerkit check` checks it") }
        var items: [Preview.Item] = []
        for catalog in found.catalogs {
            guard let report = CheckRun.checkAsCatalog(catalog.string ?? catalog.display, rules: rules) else { continue }
            items += report.stickers.map(catalogItem)
        }
        items += found.files.map { fileItem($0.location, report: nil) }
        return (items, found)
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
