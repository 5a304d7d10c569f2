import ArgumentParser
import Dispatch
import Foundation
import StickerKit

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure the real pipeline's throughput on a folder (default: samples/). Writes no stickers.",
        discussion: """
        Runs every input through decode → resize → quantize → encode → budget search, once with one \
        job and once with --jobs (default: all cores), and prints per-stage time shares and \
        end-to-end throughput: stickers per second and input megapixels per second. \
        --platform NAME measures that app's conversion (its side, container and caps), as \
        `resize --platform` makes it. A file or size that fails is named on one line, as `resize` \
        names it (once, whatever the runs), and the exit status is 1.
        """)

    @Argument(help: "Files, folders or packs (ZIP archives, as resize takes them) to measure (default: samples).", completion: .file())
    var inputs: [String] = ["samples"]

    @OptionGroup var size: SizeOption
    @OptionGroup var conversion: ConversionFlags
    @OptionGroup var platform: PlatformFlags

    @OptionGroup var jobs: JobsOption

    @Option(name: .long, help: "Runs of each configuration; the fastest is reported.")
    var repeats: Int = 1

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    struct Run: Codable {
        var jobs: Int
        var seconds: Double
        var stickers: Int
        var failed: Int
        var inputMegapixels: Double
        var stickersPerSecond: Double
        var megapixelsPerSecond: Double
        var stageSeconds: StageTimings
    }

    struct Output: Codable {
        var platform: String
        var inputs: Int
        var sizes: [String]
        var maxBytes: Int
        var outputBytes: Int
        var runs: [Run]
        var speedup: Double?
    }

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeats must be at least 1") }
    }

    func run() throws {
        var options = platform.apply(to: try conversion.conversionOptions(sizes: size.sizes), budgetGiven: conversion.budget.given)
        // As `resize` without --report or -v: no SSIM for the reports nobody reads here.
        options.measuresQuality = false
        let terminal = Terminal(quiet: false)
        // Packs (a .wastickers in a folder, any ZIP named) stand for their images, as in `resize`.
        var found = InputDiscovery.discover(inputs.map(CommandLineBytes.path(for:)), excluding: .init(), takesArchives: true)
        found.expandArchives(limits: options.limits)
        found.announce(on: terminal)
        guard found.missing.isEmpty else { throw ExitCode(1) }
        // Every file is read once first, so that the runs read it from the page cache: the
        // benchmark measures the pipeline, not the disk. Each job then reads its own file, so the
        // benchmark holds one file per job, as `resize` does, not the whole folder. A file whose
        // bytes alone pass the memory budget is not read; it counts as failed, as in `resize`.
        let files = found.files
        for file in Set(files.map(\.location)) {
            do throws(FileError) {
                if (try? StickerConverter.checkFileSize(try FileStatus.of(file)?.bytes ?? 0, head: [], limits: options.limits)) != nil {
                    _ = try FileSystem.readFile(file)
                }
            } catch {
                terminal.error("\(file.display): error: \(error.problem)")
                throw ExitCode(1)
            }
        }
        let all = jobs.count
        var runs: [Run] = []
        var outputBytes = 0
        var failures: [String]? = nil
        for j in Set([1, all]).sorted() {
            var best: Run? = nil
            for _ in 0..<repeats {
                let (run, bytes, lines) = measure(files, options: options, jobs: j)
                outputBytes = bytes
                if best == nil || run.seconds < best!.seconds { best = run }
                // Every run converts the same files the same way: the first run's lines say it.
                if failures == nil {
                    failures = lines
                    for line in lines { terminal.error(line) }
                }
            }
            runs.append(best!)
        }
        // A ratio of two runs that made nothing (every input failed) would only measure noise.
        let speedup = runs.count == 2 && runs.allSatisfy({ $0.stickers > 0 }) ? runs[0].seconds / runs[1].seconds : nil
        let sizes = options.target.isMessages ? options.sizes.map(\.rawValue) : [options.target.sizeName]
        let out = Output(platform: options.target.name, inputs: files.count, sizes: sizes, maxBytes: options.maxBytes,
                         outputBytes: outputBytes, runs: runs, speedup: speedup)
        if json {
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try enc.encode(out), as: UTF8.self))
        } else {
            printTable(out)
        }
        if !(failures ?? []).isEmpty { throw ExitCode(1) }
    }

    /// What the threads of one run add up.
    private struct Totals: Sendable {
        var stickers = 0, failed = 0, bytes = 0
        /// Each failure's line, as `resize` words it.
        var lines: [String] = []
        var pixels = 0.0
        var stages = StageTimings()
    }

    /// One run over `files` at `jobs`: its figures, the stickers' bytes, and the failures' lines
    /// in input order.
    private func measure(_ files: [InputFile], options: ConversionOptions, jobs: Int) -> (Run, Int, [String]) {
        let totals = Locked(Totals())
        let lines = Locked([[String]](repeating: [], count: files.count))
        let start = DispatchTime.now().uptimeNanoseconds
        // Scheduled as `resize` schedules files, each read by its job as `resize` reads it.
        ConcurrentJobs.run(count: files.count, workers: jobs,
                           estimatedWork: { BatchRunner.estimatedWork(files[$0], options: options) }) { i in
            var file = Totals()
            do {
                let data: [UInt8]
                if files[i].entry != nil {
                    switch ArchiveInputs.bytes(of: files[i], limits: options.limits) {
                    case .success(let b): data = b
                    case .failure(let why): throw CommandFailure.failed(files[i].shown.display, why.description)
                    }
                } else {
                    data = try PathChecks.readFile(files[i].location, failing: .failed, limits: options.limits)
                }
                let r = try StickerConverter.convert(data, options: options)
                file.stages = r.timings
                file.pixels = Double(r.width * r.height * r.frames) / 1e6
                for (size, o) in r.outputs {
                    switch o {
                    case .success(let s): file.stickers += 1; file.bytes += s.bytes.count
                    case .failure(let e):
                        file.failed += 1
                        file.lines.append(BatchRunner.failureLine(files[i].shown.display, BatchRunner.label(size, target: options.target), e))
                    }
                }
            } catch let f as CommandFailure {
                file.failed += options.sizes.count
                file.lines.append(f.description)
            } catch {
                file.failed += options.sizes.count
                file.lines.append("\(files[i].shown.display): error: \(error)")
            }
            lines.withLock { $0[i] = file.lines }
            totals.withLock { t in
                t.stickers += file.stickers; t.failed += file.failed; t.bytes += file.bytes
                t.pixels += file.pixels; t.stages = t.stages + file.stages
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let t = totals.withLock { $0 }
        return (Run(jobs: jobs, seconds: seconds, stickers: t.stickers, failed: t.failed, inputMegapixels: t.pixels,
                    stickersPerSecond: Double(t.stickers) / seconds, megapixelsPerSecond: t.pixels / seconds,
                    stageSeconds: t.stages), t.bytes, lines.withLock { $0.flatMap { $0 } })
    }

    private func printTable(_ out: Output) {
        print("stickerkit bench: \(out.platform), \(out.inputs) inputs × sizes \(out.sizes.joined(separator: ",")), budget \(out.maxBytes) bytes")
        for r in out.runs {
            let s = r.stageSeconds
            let total = max(s.total, 1e-9)
            func pct(_ v: Double) -> String { String(format: "%4.1f%%", 100 * v / total) }
            print(String(format: "jobs %-2d  %7.2f s  %6.2f stickers/s  %7.2f input MP/s  ", r.jobs, r.seconds, r.stickersPerSecond,
                         r.megapixelsPerSecond) + "(\(r.stickers) sticker\(r.stickers == 1 ? "" : "s"), \(r.failed) failed)")
            print("         stage shares: decode \(pct(s.decode))  resize \(pct(s.resize))  quantize \(pct(s.quantize))  encode \(pct(s.encode))  other \(pct(s.other))")
            let w = s.search
            if w.encodes > 0 || w.predictions > 0 {
                print(String(format: "         animation searches: %d encodes (%d settled on, %.2f s; the other %d, %.2f s), %d predictions (%.2f s)",
                             w.encodes, w.chosen, w.chosenSeconds, w.encodes - w.chosen, w.encodeSeconds - w.chosenSeconds,
                             w.predictions, w.predictionSeconds))
            }
        }
        if let sp = out.speedup { print(String(format: "speed-up of jobs %d over jobs 1: %.2f×", out.runs.last!.jobs, sp)) }
    }
}
