import ArgumentParser
import Foundation
import StickerKit

struct Resize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert images and folders into stickers.",
        discussion: """
        Inputs are files or folders (searched recursively; the folder structure is mirrored in the \
        output folder). A WhatsApp pack (.wastickers, or any ZIP archive of images) stands for the \
        images in it: each is converted into a folder named after the archive (Cats.wastickers \
        gives Cats/01.png, …), its tray icon, title and author left out; a pack stickerkit wrote \
        into a folder being searched is its output, converted only when named. Stills become PNG, animations APNG, each exactly 300, 408 or 618 px square and \
        within the byte budget. With --platform, one sticker per input by that app's rules instead \
        (signal, discord: PNG/APNG; whatsapp: WebP; telegram: PNG stills, WebM video; line: PNG/APNG on \
        a canvas of the artwork's shape, 5–20 frames), named with \
        its container's extension; an animation over the app's duration limit follows --too-long. \
        The output folder's manifest records what stickerkit wrote there: \
        up-to-date stickers are skipped, stale ones redone, and files stickerkit did not write are \
        never replaced without --overwrite (a sticker not written for one is named in a warning). \
        An input keeps its output name from run to run; when its sticker takes the other extension \
        (a Telegram still that now animates), the one stickerkit made of it before is removed.
        Exit status: 0 all converted, 1 some inputs failed (each named on stderr), 2 usage error \
        (including a problem with -o or --report, found before anything is converted).
        """)

    @OptionGroup var input: InputArguments
    @OptionGroup var output: OutputFlags
    @OptionGroup var size: SizeOption
    @OptionGroup var conversion: ConversionFlags
    @OptionGroup var platform: PlatformFlags
    @OptionGroup var jobs: JobsOption
    @OptionGroup var report: ReportOption

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Say what was chosen for every sticker (mode, colours, frames, bytes, quality, SSIM) and, for an animation, what its search encoded; on a pipe too, unless --quiet.")
    var verbose = false

    @Flag(name: .long, help: "Remove the stickers stickerkit made in the output folder earlier that this run did not make: of inputs not given this time, or of this run's inputs at other sizes, layouts or apps (edited ones stay).")
    var prune = false

    @Flag(name: .long, help: "Say what the run would write, leave and remove (superseded stickers, --prune), and which inputs would fail from their structure alone (not an image, truncated, over the limits), without converting or changing any file. -v also lists the stickers up to date.")
    var dryRun = false

    @Option(name: .long, help: "K/N: convert only share K of N (1 ≤ K ≤ N), chosen by a stable hash of each input's relative path, to split a batch across machines.")
    var shard: String?

    func validate() throws {
        if let shard { _ = try Shard(parsing: shard) }
        if dryRun && report.report != nil {
            throw ValidationError("--dry-run writes nothing: leave out --report")
        }
        if prune && shard != nil {
            throw ValidationError("--prune removes what no input of the whole batch made: give it to a run without --shard")
        }
    }

    func run() throws {
        let terminal = Terminal(quiet: quiet, resultsOnStderr: report.toStandardOutput)
        var options = platform.apply(to: try conversion.conversionOptions(sizes: size.sizes), budgetGiven: conversion.budget.given)
        let started = Date()
        let outputPath = output.path
        let reportPath = report.path
        // SSIM and PSNR only where they are shown: the report and -v.
        options.measuresQuality = report.report != nil || verbose
        let shard = try self.shard.map(Shard.init(parsing:))

        // Every path problem is a usage error found before any conversion.
        try PathChecks.checkOutputFolder(outputPath, inputs: input.paths)
        var found = InputDiscovery.discover(input.paths, excluding: .init(outputFolders: [outputPath]), takesArchives: true)
        found.expandArchives(limits: options.limits)
        if let reportPath { try PathChecks.checkReport(reportPath, inputs: found.files, outputFolder: outputPath) }

        let interrupts = Interrupts(terminal: terminal)
        defer { interrupts.stop() }
        found.announce(on: terminal)
        for n in found.skippedOutputs { terminal.note("\(n.path): note: \(n.message)") }
        if found.skippedStickers > 0 {
            terminal.note("stickerkit: note: \(found.skippedStickers) sticker\(found.skippedStickers == 1 ? "" : "s") written by stickerkit left out of the inputs")
        }

        var files: [BatchReport.File] = []
        var notices = found.notices
        var pruned = 0
        if !found.files.isEmpty {
            let runner = BatchRunner(settings: .init(options: options, output: outputPath, jobs: jobs.count,
                                                     overwrite: output.overwrite, force: output.force, verbose: verbose, shard: shard,
                                                     dryRun: dryRun),
                                     terminal: terminal)
            // A dry run into a folder that does not exist yet finds it empty.
            let missing = dryRun && (try? FileStatus.of(outputPath, followingLinks: false)) == .some(nil)
            if case .failure(let e) = runner.opened, !missing { throw CommandFailure.usage(outputPath.display, "-o: \(e)") }
            // Named from every input, so that every shard names alike; converted: this shard's.
            let plan = runner.plan(found.files)
            if let reportPath { try PathChecks.checkReport(reportPath, against: plan, inputs: found.files, outputFolder: outputPath) }
            let selected = shard.map { $0.select(found.files) } ?? found.files
            let unreadable = found.missing.map { BytePath($0.path) }
            if dryRun {
                let outcome = runner.dryRun(selected, plan: plan, prune: prune, unreadable: unreadable)
                for line in outcome.lines { terminal.result(line) }
                terminal.warning(outcome.summary)
                if outcome.failed > 0 || !found.missing.isEmpty { throw ExitCode(1) }
                return
            }
            files = runner.run(selected, plan: plan)
            // The inputs that made every sticker asked of them: their stickers at other paths are stale.
            let settled = Set(zip(selected, files).filter { !$0.1.outputs.isEmpty && $0.1.outputs.allSatisfy(\.status.hasSticker) }
                .map { BatchRunner.absolute($0.0) })
            if prune {
                let p = runner.prune(plan: plan, unreadable: unreadable, settled: settled)
                pruned = p.removed
                notices += p.notices
            } else if shard == nil, terminal.chatty, case let orphans = runner.removableOrphans(plan: plan, unreadable: unreadable, settled: settled),
                      !orphans.isEmpty {
                // On a terminal only: a folder shared by runs over different inputs is normal.
                let stale = orphans.filter { settled.contains($0.input) }.count, gone = orphans.count - stale
                func stickers(_ n: Int) -> String { "\(n) sticker\(n == 1 ? "" : "s")" }
                let parts = (gone > 0 ? ["\(stickers(gone)) made from inputs not given this time (deleted or renamed artwork?)"] : [])
                    + (stale > 0 ? ["\(stickers(stale)) of this run's inputs at other sizes or for another app"] : [])
                terminal.note("stickerkit: note: \(outputPath.display) holds \(parts.joined(separator: " and ")); "
                              + "--prune removes \(orphans.count == 1 ? "it" : "them")")
            }
            runner.finish()
            notices = runner.notices + notices
        }
        let seconds = Date().timeIntervalSince(started)
        let counts = BatchCounts(files)
        let failedOutputs = counts.failed + found.missing.count
        let failedFiles = files.filter { f in f.outputs.contains { $0.status.isFailure } }.count + found.missing.count
        if report.report != nil {
            let missing = found.missing.map { BatchReport.File(input: $0.path, warnings: [], error: $0.reason, outputs: []) }
            let r = BatchReport(maxBytes: options.maxBytes, files: files + missing,
                                summary: .init(files: files.count + found.missing.count, converted: counts.converted,
                                               skipped: counts.skipped, failed: failedOutputs,
                                               bytesWritten: counts.bytesWritten, seconds: seconds),
                                notices: notices.isEmpty ? nil : notices)
            if let reportPath {
                // A report left half-written by a killed run is a temporary file beside it.
                _ = AtomicFile.removeStaleTemporaries(in: reportPath.parent)
                do throws(FileError) { try r.write(to: reportPath) } catch {
                    terminal.error("\(reportPath.display): error: cannot write the report: \(error.problem)")
                    throw ExitCode(1)
                }
            } else {
                BatchReport.writeToStandardOutput(r)
            }
        }
        var summary = "\(counts.converted) stickers written (\(formatBytes(counts.bytesWritten))), \(counts.skipped) skipped, "
        summary += "\(failedOutputs) failed"
        if failedFiles > 0 { summary += " in \(failedFiles) file\(failedFiles == 1 ? "" : "s")" }
        if pruned > 0 { summary += "; \(pruned) removed (--prune)" }
        if found.ignored > 0 { summary += "; \(found.ignored) non-image file\(found.ignored == 1 ? "" : "s") ignored" }
        summary += " — \(files.count) input\(files.count == 1 ? "" : "s") in \(formatDuration(seconds))"
        terminal.note(summary)
        var modes: [String: Int] = [:]
        for f in files { for o in f.outputs { if let m = o.details?.mode { modes[m.rawValue, default: 0] += 1 } } }
        let shortened = files.flatMap(\.outputs).compactMap(\.details).filter { $0.tooLong != nil }.count
        if shortened > 0, let limit = options.target.maxDurationMs {
            terminal.note("\(shortened) animation\(shortened == 1 ? "" : "s") over \(options.target.displayName)'s \(Double(limit) / 1000) s limit: --too-long \(options.tooLong.rawValue) (see the warnings)")
        }
        if !modes.isEmpty {
            terminal.note("chosen: " + modes.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                .map { "\($0.value) \($0.key)" }.joined(separator: ", ") + " (--report FILE.json or -v for each sticker)")
        }
        if failedOutputs > 0 { throw ExitCode(1) }
    }
}
