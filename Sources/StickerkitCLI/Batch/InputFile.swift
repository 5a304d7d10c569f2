/// One input file and where it sits relative to the folder it was found in.
struct InputFile: Sendable, Hashable {
    /// Path as found (absolute or as given).
    var path: String
    /// Path relative to the input folder, or the file name for a file argument. Mirrored in the
    /// output folder.
    var relativePath: String
}
