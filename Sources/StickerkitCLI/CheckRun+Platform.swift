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

    /// Sticker files below `root`, sorted, hidden entries skipped: image files and `.webm`.
    static func platformFiles(under root: String) -> [String] {
        var out: [String] = []
        func walk(_ dir: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let p = (dir as NSString).appendingPathComponent(name)
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: p, isDirectory: &isDir) else { continue }
                let ext = (name as NSString).pathExtension.lowercased()
                if isDir.boolValue { walk(p) } else if imageExtensions.contains(ext) || ext == "webm" { out.append(p) }
            }
        }
        walk(root)
        return out
    }
}
