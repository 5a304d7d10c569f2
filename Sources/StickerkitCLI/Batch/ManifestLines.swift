import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The records of one manifest file, and how much of it could not be read.
struct ManifestLines: Sendable {
    var records: [ManifestRecord] = []
    /// Lines (blank ones aside) that are not a record: garbage, zeros, two records glued together
    /// by an append that was cut short.
    var unreadable = 0
    /// Lines, blank ones aside.
    var total = 0
    /// Whether the file does not end with a newline: its last append was cut short.
    var cutShort = false

    var isDamaged: Bool { unreadable > 0 || cutShort }

    /// The longest line read as a record (a record is a few hundred bytes, its paths at most a
    /// few kilobytes): a longer one is unreadable, and never held whole, so a file of any size at
    /// the manifest's name is read in bounded memory (a 1.5 GB one held 3.1 GB for 17 s).
    static let maxLineBytes = 1 << 20

    /// The line read so far, not yet ended by a newline.
    private var pending: [UInt8] = []
    /// Whether the line read so far passed `maxLineBytes` (its bytes are dropped).
    private var overlong = false

    init() {}

    /// The records of the whole file `bytes`.
    init(parsing bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
        end()
    }

    /// The records of a file `read` hands over in pieces (to the function it is given).
    init(reading read: ((UnsafeRawBufferPointer) -> Void) throws(FileError) -> Void) throws(FileError) {
        var lines = ManifestLines()
        try read { lines.add($0) }
        lines.end()
        self = lines
    }

    /// Reads the next part of the file.
    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var start = 0
        while start < bytes.count {
            guard let base = bytes.baseAddress, let found = memchr(base + start, 0x0A, bytes.count - start) else {
                append(UnsafeRawBufferPointer(rebasing: bytes[start...]))
                return
            }
            let newline = UnsafeRawPointer(found) - base
            append(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]))
            line()
            start = newline + 1
        }
    }

    /// Ends the file: a last line without its newline was cut short.
    mutating func end() {
        if !pending.isEmpty || overlong {
            cutShort = true
            line()
        }
    }

    private mutating func append(_ part: UnsafeRawBufferPointer) {
        guard !overlong else { return }
        if pending.count + part.count > Self.maxLineBytes {
            overlong = true
            pending = []
        } else {
            pending.append(contentsOf: part)
        }
    }

    /// Takes the line read so far.
    private mutating func line() {
        defer {
            pending.removeAll(keepingCapacity: true)
            overlong = false
        }
        if overlong {
            total += 1
            unreadable += 1
            return
        }
        if pending.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        total += 1
        if let record = try? JSONDecoder().decode(ManifestRecord.self, from: Data(pending)) {
            records.append(record)
        } else {
            unreadable += 1
        }
    }
}
