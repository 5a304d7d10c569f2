import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

extension CheckRun {
    /// `check --platform`: every file given, and every sticker file under the folders given
    /// (images and WebM videos, found as `check` finds them: `InputDiscovery` reading stickers;
    /// catalogs are Messages' own and are not looked into), checked against `target`'s rules
    /// (`PlatformChecker`).
    static func run(paths: [String], target: StickerTarget) -> (report: CheckReport, failed: [CommandFailure], skipped: Skipped) {
        var failed: [CommandFailure] = []
        var skipped = Skipped()
        var stickers: [StickerCheckReport] = []
        for path in paths {
            for file in search(path, failed: &failed, skipped: &skipped).files {
                stickers.append(checkFile(file) { PlatformChecker.check($0, path: file.path, target: target) })
            }
        }
        return (CheckReport(stickers: stickers, packs: []), failed, skipped)
    }
}
