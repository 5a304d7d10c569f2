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
            let found = InputDiscovery.discover([CommandLineBytes.path(for: path)], excluding: .init(), reading: .stickers)
            failed += found.missing.map { CommandFailure.failed($0.path, $0.reason) }
            skipped.links += found.notices
            skipped.outputs += found.skippedOutputs
            for file in found.files {
                guard let bytes = try? FileSystem.readFile(file.location) else {
                    stickers.append(StickerCheckReport(path: file.path, bytes: 0, facts: StickerFacts(format: nil), transparent: nil,
                                                       findings: [StickerFinding(.error, .unreadable, "cannot read the file")]))
                    continue
                }
                stickers.append(PlatformChecker.check(bytes, path: file.path, target: target))
            }
        }
        return (CheckReport(stickers: stickers, packs: []), failed, skipped)
    }
}
