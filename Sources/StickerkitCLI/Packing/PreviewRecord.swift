import Foundation

/// The files `preview` wrote into its folder (`.stickerkit-preview.json`), so that the next run
/// removes those it does not write again (a sticker gone from the inputs) and nothing else.
struct PreviewRecord: Codable {
    static let fileName = ".stickerkit-preview.json"

    var version = 1
    /// Paths relative to the preview folder.
    var files: [String]

    /// The largest record read (about 50 bytes a file shown): a larger file at its name is not
    /// read (a 1.5 GB one was read whole, 1.56 GB resident), and no file is taken as recorded.
    static let maxBytes = 16 << 20

    static func read(in folder: String) -> PreviewRecord {
        let path = (folder as NSString).appendingPathComponent(fileName)
        guard let size = (try? FileStatus.of(BytePath(path)))??.bytes, size <= maxBytes,
              let data = FileManager.default.contents(atPath: path),
              let record = try? JSONDecoder().decode(PreviewRecord.self, from: data) else { return PreviewRecord(files: []) }
        return record
    }

    func write(in folder: String) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write([UInt8](try enc.encode(self)) + [0x0A], to: (folder as NSString).appendingPathComponent(Self.fileName))
    }

    /// Removes the recorded files not in `keep` (only plain relative paths inside `folder`);
    /// returns how many were removed.
    func removeStale(keeping keep: Set<String>, in folder: String) -> Int {
        var removed = 0
        for rel in files where !keep.contains(rel) && !rel.hasPrefix("/") && !rel.split(separator: "/").contains("..") {
            let path = (folder as NSString).appendingPathComponent(rel)
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
        }
        return removed
    }
}
