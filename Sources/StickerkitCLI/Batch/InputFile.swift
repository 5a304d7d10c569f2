/// One input file and where it sits relative to the folder it was found in.
struct InputFile: Sendable, Hashable {
    /// The path as found (as given, then down the folders), with the bytes of the file system.
    var location: BytePath
    /// Relative to the input folder, or the file name for a file argument: mirrored in the
    /// output folder.
    var relative: BytePath
    /// Which file it is, when known (found by discovery).
    var id: FileID?

    init(location: BytePath, relative: BytePath, id: FileID? = nil) {
        self.location = location
        self.relative = relative
        self.id = id
    }

    init(path: String, relativePath: String) {
        self.init(location: BytePath(path), relative: BytePath(relativePath))
    }

    /// `location` as a string (escaped where its bytes are not UTF-8), for reports and messages.
    var path: String { location.string ?? location.display }
    /// `relative` as a string (escaped where its bytes are not UTF-8).
    var relativePath: String { relative.string ?? relative.display }

    static func == (a: InputFile, b: InputFile) -> Bool { a.location == b.location && a.relative == b.relative }
    func hash(into h: inout Hasher) {
        h.combine(location)
        h.combine(relative)
    }
}
