import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

extension CheckRun {
    /// `check --platform`: every file given, and every sticker file under the folders given
    /// (images and WebM videos, found as `check` finds them: `InputDiscovery` reading stickers;
    /// catalogs are Messages' own and are not looked into: one named is an input that could not
    /// be checked, one found in a folder a warning), checked against `target`'s rules
    /// (`PlatformChecker`).
    static func run(paths: [String], target: StickerTarget) -> (report: CheckReport, failed: [CommandFailure], skipped: Skipped) {
        var failed: [CommandFailure] = []
        var skipped = Skipped()
        var stickers: [StickerCheckReport] = []
        var archives: [WastickersCheckReport] = []
        var lineSets: [LineSetCheckReport] = []
        var seen = Set<InputDiscovery.SameInput>()
        for path in paths {
            let found = search(path, failed: &failed, skipped: &skipped, seen: &seen)
            let named = CommandLineBytes.path(for: path)
            for catalog in found.catalogs {
                let why = "a Messages sticker catalog, not checked against \(target.displayName)'s rules (check it without --platform)"
                if catalog == named {
                    failed.append(.failed(path, why))
                } else {
                    skipped.links.append(Notice(catalog, "skipped: " + why))
                }
            }
            for file in found.files {
                switch checkFile(file, { PlatformChecker.check($0, path: $1, target: target) }) {
                case .sticker(let r): stickers.append(r)
                case .images(let all): stickers += all
                case .archive(let a): archives.append(a)
                case .lineSet(let l): lineSets.append(l)
                }
            }
            archives += found.archives.map(checkArchive)
        }
        markTwins(&stickers, target: target)
        // A WhatsApp pack is checked by WhatsApp's rules and a LINE set by LINE's, whatever app
        // was asked for: say so.
        func ruledBy(_ app: StickerTarget, _ what: String, _ findings: inout [StickerFinding]) {
            guard app != target else { return }
            findings.insert(.init(.warning, .format, "\(what): checked by \(app.displayName)'s rules, not \(target.displayName)'s"), at: 0)
        }
        for i in archives.indices { ruledBy(.whatsapp, "a WhatsApp pack", &archives[i].findings) }
        for i in lineSets.indices { ruledBy(.line, "a LINE set", &lineSets[i].findings) }
        return (CheckReport(stickers: stickers, packs: [], wastickers: archives, lineSets: lineSets), failed, skipped)
    }

    /// A pack picture found under both of its names in one folder (Telegram's `thumbnail.png`
    /// and `thumbnail.webm`; `StickerTarget.fileNames(of:)`): each gets a warning naming the
    /// other, since the app takes one.
    static func markTwins(_ reports: inout [StickerCheckReport], target: StickerTarget) {
        for icon in target.packIcons {
            let names = target.fileNames(of: icon)
            guard names.count > 1 else { continue }
            var byFolder: [String: [Int]] = [:]
            for (i, r) in reports.enumerated() where names.contains((r.path as NSString).lastPathComponent) {
                byFolder[(r.path as NSString).deletingLastPathComponent, default: []].append(i)
            }
            for indices in byFolder.values where indices.count > 1 {
                for i in indices {
                    let others = indices.filter { $0 != i }.map { (reports[$0].path as NSString).lastPathComponent }
                    reports[i].findings.append(.init(.warning, .duplicate, "\(others.joined(separator: ", ")) is beside it: "
                                                     + "\(target.displayName) takes one \(icon.role); remove the one you do not want"))
                }
            }
        }
    }
}
