import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

/// The steps every platform's pack archive shares (`pack --platform whatsapp`, `WastickersRun`;
/// `pack --platform line`, `LinePackRun`): the path at `-o` checked before any work, the inputs
/// found, each converted as `resize --platform` converts it (`--jobs` at a time, through the
/// pack's cache) and checked by the platform's rules, a pack picture
/// `icons --platform` recorded in an input folder, and the archive written atomically (or left as
/// it is when its bytes are already there), or with `--dry-run` what writing it would change.
enum PlatformPackSteps {
    /// The file at `path` (nil when nothing is there), after the checks before any work: a folder
    /// that can hold the archive, and nothing in the way: a file there is replaced only when it is
    /// an archive stickerkit wrote (`ArchiveInputs.stickerkitPack`) or with `overwrite`.
    /// `archive` names what the file should be ("a .wastickers", "a LINE archive").
    static func checkOutput(_ path: BytePath, overwrite: Bool, archive: String) throws -> FileStatus? {
        // The folder may be an input's (`pack art -o art/Cats.wastickers`): the archive is one
        // file, never read back as artwork.
        let parent = path.parent
        try PathChecks.checkOutputFolder(parent.isEmpty ? BytePath(".") : parent, inputs: [])
        let existing: FileStatus?
        do { existing = try FileStatus.of(path, followingLinks: false) } catch {
            throw CommandFailure.usage(path.display, error.problem.description)
        }
        if let existing {
            guard existing.kind == .regular else {
                throw CommandFailure.usage(path.display, "is in the way (not a regular file); move it or choose another -o")
            }
            if ArchiveInputs.stickerkitPack(at: path) == nil && !overwrite {
                throw CommandFailure.usage(path.display, "already exists and is not \(archive) stickerkit wrote; --overwrite replaces it")
            }
        }
        return existing
    }

    /// The inputs `arguments` name, announced on `terminal`, and how many are missing. Another
    /// pack's stickers may be packed again (a ZIP named, one in a folder); an archive stickerkit
    /// wrote there (`existing`, on a rerun) is never read back, and one named is never written;
    /// nor is anything in the pack's `cache`.
    static func inputs(_ arguments: [String], existing: FileStatus?, output: BytePath, cache: String, limits: Limits,
                       terminal: Terminal) throws -> (files: [InputFile], missing: Int) {
        var found = InputDiscovery.discover(arguments.map(BytePath.init), excluding: InputDiscovery.Exclusions(), takesArchives: true)
        found.expandArchives(limits: limits)
        // The cache is never read as artwork, wherever it is (`--cache art/cache`).
        found.files.removeAll { PackCache.isInside($0.path, cache) }
        if let existing, found.files.contains(where: { $0.id == existing.id }) {
            // Whatever the flags: an input is never written.
            throw CommandFailure.usage(output.display, "-o: is an input of this pack; choose another name")
        }
        found.announce(on: terminal)
        if found.files.isEmpty {
            if !found.missing.isEmpty { throw ExitCode(1) }
            throw CommandFailure.failed(nil, "no images to pack in \(arguments.joined(separator: ", "))")
        }
        return (found.files, found.missing.count)
    }

    /// A sticker converted for a pack: its input, its bytes, what its own structure says
    /// (`PlatformChecker`: the platform's rules, its frames) and the input's frame count when the
    /// input was read this run.
    struct Checked {
        var input: InputFile
        var bytes: [UInt8]
        var check: StickerCheckReport
        var inputFrames: Int?
        /// For a sticker kept as `resize --platform` wrote it, its manifest record (which names
        /// the artwork it was made from).
        var record: ManifestRecord? = nil

        /// The artwork the kept sticker was made from, when it is still the file recorded (size
        /// and SHA-256): what a pack picture is better made from than the sticker, whose margin
        /// the picture would put inside its own.
        private func artwork(limits: Limits) -> (bytes: [UInt8], path: String)? {
            guard let record, let bytes = readIfRecorded(record.input, bytes: record.inputBytes, sha256: record.inputSHA256,
                                                         followingLinks: true, limits: limits) else { return nil }
            return (bytes, record.input.string ?? record.input.display)
        }

        /// A pack picture `make` makes from this sticker's image (a file's bytes and its path),
        /// with that path: from its `artwork` when it has one that makes it, else from the input
        /// itself; nil when neither does.
        func picture<Picture>(limits: Limits, _ make: ([UInt8], String) -> Picture?) -> (picture: Picture, path: String)? {
            if let artwork = artwork(limits: limits), let made = make(artwork.bytes, artwork.path) { return (made, artwork.path) }
            guard let data = try? read(input, limits: limits), let made = make(data, input.path) else { return nil }
            return (made, input.path)
        }
    }

    /// What converting a pack's inputs gave: the stickers that pass the platform's rules, in input
    /// order, how many inputs gave none (each said in one line), how many stickers were converted
    /// this run, taken from the cache as they were, and taken as they are (stickerkit made them
    /// for the same app: `convert`); and each input's report.
    struct Conversion {
        var reports: [BatchReport.File] = []
        var stickers: [Checked] = []
        var failed = 0
        var converted = 0
        var upToDate = 0
        var kept = 0

        /// "; 2 converted, 6 up to date" (and ", 8 kept as stickerkit made them" when some were).
        var counts: String {
            "; \(converted) converted, \(upToDate) up to date" + (kept > 0 ? ", \(kept) kept as stickerkit made them" : "")
        }
    }

    /// `inputs` converted as `resize --platform` converts them, through the pack's cache (`cache`,
    /// `PackCache.convert`: a rerun converts only inputs or settings that changed; `force` all),
    /// each sticker then checked by `target`'s rules from its own structure.
    ///
    /// A sticker stickerkit made for `target` is taken as it is when it still passes `target`'s
    /// rules and the run's budget (`options.maxBytes`; a sticker past a smaller one is converted
    /// again): one of an archive stickerkit packed for `target` (`pack --platform line Old.zip
    /// -o New.zip`), or a file named that `resize --platform` wrote for `target`
    /// (`recordedSticker`). Converting it again would only lose quality (WhatsApp's lossy WebP, a
    /// palette made again) and, for LINE, put a second margin around the artwork.
    static func convert(_ inputs: [InputFile], cache: String, options: ConversionOptions, jobs: Int, force: Bool,
                        target: StickerTarget, terminal: Terminal, quiet: Bool) -> Conversion {
        var kept: [Int: Checked] = [:]
        let ours = Set(stickerkitArchives(among: inputs, target: target))
        var records: [BytePath: [ManifestRecord]] = [:]
        for (i, input) in inputs.enumerated() {
            let bytes: [UInt8]?
            var record: ManifestRecord?
            if input.entry != nil {
                bytes = ours.contains(input.location) ? try? read(input, limits: options.limits) : nil
            } else {
                let found = recordedSticker(input.location, target: target, limits: options.limits, records: &records)
                (bytes, record) = (found?.bytes, found?.record)
            }
            // Within the run's budget too (a smaller --max-kb converts it again).
            guard let bytes, bytes.count <= options.maxBytes else { continue }
            let check = PlatformChecker.check(bytes, path: input.path, target: target)
            if !check.findings.contains(where: { $0.severity == .error }) {
                kept[i] = Checked(input: input, bytes: bytes, check: check, inputFrames: check.facts.frames, record: record)
            }
        }
        let rest = inputs.indices.filter { kept[$0] == nil }
        let reports = PackCache(directory: cache).convert(rest.map { inputs[$0] }, options: options, jobs: jobs, force: force,
                                                          terminal: terminal, quiet: quiet)
        var reportOf = Dictionary(uniqueKeysWithValues: zip(rest, reports))
        var result = Conversion()
        for (i, input) in inputs.enumerated() {
            if let sticker = kept[i] {
                result.kept += 1
                result.stickers.append(sticker)
                let made = sticker.record != nil ? "wrote" : "packed"
                var output = BatchReport.Output(path: input.path, size: .regular,
                                                status: .skipped(reason: "kept as it is: a \(target.displayName) sticker stickerkit \(made)"))
                output.sizeLabel = target.sizeName
                let facts = sticker.check.facts
                let format = ImageFormat.allCases.first { $0.displayName == facts.format }
                result.reports.append(BatchReport.File(input: input.path, format: format, width: facts.width, height: facts.height,
                                                       frames: facts.frames, warnings: [], error: nil, outputs: [output]))
                continue
            }
            guard let report = reportOf.removeValue(forKey: i) else { continue }
            result.reports.append(report)
            // An input with no sticker was named by the runner (its error, or why it was skipped).
            guard let out = report.outputs.first(where: { $0.status.hasSticker }) else {
                result.failed += 1
                continue
            }
            let bytes: [UInt8]
            do { bytes = try PathChecks.readFile(BytePath(out.path), failing: .failed, limits: options.limits) } catch {
                terminal.error(CommandFailure.failed(input.path, "its converted sticker \(out.path) cannot be read: \(error.message)").description)
                result.failed += 1
                continue
            }
            if out.status == .written { result.converted += 1 } else { result.upToDate += 1 }
            let check = PlatformChecker.check(bytes, path: input.path, target: target)
            if let error = check.findings.first(where: { $0.severity == .error }) {
                terminal.error(CommandFailure.failed(input.path, "the sticker breaks \(target.displayName)'s rules: \(error.message)").description)
                result.failed += 1
                continue
            }
            result.stickers.append(Checked(input: input, bytes: bytes, check: check, inputFrames: report.frames))
        }
        return result
    }

    /// The bytes of the file at `path`, and its record, when `resize --platform` (or another run
    /// for `target`) wrote it for `target`: a manifest in its folder, or in a folder above it
    /// (outputs mirror their input folders), lists it with `target` in its settings, and it is
    /// still the file recorded (size, then SHA-256). Nil for anything else, which is artwork to
    /// convert. `records` keeps each folder's manifest records, read once for all the inputs.
    static func recordedSticker(_ path: BytePath, target: StickerTarget, limits: Limits,
                                records: inout [BytePath: [ManifestRecord]]) -> (bytes: [UInt8], record: ManifestRecord)? {
        let file = BatchRunner.absolute(path)
        var folder = file.parent
        // Eight folders up at most: a manifest's outputs lie below it, and a sticker is rarely deeper.
        for _ in 0..<8 {
            if records[folder] == nil { records[folder] = Manifest.records(inFolder: folder) }
            if let relative = file.relative(to: folder), let record = records[folder]!.first(where: { $0.output == relative }) {
                guard record.settings.split(separator: " ").contains(Substring("platform=\(target.name)")),
                      let bytes = readIfRecorded(file, bytes: record.outputBytes, sha256: record.outputSHA256, limits: limits)
                else { return nil }
                return (bytes, record)
            }
            if folder.isEmpty || folder == BytePath("/") { break }
            folder = folder.parent
        }
        return nil
    }

    /// The bytes of the file at `path` when it is still the file a manifest recorded there: a
    /// regular file of `bytes` bytes (checked before it is read: another size is not read) whose
    /// SHA-256 is `sha256` (a record without one names no file to take). A link at `path` is
    /// followed only with `followingLinks` (an input is read through its link; an output is ours
    /// only as the file itself).
    static func readIfRecorded(_ path: BytePath, bytes: Int, sha256: String?, followingLinks: Bool = false,
                               limits: Limits? = nil) -> [UInt8]? {
        guard let sha256, let status = (try? FileStatus.of(path, followingLinks: followingLinks)) ?? nil,
              status.kind == .regular, status.bytes == bytes,
              let read = try? PathChecks.readFile(path, failing: .failed, limits: limits), SHA256.hex(read) == sha256 else { return nil }
        return read
    }

    /// The bytes of `input`: its file, or its entry read out of its archive.
    static func read(_ input: InputFile, limits: Limits) throws(CommandFailure) -> [UInt8] {
        guard input.entry != nil else { return try PathChecks.readFile(input.location, failing: .failed, limits: limits) }
        switch ArchiveInputs.bytes(of: input, limits: limits) {
        case .success(let bytes): return bytes
        case .failure(let why): throw CommandFailure.failed(input.path, why.description)
        }
    }

    /// The pack picture `name` that `icons --platform` wrote into one of the folders `inputs`
    /// names (its manifest records it, and it is still the file recorded), as it is: the picture
    /// the user made for this pack, which was left out as a sticker.
    static func recordedPicture(_ name: String, in inputs: [String]) -> (png: [UInt8], path: String)? {
        let name = BytePath(name)
        for input in inputs {
            let folder = CommandLineBytes.path(for: input)
            let path = folder.appending(name)
            guard (try? FileStatus.of(folder))??.kind == .directory,
                  let record = Manifest.records(inFolder: folder).first(where: { $0.output == name }),
                  let bytes = readIfRecorded(path, bytes: record.outputBytes, sha256: record.outputSHA256) else { continue }
            return (bytes, path.string ?? path.display)
        }
        return nil
    }

    /// The pack picture `icon` of `archive`, a pack stickerkit wrote for `target` whose stickers
    /// are packed again (`stickerkitArchives`), as it is, when it still passes the platform's
    /// rules for it: the picture that pack was given, which the new one keeps.
    static func packedPicture(_ icon: PackIcon, in archive: BytePath, target: StickerTarget, limits: Limits) -> (png: [UInt8], path: String)? {
        guard let bytes = try? ArchiveInputs.bytes(ofEntry: icon.fileName, in: archive, limits: limits).get() else { return nil }
        let shown = InputFile(location: archive, relative: BytePath(icon.fileName), entry: icon.fileName).path
        let check = PlatformChecker.check(bytes, path: shown, packIcon: icon, target: target)
        return check.findings.contains { $0.severity == .error } ? nil : (bytes, shown)
    }

    /// The archives `inputs`' entries come from that stickerkit packed for `target`
    /// (`ArchiveInputs.stickerkitPack`), each once, in input order.
    static func stickerkitArchives(among inputs: [InputFile], target: StickerTarget) -> [BytePath] {
        var seen = Set<BytePath>(), archives: [BytePath] = []
        for input in inputs where input.entry != nil && seen.insert(input.location).inserted {
            if ArchiveInputs.stickerkitPack(at: input.location) == target { archives.append(input.location) }
        }
        return archives
    }

    /// `inputs` without the pack pictures made by hand beside the artwork, and those pictures by
    /// their names: a file (not an archive's entry) at the top of an input folder, or named, whose
    /// name is one of `target`'s pictures (WhatsApp's `tray.png`, LINE's `main.png` and
    /// `tab.png`, in any case). The platform names them so; they are the pack's pictures, not
    /// stickers.
    static func handMadePictures(_ inputs: [InputFile], target: StickerTarget) -> (stickers: [InputFile], pictures: [String: InputFile]) {
        let names = Set(target.packIcons.map(\.fileName))
        var stickers: [InputFile] = [], pictures: [String: InputFile] = [:]
        for input in inputs {
            let name = input.relativePath.lowercased()
            if input.entry == nil, names.contains(name), pictures[name] == nil { pictures[name] = input } else { stickers.append(input) }
        }
        return (stickers, pictures)
    }

    /// Writes `bytes` at `path` atomically, unless the same bytes are there already (a rerun with
    /// nothing changed leaves the archive as it is, its date too, as `pack` leaves a catalog's
    /// unchanged stickers); true when they were. A file of another size is not read (one in the
    /// way, replaced with --overwrite, may be of any size).
    static func write(_ bytes: [UInt8], to path: BytePath, existing: FileStatus?) throws -> Bool {
        let unchanged = existing?.bytes == bytes.count && (try? FileSystem.readFile(path)) == bytes
        if !unchanged {
            do throws(FileError) { try AtomicFile.write(bytes, to: path) } catch {
                throw CommandFailure.failed(path.display, error.problem.description)
            }
        }
        return unchanged
    }

    /// What `--dry-run` prints instead of writing the archive `bytes` of request `r` at `path`
    /// (`existing`: the file there; `sources`: what each entry comes from; `contents`: the
    /// run's summary after the archive's name): `dryRunPlan`'s lines on stdout, the summary on
    /// stderr. Throws exit 1 when inputs failed (`failed`).
    static func dryRun(_ bytes: [UInt8], of r: PlatformPackRequest, at path: BytePath, existing: FileStatus?,
                       sources: [String: String], contents: String, failed: Int, terminal: Terminal) throws {
        let plan = dryRunPlan(bytes, at: path, existing: existing, sources: sources)
        for line in plan.lines { terminal.result(line) }
        terminal.warning("dry run: \(r.output): \(plan.outcome), \(contents); the archive was not changed")
        if failed > 0 { throw ExitCode(1) }
    }

    /// What `--dry-run` says instead of writing `bytes` at `path` (`existing`: the file there):
    /// one line per entry of the archive that would be added, replaced or removed (an entry whose
    /// bytes would stay the same is not listed), each named with what it comes from (`sources`,
    /// by entry name), and the archive's outcome: written new, replaced, or left as it is.
    /// Nothing is written; an archive there is read only when it is within the size of one
    /// stickerkit reads (`ArchiveInputs.maxArchiveBytes`), and an entry of it only up to the size
    /// of the new entry it is compared with (a larger one differs).
    static func dryRunPlan(_ bytes: [UInt8], at path: BytePath, existing: FileStatus?,
                           sources: [String: String]) -> (lines: [String], outcome: String) {
        guard let new = try? ZipReader(bytes) else { preconditionFailure("an archive stickerkit made does not read back") }
        var oldReader: ZipReader? = nil
        var oldEntries: [String: ZipEntry] = [:]
        var oldNames: [String] = []
        var same = false
        if let existing, existing.bytes <= ArchiveInputs.maxArchiveBytes, let file = try? FileSystem.readFile(path) {
            same = file == bytes
            oldReader = try? ZipReader(file)
            for e in oldReader?.entries ?? [] where oldEntries[e.name] == nil {
                oldEntries[e.name] = e
                oldNames.append(e.name)
            }
        }
        var lines: [String] = []
        func line(_ name: String, _ what: String) { lines.append("\(path.appending(name).display): \(what)") }
        var newNames = Set<String>()
        for e in new.entries {
            newNames.insert(e.name)
            guard let contents = try? new.contents(of: e, limit: ArchiveInputs.maxArchiveBytes) else { continue }
            let from = sources[e.name].map { " (from \($0))" } ?? ""
            guard let o = oldEntries[e.name], let reader = oldReader else {
                line(e.name, "would be added" + from)
                continue
            }
            if (try? reader.contents(of: o, limit: contents.count)) != contents { line(e.name, "would be replaced" + from) }
        }
        for name in oldNames where !newNames.contains(name) { line(name, "would be removed") }
        let outcome = existing == nil ? "would be written (new)" : same ? "unchanged" : "would be replaced"
        return (lines, outcome)
    }

    /// `--report`'s file checked before any work, as `resize` checks it: not an input, not the
    /// archive, nothing in the way but an earlier report.
    static func checkReport(_ r: PlatformPackRequest, inputs: [InputFile]) throws {
        guard let report = r.report, !r.reportsToStandardOutput else { return }
        let path = CommandLineBytes.path(for: report)
        if BatchRunner.absolute(path) == BatchRunner.absolute(CommandLineBytes.path(for: r.output)) {
            throw CommandFailure.usage(path.display, "--report: is the archive -o names; choose another name")
        }
        try PathChecks.checkReport(path, inputs: inputs, outputFolder: BytePath(r.cache))
    }

    /// What ends a line when inputs failed: "; 2 inputs failed" (nothing when none did).
    static func failedSuffix(_ failed: Int) -> String {
        failed > 0 ? "; \(failed) input\(failed == 1 ? "" : "s") failed" : ""
    }

    /// " (stills: a.png, b.png, …)": the inputs of the fewer kind of a set of both, so that the
    /// user sees which files to move.
    static func fewerKind(_ packed: [InputFile], animated: [Bool]) -> String {
        let fewerAnimated = animated.filter { $0 }.count < animated.filter { !$0 }.count
        let names = zip(packed, animated).filter { $0.1 == fewerAnimated }.map(\.0.path)
        return " (\(fewerAnimated ? "animations" : "stills"): " + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "") + ")"
    }
}
