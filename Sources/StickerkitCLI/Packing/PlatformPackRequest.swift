import StickerKit

/// What `pack --platform whatsapp|line` was asked for (`WastickersRun`, `LinePackRun`): the
/// inputs, the archive at `-o`, the picture given with `--icon`, the conversion, and the pack's
/// cache (`PackCache`).
struct PlatformPackRequest {
    var inputs: [String]
    var output: String
    var icon: String?
    var options: ConversionOptions
    var jobs: Int
    /// The pack's cache, and whether every input is converted again.
    var cache: String
    var force: Bool
    var overwrite: Bool
    var quiet: Bool
    /// `--dry-run`: everything but the write (`PlatformPackSteps.dryRun`).
    var dryRun = false
    /// `--report`: a file, `-` for standard output, nil for none.
    var report: String? = nil

    /// `--report -`: standard output carries the report, so result lines go to stderr.
    var reportsToStandardOutput: Bool { report == "-" }
}
