import Foundation
import StickerKit
import StickerPackaging

/// Runs conversions over many inputs on `jobs` threads into one output folder: opens the folder
/// (creating and locking it, removing temporary files left by killed runs, checking and
/// repairing the manifest), names the outputs (`OutputPlan`), decides per output what may be
/// done (`Ownership`), converts, writes atomically with the record first, reports progress and
/// results. Every failure is one line on stderr naming the file; the batch goes on.
///
/// Threads share only the next input to start (`ConcurrentJobs`) and the finished entries, each
/// behind its own lock (`Locked`); every other piece of the runner is immutable or locks itself
/// (`Terminal`, `Manifest`, `AtomicFile`). Counts are read off the finished entries (`BatchCounts`).
struct BatchRunner: Sendable {
    struct Settings: Sendable {
        var options: ConversionOptions
        var output: BytePath
        var jobs: Int
        /// Also replace files in the output folder that stickerkit did not write.
        var overwrite: Bool
        /// Redo every output of ours, even those recorded as up to date.
        var force: Bool
        /// On a terminal, one line per written sticker saying what was chosen.
        var verbose: Bool
        /// The share of a `--shard` run: its own manifest, a shared lock.
        var shard: Shard?
        /// Say what would be done, change nothing (`dryRun`): the folder is opened read only.
        var dryRun = false

        init(options: ConversionOptions, output: BytePath, jobs: Int, overwrite: Bool, force: Bool = false,
             verbose: Bool = false, shard: Shard? = nil, dryRun: Bool = false) {
            self.dryRun = dryRun
            self.options = options
            self.output = output
            self.jobs = jobs
            self.overwrite = overwrite
            self.force = force
            self.verbose = verbose
            self.shard = shard
        }

        init(options: ConversionOptions, outputDirectory: String, jobs: Int, overwrite: Bool, force: Bool = false,
             verbose: Bool = false) {
            self.init(options: options, output: BytePath(outputDirectory), jobs: jobs, overwrite: overwrite, force: force,
                      verbose: verbose)
        }

        var outputDirectory: String { output.string ?? output.display }
    }

    let settings: Settings
    let terminal: Terminal
    /// The output folder's manifest (holding the folder open and locked), or why the folder
    /// cannot be used.
    let opened: Result<Manifest, FileError>
    /// Warnings from opening the folder (a damaged manifest), for the report.
    let notices: [Notice]

    /// Opens the output folder: creates it, takes its lock (waiting, with a message, while
    /// another run holds it), removes stale temporary files, reads the manifest and rewrites it
    /// when it holds anything but the records of the files present.
    init(settings: Settings, terminal: Terminal) {
        self.settings = settings
        self.terminal = terminal
        var notices: [Notice] = []
        do throws(FileError) {
            let manifest: Manifest
            (manifest, notices) = try Manifest.open(settings.output, create: true, shard: settings.shard, sweepingTemporaries: true,
                                                    readOnly: settings.dryRun, terminal: terminal)
            if !settings.dryRun {
                do throws(FileError) { try manifest.rewriteIfNeeded() } catch {
                    terminal.error("\(manifest.path.display): error: \(error.problem); the manifest could not be rewritten (new records are still appended)")
                }
            }
            opened = .success(manifest)
        } catch {
            opened = .failure(error)
        }
        self.notices = notices
    }

    /// Everything that changes the bytes of an output of this size: recorded in the manifest so a
    /// rerun with other settings redoes the work.
    func settingsKey(_ size: StickerSize) -> String { Self.settingsKey(settings.options, size) }

    /// Everything in `o` that changes a sticker's bytes at `size`, as the manifest records it.
    static func settingsKey(_ o: ConversionOptions, _ size: StickerSize) -> String {
        return "\(Stickerkit.configuration.version) size=\(size.pixels) fit=\(o.fit.rawValue) trim=\(o.trim) inset=\(o.inset) linear=\(o.linear) "
            + "max=\(o.maxBytes) effort=\(o.effort.rawValue) quality=\(o.quality.lowerBound)-\(o.quality.upperBound) "
            + "minfps=\(o.minFPS) lenient=\(o.lenient) colors=\(o.maxColors.map(String.init) ?? "auto")"
            + (o.target.isMessages ? "" : platformSetting(o.target) + "too-long=\(o.tooLong.rawValue)")
    }

    /// Whether `target`'s sticker of a still and of an animation take different extensions
    /// (Telegram's PNG and WebM), so that an input's sticker may change name.
    private static func changesExtension(_ target: StickerTarget) -> Bool {
        Set(target.containers.map(\.fileExtension)).count > 1
    }

    /// The part of `settingsKey` that names a platform (none for Messages): a sticker made for
    /// another app is never superseded by this one's.
    private static func platformSetting(_ target: StickerTarget) -> String { " platform=\(target.name) " }

    /// The names of `inputs`' outputs: recorded names kept, newcomers named (`OutputPlan`).
    /// Give every input of the batch, not only this shard's, so that every shard names alike.
    func plan(_ inputs: [InputFile]) -> OutputPlan {
        var recorded: [BytePath: [ManifestRecord]] = [:]
        if case .success(let manifest) = opened {
            for r in manifest.records.values where r.name != nil { recorded[r.input, default: []].append(r) }
        }
        let sizes = settings.options.sizes
        let target = settings.options.target
        // An archive's entries are named from one reading of the archive's directory, not one per
        // entry; every entry is in `entries` but for Messages, whose stickers are all PNG.
        let entries = target.isMessages ? [:] : ArchiveInputs.fileExtensions(of: inputs.filter { $0.entry != nil }, target: target,
                                                                            limits: settings.options.limits)
        return OutputPlan(directory: settings.outputDirectory, sizes: sizes, inputs: inputs,
                          fileExtension: { entries[$0] ?? Self.fileExtension($0.location, target: target) }) { input in
            let records = recorded[Self.absolute(input)] ?? []
            let preferred = records.filter { $0.size.map(sizes.contains) ?? false }.min { $0.output < $1.output }
            return (preferred ?? records.min { $0.output < $1.output })?.name
        }
    }

    /// Converts every input; returns the per-file report entries in input order. Renames are
    /// warned about first.
    func run(_ inputs: [InputFile], plan: OutputPlan) -> [BatchReport.File] {
        let started = Date()
        for input in inputs {
            if let message = plan.renameMessage(input) { terminal.warning("\(input.shown.display): warning: \(message)") }
        }
        let ownership: Ownership?
        if case .success(let manifest) = opened {
            ownership = Ownership(manifest: manifest, force: settings.force, overwrite: settings.overwrite,
                                  inputs: Set(inputs.compactMap(\.id) + plan.inputs.compactMap(\.id)))
        } else {
            ownership = nil
        }
        // The records of the files of ours present when the run began, by input: what a sticker
        // written or found up to date may supersede (`settled`), where stickers take two extensions.
        let earlier = Self.changesExtension(settings.options.target)
            ? ownership.map { Dictionary(grouping: $0.manifest.records.values, by: \.input) } ?? [:] : [:]
        let finished = Locked((entries: [BatchReport.File?](repeating: nil, count: inputs.count), count: 0))
        AllocatorPolicy.holdTight(maxMemory: settings.options.limits.maxMemory)
        ConcurrentJobs.run(count: inputs.count, workers: settings.jobs,
                           estimatedWork: { BatchRunner.estimatedWork(inputs[$0], options: settings.options) }) { i in
            let entry = process(inputs[i], plan: plan, ownership: ownership, earlier: earlier)
            AllocatorPolicy.fileDone()
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

    /// Rewrites the manifest when this run superseded records (or could not end a cut line), so
    /// that it lists exactly the files present. A failure is reported; the appended records
    /// stay valid and the next run rewrites it.
    func finish() {
        guard case .success(let manifest) = opened else { return }
        do throws(FileError) { try manifest.rewriteIfNeeded() } catch {
            terminal.error("\(manifest.path.display): error: \(error.problem); the manifest will be rewritten by the next run")
        }
    }

    /// `StickerConverter.estimatedWork` of the file at `path`, which is mapped, not read: only its
    /// structure is touched. 0 when it cannot be opened (it will fail quickly).
    static func estimatedWork(_ path: BytePath, options: ConversionOptions) -> Double {
        guard let p = path.string, let data = try? Data(contentsOf: URL(fileURLWithPath: p), options: .alwaysMapped) else { return 0 }
        return data.withUnsafeBytes { StickerConverter.estimatedWork($0, options: options) }
    }

    /// `estimatedWork` of an input; an archive's entry, which would have to be read out of the
    /// archive, counts as 0 (it goes last).
    static func estimatedWork(_ input: InputFile, options: ConversionOptions) -> Double {
        input.entry == nil ? estimatedWork(input.location, options: options) : 0
    }

    /// The extension of the sticker `target` makes of the file at `path` (mapped, its outline read).
    static func fileExtension(_ path: BytePath, target: StickerTarget) -> String {
        guard !target.isMessages else { return "png" }
        let data = path.string.flatMap { try? Data(contentsOf: URL(fileURLWithPath: $0), options: .alwaysMapped) } ?? Data()
        return data.withUnsafeBytes { target.fileExtension(forInput: $0) }
    }

    /// The absolute, lexically cleaned path of `path` (links not resolved): how the manifest
    /// names inputs, whatever the working folder of the run.
    static func absolute(_ path: BytePath) -> BytePath {
        path.isAbsolute ? path.standardized : workingFolder.appending(path).standardized
    }

    /// How the manifest names an input: `absolute` of its path, and for an archive's entry the
    /// entry's name after it (`/art/Cats.wastickers/01.webp`).
    static func absolute(_ input: InputFile) -> BytePath { InputFile.naming(absolute(input.location), input.entry) }

    private static let workingFolder: BytePath = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return BytePath("/") }
        return BytePath(bytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }()

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

    /// One output to convert: its size, path and what the ownership model allows there.
    private struct Target {
        var size: StickerSize
        var relative: BytePath
        var verdict: Ownership.Verdict
    }

    private func process(_ input: InputFile, plan: OutputPlan, ownership: Ownership?,
                         earlier: [BytePath: [ManifestRecord]]) -> BatchReport.File {
        var entry = BatchReport.File(input: input.path, warnings: [], outputs: [])
        if let message = plan.renameMessage(input) { entry.warnings.append(message) }
        func reportPath(_ relative: BytePath) -> String {
            let p = settings.output.appending(relative)
            return p.string ?? p.display
        }
        guard let ownership else {
            let reason: String
            if case .failure(let e) = opened { reason = e.description } else { reason = "the output folder cannot be used" }
            return fail(&entry, input, reason, targets: settings.options.sizes.map { ($0, plan.relativePath(for: input, size: $0)) })
        }
        let folder = ownership.manifest.folder
        let absoluteInput = Self.absolute(input)
        let reader = InputReader(input, limits: settings.options.limits)
        let fingerprint = reader.fingerprint
        let inputDigest = reader.sha256

        var targets: [Target] = []
        for size in settings.options.sizes {
            let relative = plan.relativePath(for: input, size: size)
            let verdict = ownership.verdict(for: relative, input: absoluteInput, settings: settingsKey(size),
                                            inputFingerprint: fingerprint, inEntry: input.entry != nil, inputDigest: inputDigest)
            switch verdict {
            case .upToDate:
                entry.outputs.append(.init(path: reportPath(relative), size: size, status: .upToDate))
            case .keep(let reason):
                entry.outputs.append(.init(path: reportPath(relative), size: size, status: .skipped(reason: reason.description)))
                keptWarning(input, size, relative, reason)
            case .refuse(let reason):
                entry.outputs.append(.init(path: reportPath(relative), size: size, status: .failed(reason: reason.description)))
                terminal.error("\(input.shown.display): error: \(folder.path(relative).display): \(reason)")
            case .create, .redo, .adoptIfIdentical, .replaceTheirs:
                targets.append(Target(size: size, relative: relative, verdict: verdict))
            }
        }
        if targets.isEmpty { return settled(entry, input, plan: plan, manifest: ownership.manifest, earlier: earlier[absoluteInput] ?? []) }
        var options = settings.options
        options.sizes = targets.map(\.size)

        guard let source = reader.read() else {
            return fail(&entry, input, reader.failure, targets: targets.map { ($0.size, $0.relative) })
        }
        let result: ConversionResult
        do {
            result = try StickerConverter.convert(source, options: options)
        } catch {
            return fail(&entry, input, "\(error)", targets: targets.map { ($0.size, $0.relative) })
        }
        entry.format = result.format
        entry.width = result.width
        entry.height = result.height
        entry.frames = result.frames
        entry.warnings += result.warnings
        if let ext = extensionMismatch(input.entry.map(BytePath.init) ?? input.location, result.format) {
            entry.warnings.append(ext)
        }
        for w in entry.warnings where w != plan.renameMessage(input) { terminal.note("\(input.shown.display): note: \(w)") }
        for (size, outcome) in result.outputs {
            let target = targets.first { $0.size == size }!
            let out = reportPath(target.relative)
            switch outcome {
            case .success(let sticker):
                let record = { (written: FileStatus) in
                    ManifestRecord(version: ManifestRecord.currentVersion, output: target.relative, size: size,
                                   name: plan.name(for: input), input: absoluteInput, inputBytes: fingerprint?.bytes ?? source.count,
                                   inputModifiedNanoseconds: fingerprint?.modifiedNanoseconds, inputSHA256: inputDigest(),
                                   settings: settingsKey(size), outputBytes: written.bytes,
                                   outputModifiedNanoseconds: written.modifiedNanoseconds, outputInode: written.id.inode,
                                   outputSHA256: SHA256.hex(sticker.bytes))
                }
                if case .adoptIfIdentical(let existing) = target.verdict {
                    // A file of another size is not read: it may be of any size.
                    guard existing.bytes == sticker.bytes.count, (try? folder.read(target.relative)) == sticker.bytes else {
                        entry.outputs.append(.init(path: out, size: size, status: .skipped(reason: Ownership.KeepReason.notOurs.description)))
                        keptWarning(input, size, target.relative, .notOurs)
                        continue
                    }
                    do throws(FileError) {
                        try ownership.manifest.append(record(existing))
                        entry.outputs.append(.init(path: out, size: size, status: .adopted))
                    } catch {
                        entry.outputs.append(.init(path: out, size: size, status: .failed(reason: error.description)))
                        terminal.error("\(input.shown.display): error: \(error)")
                    }
                    continue
                }
                do throws(FileError) {
                    try folder.write(sticker.bytes, to: target.relative) { written throws(FileError) in
                        try ownership.manifest.append(record(written))
                    }
                    entry.outputs.append(.init(path: out, size: size, status: .written, details: sticker.report))
                    // What was adjusted to fit is a note (a terminal only); a sticker that shows
                    // practically nothing is a warning to act on, in scripts too.
                    for w in sticker.report.warnings {
                        let line = "\(input.shown.display) [\(label(size))]: warning: \(w)"
                        if w == sticker.report.emptyWarning { terminal.warning(line) } else { terminal.note(line) }
                    }
                    if settings.verbose {
                        terminal.detail("\(input.shown.display) [\(label(size))]: \(Self.describe(sticker.report))")
                        if let search = Self.describeSearch(sticker.report) {
                            terminal.detail("\(input.shown.display) [\(label(size))]: \(search)")
                        }
                    }
                } catch {
                    let reason = error.operation == .record ? "\(error); \(out) was not written" : error.description
                    entry.outputs.append(.init(path: out, size: size, status: .failed(reason: reason)))
                    terminal.error("\(input.shown.display): error: \(reason)")
                }
            case .failure(let e):
                if case .belowMinimumQuality = e {
                    entry.outputs.append(.init(path: out, size: size, status: .skipped(reason: e.description)))
                } else {
                    entry.outputs.append(.init(path: out, size: size, status: .failed(reason: e.description)))
                }
                terminal.error(Self.failureLine(input.shown.display, label(size), e))
            }
        }
        return settled(entry, input, plan: plan, manifest: ownership.manifest, earlier: earlier[absoluteInput] ?? [])
    }

    /// `entry` labelled, after removing what its stickers supersede: a sticker of ours that the
    /// same input gave for the same app at the same size under another extension in an earlier run (Telegram's
    /// `cat.png` of a still, once `cat.gif`… animates and gives `cat.webm`, or back), still
    /// exactly as written and named for no input of this run. Two stickers of one artwork would
    /// both go into the pack. A file edited since stays, as does one an input of this run is
    /// named for (the plan compares names ignoring case).
    private func settled(_ entry: BatchReport.File, _ input: InputFile, plan: OutputPlan, manifest: Manifest,
                         earlier: [ManifestRecord]) -> BatchReport.File {
        var entry = entry
        let settledSizes = Set(entry.outputs.filter { $0.status.hasSticker }.map(\.size))
        let target = settings.options.target
        guard !settledSizes.isEmpty, Self.changesExtension(target) else { return labelled(entry) }
        for r in superseded(earlier, of: input, sizes: settledSizes, plan: plan) {
            let old = settings.output.appending(r.output)
            let current = settings.output.appending(plan.relativePath(for: input, size: r.size!))
            do throws(FileError) {
                guard try manifest.removeOwn(r.output) else { continue }
                let line = "\(old.display) removed: the sticker stickerkit made of this input before, now \(current.display)"
                entry.warnings.append(line)
                // Shown on a pipe too (not under --quiet): a file of the folder is gone.
                terminal.warning("\(input.shown.display) [\(label(r.size!))]: note: \(line)")
            } catch {
                terminal.error("\(input.shown.display): error: \(old.display) stays beside \(current.display): \(error)")
            }
        }
        return labelled(entry)
    }

    /// Of `earlier` (the records of `input`'s stickers when the run began), those its stickers at
    /// `sizes` supersede (`settled`), by output.
    func superseded(_ earlier: [ManifestRecord], of input: InputFile, sizes: Set<StickerSize>, plan: OutputPlan) -> [ManifestRecord] {
        let target = settings.options.target
        guard Self.changesExtension(target) else { return [] }
        return earlier.filter { r in
            guard let size = r.size, sizes.contains(size), r.settings.contains(Self.platformSetting(target)) else { return false }
            let current = plan.relativePath(for: input, size: size)
            return r.output != current && r.output.parent == current.parent
                && r.output.lowercasedExtension != current.lowercasedExtension && !plan.isPlanned(r.output)
        }.sorted { $0.output < $1.output }
    }

    /// The warning for a sticker of `input` not written because a file it would replace is kept
    /// (the user's, or edited since): without it a run into a folder holding such a file ended
    /// with exit 0 and, on a pipe, not a word, the sticker missing.
    private func keptWarning(_ input: InputFile, _ size: StickerSize, _ relative: BytePath, _ reason: Ownership.KeepReason) {
        let path = settings.output.appending(relative)
        terminal.warning("\(input.shown.display) [\(label(size))]: warning: not written: \(path.display) \(reason)")
    }

    /// The name of `size` in messages and the report: a platform run's one size is named by the
    /// platform (`StickerTarget.sizeName`), Messages' by the size.
    private func label(_ size: StickerSize) -> String { Self.label(size, target: settings.options.target) }

    /// `label(_:)` for a run for `target` (`bench` names sizes as `resize` does).
    static func label(_ size: StickerSize, target: StickerTarget) -> String {
        target.isMessages ? size.rawValue : target.sizeName
    }

    /// The line naming a size of `input` that made no sticker: skipped when it is under the
    /// quality floor, else an error.
    static func failureLine(_ input: String, _ label: String, _ e: StickerError) -> String {
        let skipped = if case .belowMinimumQuality = e { true } else { false }
        return "\(input) [\(label)]: \(skipped ? "skipped" : "error"): \(e)"
    }

    private func labelled(_ entry: BatchReport.File) -> BatchReport.File {
        guard !settings.options.target.isMessages else { return entry }
        var entry = entry
        for i in entry.outputs.indices { entry.outputs[i].sizeLabel = label(entry.outputs[i].size) }
        return entry
    }

    private func fail(_ entry: inout BatchReport.File, _ input: InputFile, _ message: String,
                      targets: [(StickerSize, BytePath)]) -> BatchReport.File {
        entry.error = message
        terminal.error("\(input.shown.display): error: \(message)")
        // Counts are per output: a file that cannot be read fails every size asked of it.
        for (size, relative) in targets {
            let p = settings.output.appending(relative)
            entry.outputs.append(.init(path: p.string ?? p.display, size: size, status: .failed(reason: message)))
        }
        return labelled(entry)
    }

    /// "palette, 142 colours, 25/25 frames, 450.0 KB, quality 87, SSIM 0.9518".
    static func describe(_ r: OutputReport) -> String {
        var parts = [r.container.map { "\($0.rawValue) \(r.mode.rawValue)" } ?? r.mode.rawValue]
        if let level = r.level { parts.append("level \(level)") }
        if let c = r.colors { parts.append("\(c) colours") }
        if let step = r.posterizeStep { parts.append("step \(step)") }
        if r.framesInput > 1 { parts.append("\(r.frames)/\(r.framesInput) frames") }
        parts.append(formatBytes(r.bytes))
        parts.append("quality \(r.quality)")
        if let s = r.ssim { parts.append(String(format: "SSIM %.4f", s)) }
        return parts.joined(separator: ", ")
    }

    /// An animation's search, when it made one: "searched 256 colours × 25 frames 612.3 KB (over),
    /// 154 × 25 511.0 KB (over), 153 × 25 483.8 KB; 12 predictions" (a codec's: "level 80 × 25
    /// frames …", "lossless × 25 frames …") — each real encode in order, "~" before a size
    /// extrapolated from an encode stopped early.
    static func describeSearch(_ r: OutputReport) -> String? {
        guard let steps = r.searched, !steps.isEmpty else { return nil }
        let tried = steps.enumerated().map { i, s in
            let what: String
            if let c = s.colors { what = i == 0 ? "\(c) colours" : "\(c)" } else if let l = s.level { what = "level \(l)" } else { what = "lossless" }
            let setting = i == 0 ? "\(what) × \(s.frames) frames" : "\(what) × \(s.frames)"
            return "\(setting) \(s.estimated == true ? "~" : "")\(formatBytes(s.bytes))\(s.fits ? "" : " (over)")"
        }
        let predictions = r.predictions.map { "; \($0) prediction\($0 == 1 ? "" : "s")" } ?? ""
        return "searched " + tried.joined(separator: ", ") + predictions
    }

    /// A note when the name promises another format than the bytes hold (the bytes decide).
    private func extensionMismatch(_ path: BytePath, _ format: ImageFormat) -> String? {
        let ext = path.lowercasedExtension
        guard ImageFormat.readableExtensions.contains(ext), !format.fileExtensions.contains(ext) else { return nil }
        return "named .\(ext) but holds \(format.displayName) data; read as \(format.displayName)"
    }
}
