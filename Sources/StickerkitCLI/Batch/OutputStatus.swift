/// What became of one output of a batch. The report writes it as a `status` ("written",
/// "skipped" or "failed") and a `reason`.
enum OutputStatus: Sendable, Equatable {
    /// Converted and written.
    case written
    /// Not converted: written before from the same input with the same settings.
    case upToDate
    /// Not written: a file that was not in the manifest (lost or damaged) is exactly what the
    /// conversion gives, so it is recorded as ours again.
    case adopted
    /// Not converted, for `reason` (a file that is not ours is in the way, or the quality would be
    /// below the minimum).
    case skipped(reason: String)
    /// Nothing written, for `reason`.
    case failed(reason: String)

    /// The report's `status`.
    var status: String {
        switch self {
        case .written: "written"
        case .upToDate, .adopted, .skipped: "skipped"
        case .failed: "failed"
        }
    }

    /// The report's `reason`, if any.
    var reason: String? {
        switch self {
        case .written: nil
        case .upToDate: "up to date"
        case .adopted: "up to date (recorded again: the file is exactly what stickerkit makes)"
        case let .skipped(reason), let .failed(reason): reason
        }
    }

    /// Whether the output file holds this input's sticker (just written, or up to date).
    var hasSticker: Bool { self == .written || self == .upToDate || self == .adopted }

    var isFailure: Bool { if case .failed = self { true } else { false } }
}
