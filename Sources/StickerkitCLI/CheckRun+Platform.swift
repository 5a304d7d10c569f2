import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

extension CheckRun {
    /// `check --platform`: every file given, and every sticker file under the folders given
    /// (images and WebM videos), checked against `target`'s rules (`PlatformChecker`).
    static func run(paths: [String], target: StickerTarget) throws -> CheckReport {
        var stickers: [StickerCheckReport] = []
        let fm = FileManager.default
        for path in paths {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
                throw CommandExit.usage("\(path): error: no such file or folder")
            }
            let files = isDir.boolValue ? platformFiles(under: path) : [path]
            for file in files {
                guard let data = fm.contents(atPath: file) else {
                    stickers.append(StickerCheckReport(path: file, bytes: 0, facts: StickerFacts(format: nil), transparent: nil,
                                                       findings: [StickerFinding(.error, .unreadable, "cannot read the file")]))
                    continue
                }
                stickers.append(PlatformChecker.check([UInt8](data), path: file, target: target))
            }
        }
        return CheckReport(stickers: stickers, packs: [])
    }

    /// Sticker files below `root`, sorted, hidden entries skipped: image files and `.webm`
    /// (catalogs are Messages' own and are not looked into).
    static func platformFiles(under root: String) -> [String] {
        imageFiles(under: root, extensions: imageExtensions.union(["webm"])).files
    }
}
