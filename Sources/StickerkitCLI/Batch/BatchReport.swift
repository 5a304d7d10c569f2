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

    func write(to path: String) throws {
        let enc = JSONEncoder()
        enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try AtomicFile.write([UInt8](try enc.encode(self)) + [0x0A], to: path)
    }
}
