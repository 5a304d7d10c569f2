/// A batch's totals, per output (a file asked for three sizes counts three times), read off its
/// report entries.
struct BatchCounts: Sendable, Equatable {
    /// Outputs written.
    var converted = 0
    /// Outputs not converted: up to date, in the way of a file that is not ours, or below the
    /// minimum quality.
    var skipped = 0
    var failed = 0
    /// Bytes of the outputs written.
    var bytesWritten = 0

    init(_ files: [BatchReport.File]) {
        for output in files.flatMap(\.outputs) {
            switch output.status {
            case .written:
                converted += 1
                bytesWritten += output.details?.bytes ?? 0
            case .upToDate, .adopted, .skipped: skipped += 1
            case .failed: failed += 1
            }
        }
    }
}
