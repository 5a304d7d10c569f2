import ArgumentParser

/// Where a command writes, and what it may replace there: `-o`, `--force`, `--overwrite`, one
/// meaning for every command (the ownership model, `Ownership`).
struct OutputFlags: ParsableArguments {
    @Option(name: .shortAndLong, help: "Output folder (created if missing).", completion: .directory)
    var output: String

    @Flag(name: .long, help: "Redo what stickerkit wrote in the output folder, even what is up to date. Never replaces files it did not write.")
    var force = false

    @Flag(name: .long, help: "Also replace files in the output folder that stickerkit did not write (never folders, never inputs).")
    var overwrite = false

    func validate() throws {
        try PathArgument.requireNonEmpty(output, "-o", naming: "the output folder")
    }

    /// `-o` as the file system names it.
    var path: BytePath { CommandLineBytes.path(for: output) }
}
