import Foundation
import StickerKit
import StickerPackaging

/// One path given to `preview`: a sticker file, a sticker catalog or pack (shown in the pack's
/// order with its labels, sequences as animations), or a folder searched for both.
enum PreviewInput {
    case file(String)
    case catalog(String)
    case folder(String)

    /// nil when nothing is at `path`.
    init?(_ path: String) {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return nil }
        if !isDir.boolValue { self = .file(path); return }
        let ext = (path.hasSuffix("/") ? String(path.dropLast()) : path as String) as NSString
        self = ["xcstickers", "stickerpack"].contains(ext.pathExtension.lowercased()) ? .catalog(path) : .folder(path)
    }

    func items(rules: CheckRules) throws -> [Preview.Item] {
        switch self {
        case .file(let path):
            return [try Self.fileItem(path, rules: rules, report: nil)]
        case .catalog(let path):
            let report = CheckRun.checkAsCatalog(path, rules: rules)!
            return try report.stickers.map { try Self.catalogItem($0, rules: rules) }
        case .folder(let path):
            let (files, catalogs) = CheckRun.imageFiles(under: path)
            return try catalogs.flatMap { try PreviewInput.catalog($0).items(rules: rules) }
                + files.map { try Self.fileItem($0, rules: rules, report: nil) }
        }
    }

    static func fileItem(_ path: String, rules: CheckRules, report: StickerCheckReport?) throws -> Preview.Item {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandExit.failure("\(path): error: \(PathProblem.describe(path, expecting: .file))")
        }
        let bytes = [UInt8](data)
        return Preview.Item(bytes: bytes, name: (path as NSString).lastPathComponent,
                            report: report ?? StickerChecker.check(bytes, path: path, rules: rules),
                            inCatalog: report != nil, firstFrame: bytes)
    }

    /// A sticker of a catalog; a sequence becomes one APNG of its frames.
    static func catalogItem(_ report: StickerCheckReport, rules: CheckRules) throws -> Preview.Item {
        guard let frames = report.sequenceFrames else { return try fileItem(report.path, rules: rules, report: report) }
        let name = (report.path as NSString).lastPathComponent
        let files = frames.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
        guard let first = files.first else {
            throw CommandExit.failure("\(report.path): error: the sequence has no frames to show")
        }
        let apng: [UInt8]
        do {
            apng = try SequencePreview.apng(frames: files, durationMs: report.facts.durationMs ?? Double(files.count) * 100,
                                            loopCount: report.facts.loopCount ?? 0)
        } catch {
            throw CommandExit.failure("\(report.path): error: \(error)")
        }
        return Preview.Item(bytes: apng, name: name, report: report, inCatalog: true, firstFrame: first)
    }
}
