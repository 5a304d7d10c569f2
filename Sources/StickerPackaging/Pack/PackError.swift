import StickerKit
/// Why a catalog could not be written or a labels file read. Each case carries the values its
/// message names.
public enum PackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file of the catalog or icon set could not be written; `reason` is the system's.
    case cannotWrite(path: String, reason: String)
    /// A JSON labels file is neither `{"file": "label", …}` nor `[{"file": …, "label": …}, …]`.
    case labelsNotAMapping(file: String)
    /// A CSV labels row (1-based `line`) has fewer than the two fields `file,label`.
    case labelsRowTooShort(file: String, line: Int, fields: Int)
    /// A CSV labels file ends inside a quoted field.
    case labelsUnterminatedQuote(file: String)

    /// One line for people, naming the values.
    public var description: String {
        switch self {
        case let .cannotWrite(path, reason):
            "\(path): cannot write (\(reason))"
        case let .labelsNotAMapping(file):
            "\(file): labels JSON must be {\"file\": \"label\", …} or [{\"file\": …, \"label\": …}, …]"
        case let .labelsRowTooShort(file, line, fields):
            "\(file): line \(line) has \(fields) field; expected file,label"
        case let .labelsUnterminatedQuote(file):
            "\(file): unterminated quoted field"
        }
    }
}
