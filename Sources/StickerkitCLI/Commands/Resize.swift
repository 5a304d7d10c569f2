import ArgumentParser
import Foundation
import StickerKit

struct Resize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert images and folders into stickers.",
        discussion: """
        Inputs are files or folders (searched recursively; the folder structure is mirrored in the \
        output folder). Stills become PNG, animations APNG, each exactly 300, 408 or 618 px square and \
        within the byte budget. Existing outputs are left alone unless --overwrite.
        Exit status: 0 all converted, 1 some files failed (each named on stderr), 2 usage error.
        """)

    @Argument(help: "Input files or folders.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output folder (created if missing).")
    var output: String

    @OptionGroup var conversion: ConversionFlags

    @Option(name: .shortAndLong, help: "Files converted at once (default: all cores).")
    var jobs: Int?

    @Flag(name: .long, help: "Replace outputs that already exist (outputs stickerkit wrote itself are redone anyway when their input or settings change).")
    var overwrite = false

    @Flag(name: .long, help: "Redo every output, even those that are up to date.")
    var force = false

    @Option(name: .long, help: "Write a JSON report of every file to this path.")
    var report: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "On a terminal, say what was chosen for every sticker (mode, colours, frames, bytes, quality, SSIM).")
    var verbose = false

    @Option(name: .long, help: "K/N: convert only share K of N (1 ≤ K ≤ N), chosen by a stable hash of each input's relative path, to split a batch across machines.")
    var shard: String?

    func validate() throws {
        if let j = jobs, j < 1 { throw ValidationError("--jobs must be at least 1") }
        if let shard { _ = try Shard(parsing: shard) }
    }

    func run() throws {
        let terminal = Terminal(quiet: quiet)
        let interrupts = Interrupts(terminal: terminal)
        defer { interrupts.stop() }
        let options = try conversion.conversionOptions()
        let started = Date()
        var found = InputDiscovery.discover(inputs)
        if let shard { found.files = try Shard(parsing: shard).select(found.files) }
        for m in found.missing { terminal.error("\(m.path): error: \(m.reason)") }
        if found.files.isEmpty && found.missing.isEmpty {
            terminal.error("stickerkit: no images found in \(inputs.joined(separator: ", "))")
        }
        let plan = OutputPlan(directory: output, sizes: options.sizes, inputs: found.files)
        let runner = BatchRunner(settings: .init(options: options, outputDirectory: output,
                                                 jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                                 overwrite: overwrite, force: force, verbose: verbose),
                                 terminal: terminal)
        let files = runner.run(found.files, plan: plan)
        let seconds = Date().timeIntervalSince(started)
        let counts = BatchCounts(files)
        let failedOutputs = counts.failed + found.missing.count
        let failedFiles = files.filter { f in f.outputs.contains { $0.status.isFailure } }.count + found.missing.count
        if let report {
            let missing = found.missing.map { BatchReport.File(input: $0.path, warnings: [], error: $0.reason, outputs: []) }
            let r = BatchReport(maxBytes: options.maxBytes, files: files + missing,
                                summary: .init(files: files.count + found.missing.count, converted: counts.converted,
                                               skipped: counts.skipped, failed: failedOutputs,
                                               bytesWritten: counts.bytesWritten, seconds: seconds))
            do { try r.write(to: report) } catch { terminal.error("\(report): error: cannot write report: \(error)") ; throw ExitCode(1) }
        }
        var summary = "\(counts.converted) stickers written (\(formatBytes(counts.bytesWritten))), \(counts.skipped) skipped, "
        summary += "\(failedOutputs) failed"
        if failedFiles > 0 { summary += " in \(failedFiles) file\(failedFiles == 1 ? "" : "s")" }
        if found.ignored > 0 { summary += "; \(found.ignored) non-image file\(found.ignored == 1 ? "" : "s") ignored" }
        summary += " — \(files.count) input\(files.count == 1 ? "" : "s") in \(formatDuration(seconds))"
        terminal.note(summary)
        var modes: [String: Int] = [:]
        for f in files { for o in f.outputs { if let m = o.details?.mode { modes[m.rawValue, default: 0] += 1 } } }
        if !modes.isEmpty {
            terminal.note("chosen: " + modes.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                .map { "\($0.value) \($0.key)" }.joined(separator: ", ") + " (--report FILE.json or -v for each sticker)")
        }
        if failedOutputs > 0 || (found.files.isEmpty && found.missing.isEmpty) { throw ExitCode(1) }
    }
}
