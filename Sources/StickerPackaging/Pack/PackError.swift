/// Why a catalog could not be written or a labels file read. Each case carries the values its
/// message names.
public enum PackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file of the catalog or icon set could not be written; `reason` is the system's.
    case cannotWrite(path: String, reason: String)
    /// The catalog's path holds a file, or a folder that is not a sticker catalog: it is replaced
    /// only when asked (`overwrite`).
    case notACatalog(path: String, isFile: Bool)
    /// A JSON file of an existing catalog (its pack's Contents.json, stickerkit's record) does not
    /// read, so the catalog cannot be updated without guessing what is in it.
    case unreadableCatalogFile(path: String, reason: String)
    /// A sticker stored on disk (`CatalogSticker.Content.storedFile`, `.storedSequence`) could
    /// not be read when the catalog was written; `reason` is the system's.
    case cannotReadSticker(path: String, reason: String)
    /// The catalog's icon set holds files stickerkit does not write (hand-made icons); `files`
    /// names a few. Replaced only when asked (`overwrite`).
    case iconSetNotStickerkits(path: String, files: [String])
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
        case let .notACatalog(path, isFile):
            "\(path): \(isFile ? "is a file" : "is a folder that is not a sticker catalog"), not replaced"
        case let .unreadableCatalogFile(path, reason):
            "\(path): cannot read (\(reason)); the catalog is left as it is"
        case let .cannotReadSticker(path, reason):
            "\(path): cannot read the converted sticker (\(reason)); the catalog is left as it is"
        case let .iconSetNotStickerkits(path, files):
            "\(path): holds icons stickerkit did not make (\(files.joined(separator: ", "))), not replaced"
        case let .labelsNotAMapping(file):
            "\(file): labels JSON must be {\"file\": \"label\", …} or [{\"file\": …, \"label\": …}, …]"
        case let .labelsRowTooShort(file, line, fields):
            "\(file): line \(line) has \(fields) field\(fields == 1 ? "" : "s"); expected file,label"
        case let .labelsUnterminatedQuote(file):
            "\(file): unterminated quoted field"
        }
    }
}
