/// One input file and where it sits relative to the folder it was found in; or one entry of an
/// archive (a WhatsApp pack given to `resize`, `ArchiveInputs`).
struct InputFile: Sendable, Hashable {
    /// The path as found (as given, then down the folders), with the bytes of the file system;
    /// for an archive's entry, the archive's.
    var location: BytePath
    /// Relative to the input folder, or the file name for a file argument: mirrored in the
    /// output folder.
    var relative: BytePath
    /// Which file it is, when known (found by discovery).
    var id: FileID?
    /// The entry's name in the archive at `location`, when the input is one.
    var entry: String?

    init(location: BytePath, relative: BytePath, id: FileID? = nil, entry: String? = nil) {
        self.location = location
        self.relative = relative
        self.id = id
        self.entry = entry
    }

    /// How messages and the report name the input: its path, or the archive's path and the
    /// entry's name (`Cats.wastickers/01.webp`, as `check` names it).
    var shown: BytePath { Self.naming(location, entry) }

    /// `archive/entry` for an archive's entry (the path `check` names it by), else the path.
    static func naming(_ path: BytePath, _ entry: String?) -> BytePath {
        guard let entry else { return path }
        return BytePath(bytes: path.bytes + [0x2F] + Array(entry.utf8))
    }

    init(path: String, relativePath: String) {
        self.init(location: BytePath(path), relative: BytePath(relativePath))
    }

    /// `shown` as a string (escaped where its bytes are not UTF-8), for reports and messages.
    var path: String { shown.string ?? shown.display }
    /// `relative` as a string (escaped where its bytes are not UTF-8).
    var relativePath: String { relative.string ?? relative.display }

    static func == (a: InputFile, b: InputFile) -> Bool { a.location == b.location && a.relative == b.relative && a.entry == b.entry }
    func hash(into h: inout Hasher) {
        h.combine(location)
        h.combine(relative)
        h.combine(entry)
    }
}
