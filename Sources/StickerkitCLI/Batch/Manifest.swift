import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What stickerkit wrote into an output folder, so that a rerun skips work that is up to date
/// and redoes work whose input or settings changed.
///
/// One JSON object per line in `DIR/.stickerkit-manifest.jsonl`, appended (O_APPEND, one write per
/// line) after each output is renamed into place; the last line for an output wins. An
/// interrupted run loses at most the line of the output being finished, and that output is then
/// simply redone.
final class Manifest: Sendable {
    struct Entry: Codable, Equatable, Sendable {
        /// Output path relative to the output folder.
        var output: String
        var input: String
        var inputBytes: Int
        var inputModified: Double
        var settings: String
        var outputBytes: Int
    }

    static let fileName = ".stickerkit-manifest.jsonl"

    let path: String
    /// The last entry per output; its lock also keeps appends in the order of the entries.
    private let entries: Locked<[String: Entry]>

    init(directory: String) {
        path = (directory as NSString).appendingPathComponent(Manifest.fileName)
        var read: [String: Entry] = [:]
        if let data = FileManager.default.contents(atPath: path) {
            let dec = JSONDecoder()
            for line in data.split(separator: UInt8(ascii: "\n")) {
                if let e = try? dec.decode(Entry.self, from: Data(line)) { read[e.output] = e }
            }
        }
        entries = Locked(read)
    }

    /// The recorded entry for an output, if any.
    func entry(for output: String) -> Entry? {
        entries.withLock { $0[output] }
    }

    /// Appends an entry (creating the folder and file when needed).
    func record(_ e: Entry) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let line = try? encoder.encode(e) + [0x0A]
        entries.withLock { entries in
            entries[e.output] = e
            guard let line else { return }
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            guard fd >= 0 else { return }
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
            close(fd)
        }
    }

    /// Size and modification time of a file, the cheap fingerprint of an input.
    static func fingerprint(_ path: String) -> (bytes: Int, modified: Double)? {
        guard let a = try? FileManager.default.attributesOfItem(atPath: path),
              let size = (a[.size] as? NSNumber)?.intValue,
              let date = a[.modificationDate] as? Date else { return nil }
        return (size, date.timeIntervalSince1970)
    }
}
