/// What was wrong with a manifest file when a batch opened it; each is named in a warning, and
/// the manifest is rebuilt rather than trusted or ignored.
enum ManifestProblem: Equatable, Sendable, CustomStringConvertible {
    /// Some lines are not records (`cutShort`: the last one has no newline).
    case damagedLines(unreadable: Int, of: Int, cutShort: Bool, kept: Int)
    /// Not a regular file; moved to `movedTo` (in the same folder) when it was in the way.
    case notAFile(FileStatus.Kind, movedTo: BytePath?)
    /// A symbolic link: never followed; replaced by a real file (its target is left alone).
    case symbolicLink
    /// It could not be read at all.
    case unreadable(FileError.Problem)

    var description: String {
        switch self {
        case let .damagedLines(unreadable, total, cutShort, kept):
            let what = unreadable == total ? "no line is a record"
                : "\(unreadable) of \(total) line\(total == 1 ? " is" : "s are") not records"
            return "damaged manifest (\(what)\(cutShort ? ", the last one cut short" : "")); rebuilt from the "
                + "\(kept) readable record\(kept == 1 ? "" : "s") and the stickers present"
        case let .notAFile(kind, movedTo):
            return "is \(kind.noun), not stickerkit's manifest; "
                + (movedTo.map { "moved it to \($0.display) and started a new manifest" } ?? "left alone and not read")
        case .symbolicLink:
            return "is a symbolic link; not followed: replaced by a new manifest (its target is left alone)"
        case .unreadable(let problem):
            return "cannot read the manifest (\(problem)); rebuilt from the stickers present"
        }
    }
}
