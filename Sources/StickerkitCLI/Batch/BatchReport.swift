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

    /// The largest file read to see whether it is a report (a batch's report takes about a
    /// kilobyte per input): a larger one is not read, whatever it holds.
    static let largestRead = 64 << 20

    /// Whether the regular file at `path`, of `size` bytes, is a report: only a file of JSON
    /// (its first byte past white space a `{`) within `largestRead` is read and parsed, so a
    /// large file named by mistake is not read whole (1.5 GB held 3.9 GB for 13 s).
    static func isReport(at path: BytePath, size: Int) -> Bool {
        guard size <= largestRead,
              let head = FileSystem.readHead(path, count: 64),
              head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{"),
              let bytes = try? FileSystem.readFile(path) else { return false }
        return isReport(bytes)
    }

    /// Whether `bytes` are a report (so an earlier report may be replaced, and nothing else).
    static func isReport(_ bytes: [UInt8]) -> Bool {
        guard let json = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return false }
        // `resize` lists its files; `pack` (`PackReport`, `ArchivePackReport`) its catalog or
        // archive and inputs.
        let listed = json["files"] is [Any] || ((json["catalog"] is String || json["archive"] is String) && json["inputs"] is [Any])
        return json["version"] is Int && listed && json["summary"] is [String: Any] && json["maxBytes"] is Int
    }

    func write(to path: BytePath) throws(FileError) {
        guard let json = Self.json(self) else { throw FileError(.write, path, .system(EINVAL)) }
        try AtomicFile.write(json, to: path)
    }

    /// A report's JSON as written (pretty, keys sorted, a final newline).
    static func json<Report: Encodable>(_ report: Report) -> [UInt8]? {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? enc.encode(report)).map { [UInt8]($0) + [0x0A] }
    }

    /// Writes a report where `pack --report ARGUMENT` asks: standard output for `-`, else the file,
    /// atomically; one line naming the file when it cannot be written.
    static func deliver<Report: Encodable>(_ report: Report, to argument: String) throws(CommandFailure) {
        if argument == "-" { return writeToStandardOutput(report) }
        guard let json = json(report) else { throw CommandFailure.failed(argument, "cannot write the report: it does not encode as JSON") }
        do throws(FileError) { try AtomicFile.write(json, to: CommandLineBytes.path(for: argument)) } catch {
            throw CommandFailure.failed(argument, "cannot write the report: \(error.problem)")
        }
    }

    /// Writes a report's JSON to standard output (`--report -`).
    static func writeToStandardOutput<Report: Encodable>(_ report: Report) {
        if let json = json(report) { FileHandle.standardOutput.write(Data(json)) }
    }
}
