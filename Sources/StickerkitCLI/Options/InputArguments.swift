import ArgumentParser

/// The inputs of every command that reads artwork or stickers: files or folders, searched
/// recursively (`InputDiscovery`). Shell completion offers file and folder names.
struct InputArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("Input files or folders (folders are searched recursively).", valueName: "inputs"),
              completion: .file())
    var inputs: [String]

    /// The inputs as the file system names them.
    var paths: [BytePath] { inputs.map(CommandLineBytes.path(for:)) }
}
