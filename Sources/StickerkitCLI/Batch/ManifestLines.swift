import Foundation

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

    init(parsing bytes: [UInt8]) {
        let decoder = JSONDecoder()
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (i, line) in lines.enumerated() {
            let isLast = i == lines.count - 1
            if isLast && !line.isEmpty { cutShort = true }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
            total += 1
            if let record = try? decoder.decode(ManifestRecord.self, from: Data(line)) {
                records.append(record)
            } else {
                unreadable += 1
            }
        }
    }
}
