import Foundation
import StickerKit

/// Runs conversions over many inputs on `jobs` threads: reads each file, skips outputs that
/// exist (unless overwriting), converts, writes atomically, reports progress and results.
/// Every failure is one line on stderr naming the file; the batch goes on.
///
/// Threads share only the next input to start (`ConcurrentJobs`) and the finished entries, each
/// behind its own lock (`Locked`); every other piece of the runner is immutable or locks itself
/// (`Terminal`, `Manifest`, `AtomicFile`). Counts are read off the finished entries (`BatchCounts`).
struct BatchRunner: Sendable {
    struct Settings: Sendable {
        var options: ConversionOptions
        var outputDirectory: String
        var jobs: Int
        var overwrite: Bool
        /// Redo every output, even those recorded as up to date.
        var force: Bool = false
        /// On a terminal, one line per written sticker saying what was chosen.
        var verbose: Bool = false
    }

    let settings: Settings
    let terminal: Terminal
    let manifest: Manifest

    init(settings: Settings, terminal: Terminal) {
        self.settings = settings
        self.terminal = terminal
        self.manifest = Manifest(directory: settings.outputDirectory)
    }

    /// Everything that changes the bytes of an output of this size: recorded in the manifest so a
    /// rerun with other settings redoes the work.
    func settingsKey(_ size: StickerSize) -> String {
        let o = settings.options
        return "\(Stickerkit.configuration.version) size=\(size.pixels) fit=\(o.fit.rawValue) trim=\(o.trim) inset=\(o.inset) linear=\(o.linear) "
            + "max=\(o.maxBytes) effort=\(o.effort.rawValue) quality=\(o.quality.lowerBound)-\(o.quality.upperBound) "
            + "minfps=\(o.minFPS) lenient=\(o.lenient) colors=\(o.maxColors.map(String.init) ?? "auto")"
    }

    private func relativeOutput(_ out: String) -> String {
        let dir = settings.outputDirectory.hasSuffix("/") ? settings.outputDirectory : settings.outputDirectory + "/"
        return out.hasPrefix(dir) ? String(out.dropFirst(dir.count)) : out
    }

    /// Converts every input; returns the per-file report entries in input order.
    func run(_ inputs: [InputFile], plan: OutputPlan) -> [BatchReport.File] {
        let started = Date()
        for (input, newName) in plan.renamedInputs(inputs) {
            terminal.note("\(input.path): warning: another input has the same name; writing it as \(newName)")
        }
        let finished = Locked((entries: [BatchReport.File?](repeating: nil, count: inputs.count), count: 0))
        ConcurrentJobs.run(count: inputs.count, workers: settings.jobs,
                           estimatedWork: { BatchRunner.estimatedWork(inputs[$0].path, options: settings.options) }) { i in
            let entry = process(inputs[i], plan: plan)
            let done = finished.withLock { f in
                f.entries[i] = entry
                f.count += 1
                return f.count
            }
            showProgress(done: done, total: inputs.count, started: started)
        }
        terminal.finishProgress()
        return finished.withLock { f in f.entries.map { $0! } }
    }

    /// `StickerConverter.estimatedWork` of the file at `path`, which is mapped, not read: only its
    /// structure is touched. 0 when it cannot be opened (it will fail quickly).
    static func estimatedWork(_ path: String, options: ConversionOptions) -> Double {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return 0 }
        return data.withUnsafeBytes { StickerConverter.estimatedWork($0, options: options) }
    }

    private func showProgress(done: Int, total: Int, started: Date) {
        guard terminal.chatty else { return }
        let elapsed = Date().timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let width = 24
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        terminal.progress("\(bar) \(done)/\(total)  \(String(format: "%.1f", rate)) files/s  ETA \(formatDuration(eta))")
    }

    private func process(_ input: InputFile, plan: OutputPlan) -> BatchReport.File {
        var entry = BatchReport.File(input: input.path, warnings: [], outputs: [])
        var options = settings.options
        var targets: [(StickerSize, String)] = []
        let inputReal = URL(fileURLWithPath: input.path).standardizedFileURL.resolvingSymlinksInPath().path
        for size in options.sizes {
            let out = plan.path(for: input, size: size)
            let outReal = URL(fileURLWithPath: out).standardizedFileURL.resolvingSymlinksInPath().path
            if outReal == inputReal {
                entry.outputs.append(.init(path: out, size: size,
                                           status: .failed(reason: "output would replace the input; choose another output folder")))
                terminal.error("\(input.path): error: output \(out) would replace the input; choose another output folder")
                continue
            }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: out, isDirectory: &isDir) {
                if isDir.boolValue {
                    entry.outputs.append(.init(path: out, size: size, status: .failed(reason: "output path is a folder")))
                    terminal.error("\(input.path): error: output path \(out) is a folder")
                    continue
                }
                let recorded = manifest.entry(for: relativeOutput(out))
                if !settings.force, let r = recorded, r.settings == settingsKey(size),
                   let fp = Manifest.fingerprint(input.path), fp.bytes == r.inputBytes, fp.modified == r.inputModified,
                   Manifest.fingerprint(out)?.bytes == r.outputBytes {
                    entry.outputs.append(.init(path: out, size: size, status: .upToDate))
                    continue
                }
                // Outputs we wrote before (with other settings or from another input version) are
                // ours to redo; anything else is the user's and is replaced only when asked.
                if recorded == nil && !settings.overwrite && !settings.force {
                    entry.outputs.append(.init(path: out, size: size, status: .skipped(reason: "exists (use --overwrite to replace)")))
                    continue
                }
            }
            targets.append((size, out))
        }
        if targets.isEmpty { return entry }
        options.sizes = targets.map { $0.0 }

        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input.path)))
        } catch {
            return fail(&entry, input, "cannot read: \((error as NSError).localizedDescription)", targets: targets)
        }
        let result: ConversionResult
        do {
            result = try StickerConverter.convert(bytes, options: options)
        } catch {
            return fail(&entry, input, "\(error)", targets: targets)
        }
        entry.format = result.format
        entry.width = result.width
        entry.height = result.height
        entry.frames = result.frames
        entry.warnings = result.warnings
        if let ext = extensionMismatch(input.path, result.format) {
            entry.warnings.append(ext)
        }
        for w in entry.warnings { terminal.note("\(input.path): note: \(w)") }
        for (size, outcome) in result.outputs {
            let out = targets.first { $0.0 == size }!.1
            switch outcome {
            case .success(let sticker):
                do {
                    try AtomicFile.write(sticker.bytes, to: out)
                    if let fp = Manifest.fingerprint(input.path) {
                        manifest.record(.init(output: relativeOutput(out), input: input.path, inputBytes: fp.bytes,
                                              inputModified: fp.modified, settings: settingsKey(size),
                                              outputBytes: sticker.bytes.count))
                    }
                    entry.outputs.append(.init(path: out, size: size, status: .written, details: sticker.report))
                    for w in sticker.report.warnings { terminal.note("\(input.path) [\(size.rawValue)]: warning: \(w)") }
                    if settings.verbose { terminal.note("\(input.path) [\(size.rawValue)]: \(Self.describe(sticker.report))") }
                } catch {
                    entry.outputs.append(.init(path: out, size: size, status: .failed(reason: "\(error)")))
                    terminal.error("\(input.path): error: \(error)")
                }
            case .failure(let e):
                if case .belowMinimumQuality = e {
                    entry.outputs.append(.init(path: out, size: size, status: .skipped(reason: e.description)))
                    terminal.error("\(input.path) [\(size.rawValue)]: skipped: \(e)")
                } else {
                    entry.outputs.append(.init(path: out, size: size, status: .failed(reason: e.description)))
                    terminal.error("\(input.path) [\(size.rawValue)]: error: \(e)")
                }
            }
        }
        return entry
    }

    private func fail(_ entry: inout BatchReport.File, _ input: InputFile, _ message: String,
                      targets: [(StickerSize, String)]) -> BatchReport.File {
        entry.error = message
        terminal.error("\(input.path): error: \(message)")
        // Counts are per output: a file that cannot be read fails every size asked of it.
        for (size, out) in targets {
            entry.outputs.append(.init(path: out, size: size, status: .failed(reason: message)))
        }
        return entry
    }

    /// "palette, 142 colours, 25/25 frames, 450.0 KB, quality 87, SSIM 0.9518".
    static func describe(_ r: OutputReport) -> String {
        var parts = [r.mode.rawValue]
        if let c = r.colors { parts.append("\(c) colours") }
        if let step = r.posterizeStep { parts.append("step \(step)") }
        if r.framesInput > 1 { parts.append("\(r.frames)/\(r.framesInput) frames") }
        parts.append(formatBytes(r.bytes))
        parts.append("quality \(r.quality)")
        if let s = r.ssim { parts.append(String(format: "SSIM %.4f", s)) }
        return parts.joined(separator: ", ")
    }

    /// A note when the name promises another format than the bytes hold (the bytes decide).
    private func extensionMismatch(_ path: String, _ format: ImageFormat) -> String? {
        let ext = (path as NSString).pathExtension.lowercased()
        guard ImageFormat.readableExtensions.contains(ext), !format.fileExtensions.contains(ext) else { return nil }
        return "named .\(ext) but holds \(format.displayName) data; read as \(format.displayName)"
    }
}
