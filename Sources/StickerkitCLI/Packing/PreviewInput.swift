import Foundation
import StickerKit
import StickerPackaging

/// What `preview` shows of one path given: a sticker file, a sticker catalog or pack (shown in
/// the pack's order with its labels, sequences as animations), or a folder searched for both as
/// `check` searches it (`InputDiscovery` reading stickers).
enum PreviewInput {
    /// The stickers found at `path` (none when nothing usable is there: `found.missing` says why),
    /// and what the search found and skipped.
    static func items(_ path: String, rules: CheckRules) throws -> (items: [Preview.Item], found: InputDiscovery.Outcome) {
        let found = InputDiscovery.discover([CommandLineBytes.path(for: path)], excluding: .init(), reading: .stickers)
        var items: [Preview.Item] = []
        for catalog in found.catalogs {
            guard let report = CheckRun.checkAsCatalog(catalog.string ?? catalog.display, rules: rules) else { continue }
            items += try report.stickers.map { try catalogItem($0, rules: rules) }
        }
        items += try found.files.map { try fileItem($0.location, rules: rules, report: nil) }
        return (items, found)
    }

    static func fileItem(_ location: BytePath, rules: CheckRules, report: StickerCheckReport?) throws -> Preview.Item {
        let name = location.lastComponent
        // Too large to hold: shown by its report alone, as `check` judges it.
        if let tooLarge = CheckRun.tooLarge(location, path: location.string ?? location.display) {
            return Preview.Item(bytes: [], name: name.string ?? name.display, report: report ?? tooLarge,
                                inCatalog: report != nil, firstFrame: [])
        }
        let bytes = try PathChecks.readFile(location, failing: .failed)
        return Preview.Item(bytes: bytes, name: name.string ?? name.display,
                            report: report ?? StickerChecker.check(bytes, path: location.string ?? location.display, rules: rules),
                            inCatalog: report != nil, firstFrame: bytes)
    }

    /// A sticker of a catalog; a sequence becomes one APNG of its frames.
    static func catalogItem(_ report: StickerCheckReport, rules: CheckRules) throws -> Preview.Item {
        guard let frames = report.sequenceFrames else { return try fileItem(BytePath(report.path), rules: rules, report: report) }
        let name = (report.path as NSString).lastPathComponent
        let files = frames.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        guard let first = files.first else {
            throw CommandFailure.failed(report.path, "the sequence has no frames to show")
        }
        let apng: [UInt8]
        do {
            apng = try SequencePreview.apng(frames: files, durationMs: report.facts.durationMs ?? Double(files.count) * 100,
                                            loopCount: report.facts.loopCount ?? 0)
        } catch {
            throw CommandFailure.failed(report.path, "\(error)")
        }
        return Preview.Item(bytes: apng, name: name, report: report, inCatalog: true, firstFrame: first)
    }
}
