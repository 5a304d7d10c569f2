import ArgumentParser

/// `--report FILE.json`: the JSON report of a batch. It may replace an earlier report, never
/// anything else (`PathChecks`). `--report -` writes it to standard output, where nothing else
/// is then written.
struct ReportOption: ParsableArguments {
    @Option(name: .long, help: "Write a JSON report of every file to this path (- for standard output), with each sticker's SSIM and PSNR (an earlier report there is replaced; any other file is refused).",
            completion: .file(extensions: ["json"]))
    var report: String?

    func validate() throws {
        try PathArgument.requireNonEmpty(report, "--report", naming: "a file, e.g. report.json")
    }

    /// `--report -`: the report goes to standard output.
    var toStandardOutput: Bool { report == "-" }

    /// `--report` as the file system names it; nil without one, or for standard output.
    var path: BytePath? { toStandardOutput ? nil : report.map(CommandLineBytes.path(for:)) }
}
