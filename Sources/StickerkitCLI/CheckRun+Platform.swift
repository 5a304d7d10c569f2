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
        // A WhatsApp pack is checked by WhatsApp's rules, whatever app was asked for: say so.
        if target != .whatsapp {
            for i in archives.indices {
                archives[i].findings.insert(.init(.warning, .format, "a WhatsApp pack: checked by WhatsApp's rules, not "
                                                  + target.displayName + "'s"), at: 0)
            }
        }
        // So is a LINE set by LINE's.
        if target != .line {
            for i in lineSets.indices {
                lineSets[i].findings.insert(.init(.warning, .format, "a LINE set: checked by LINE's rules, not "
                                                  + target.displayName + "'s"), at: 0)
            }
        }
        return (CheckReport(stickers: stickers, packs: [], wastickers: archives, lineSets: lineSets), failed, skipped)
    }
}
