import ArgumentParser

/// `--report FILE.json`: the JSON report of a batch. It may replace an earlier report, never
/// anything else (`PathChecks`).
struct ReportOption: ParsableArguments {
    @Option(name: .long, help: "Write a JSON report of every file to this path, with each sticker's SSIM and PSNR (an earlier report there is replaced; any other file is refused).",
            completion: .file(extensions: ["json"]))
    var report: String?

    func validate() throws {
        try PathArgument.requireNonEmpty(report, "--report", naming: "a file, e.g. report.json")
    }

    /// `--report` as the file system names it.
    var path: BytePath? { report.map(CommandLineBytes.path(for:)) }
}
