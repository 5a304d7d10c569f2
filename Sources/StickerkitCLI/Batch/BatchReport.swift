import Foundation
import StickerKit

/// The `--report` JSON: per input file what was read, written, skipped or failed, and why.
struct BatchReport: Encodable, Sendable {
    struct File: Encodable, Sendable {
        var input: String
        var format: ImageFormat?
        var width: Int?
        var height: Int?
        var frames: Int?
        var warnings: [String]
        var error: String?
        var outputs: [Output]
    }

    struct Summary: Encodable, Sendable {
        var files: Int
        var converted: Int
        var skipped: Int
        var failed: Int
        var bytesWritten: Int
        var seconds: Double
    }

    var version = 1
    var maxBytes: Int
    var files: [File]
    var summary: Summary
    /// What the user must know beyond single inputs (links skipped, a manifest rebuilt); left
    /// out when there is nothing.
    var notices: [Notice]? = nil

    /// Whether `bytes` are a report (so an earlier report may be replaced, and nothing else).
    static func isReport(_ bytes: [UInt8]) -> Bool {
        guard let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return false }
        return json["version"] is Int && json["files"] is [Any] && json["summary"] is [String: Any] && json["maxBytes"] is Int
    }

    func write(to path: BytePath) throws(FileError) {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let json = try? enc.encode(self) else { throw FileError(.write, path, .system(EINVAL)) }
        try AtomicFile.write([UInt8](json) + [0x0A], to: path)
    }
}
