import Foundation
import StickerKit

/// Expands the command line's files and folders into input files, in a stable order.
enum InputDiscovery {
    struct Outcome {
        var files: [InputFile]
        /// Paths that do not exist or cannot be read, with the reason.
        var missing: [(path: String, reason: String)]
        /// Files in folders that are not images (README, SOURCES.md, …), passed over silently.
        var ignored: Int
    }

    static func discover(_ arguments: [String]) -> Outcome {
        var files: [InputFile] = []
        var missing: [(String, String)] = []
        var ignored = 0
        let fm = FileManager.default
        for arg in arguments {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: arg, isDirectory: &isDir) else {
                missing.append((arg, "no such file or folder"))
                continue
            }
            if !isDir.boolValue {
                files.append(InputFile(path: arg, relativePath: (arg as NSString).lastPathComponent))
                continue
            }
            guard let walker = fm.enumerator(atPath: arg) else {
                missing.append((arg, "cannot read folder"))
                continue
            }
            var found: [String] = []
            while let rel = walker.nextObject() as? String {
                let name = (rel as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    if (walker.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { walker.skipDescendants() }
                    continue
                }
                guard (walker.fileAttributes?[.type] as? FileAttributeType) == .typeRegular else { continue }
                let full = (arg as NSString).appendingPathComponent(rel)
                let ext = (name as NSString).pathExtension.lowercased()
                // Artwork is named by a readable format's extension; a file with another name is
                // still taken when its first bytes are an image's (the bytes decide the format).
                if ImageFormat.readableExtensions.contains(ext) || looksLikeImage(full) {
                    found.append(rel)
                } else {
                    ignored += 1
                }
            }
            for rel in found.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                files.append(InputFile(path: (arg as NSString).appendingPathComponent(rel), relativePath: rel))
            }
        }
        return Outcome(files: files, missing: missing, ignored: ignored)
    }

    private static func looksLikeImage(_ path: String) -> Bool {
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let head = [UInt8](h.readData(ofLength: 16))
        return Artwork.format(of: head) != nil
    }
}
