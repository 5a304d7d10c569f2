import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

struct Pack: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert artwork into an Xcode sticker catalog (NAME.xcstickers), or update one.",
        discussion: """
        Converts every input as `resize` does (one --size, the byte budget, animations as APNG) and \
        writes a sticker catalog Xcode opens without edits: root Contents.json, "Sticker \
        Pack.stickerpack" with the grid size and the stickers in order, one NAME.sticker per sticker \
        with its accessibility label, and with --icon the "iMessage App Icon.stickersiconset".

        Into an existing catalog, pack updates: the stickers it made from these inputs are added or \
        replaced, those it made earlier from inputs not given this time stay (--prune removes them), \
        and everything it did not make stays as it is — hand-made stickers, other sets, any file, \
        the icon set when --icon is not given. A sticker stickerkit made and someone edited since is \
        kept too (--overwrite replaces it). What stickerkit made is recorded in the catalog's hidden \
        .stickerkit.json, which Xcode passes over and git keeps with the project. A file or folder \
        at -o that is not a catalog is never replaced without --overwrite.

        Order: the labels file's row order when --labels is given (stickers without a row follow), \
        else natural order (sticker2 before sticker10); stickers pack did not make follow in the \
        order the pack listed them. Without --labels, an order set by hand (in Xcode, or by an \
        earlier --labels) is kept, and new stickers follow it. Labels come from --labels (CSV \
        rows `file,label` or JSON {"file": "label"}; a file is matched by path, name, or name without extension; an empty \
        label means the derived one) or from the file name: happy_cat-2.png → "Happy cat 2". \
        Folder names keep the artist's wording; characters a folder cannot hold become _ and names \
        taken (ignoring case) get a number: both are reported.

        With --frame-folders (or --sequences), a frame folder — a folder without subfolders holding \
        two or more images all named one prefix plus a number (wave_01.png, wave_02.png, … or 1.png, \
        2.png, …) — becomes one animated sticker played at --fps, in number order: with --sequences a \
        NAME.stickersequence of PNG frames (the budget shared between the frames), otherwise an APNG \
        NAME.sticker.

        Converted stickers are cached outside the project (~/Library/Caches/stickerkit on macOS, \
        $XDG_CACHE_HOME/stickerkit or ~/.cache/stickerkit elsewhere; --cache DIR to choose), so that \
        a rerun converts only inputs or settings that changed. Sticker catalogs and the cache are never read \
        as inputs. The catalog is built in a temporary folder beside it and renamed into place.
        With --platform whatsapp, -o names a NAME.wastickers archive instead, the file WhatsApp \
        sticker-maker apps import: the stickers converted as `resize --platform whatsapp` does \
        (01.webp, 02.webp, … in input order), tray.png (96×96, from --icon, else the tray.png \
        `icons --platform whatsapp` wrote into an input folder, else a tray.png of your own there \
        (never a sticker), else the tray of a .wastickers stickerkit wrote that is packed again, \
        else from the first input packed), title.txt (--title, else that pack's, else NAME) and \
        author.txt (--author, else that pack's, else "stickerkit"). \
        WhatsApp takes 3 to 30 stickers, all stills or all animations: anything else is one error \
        line and no archive (exit 1). A file at -o that is not a .wastickers stickerkit wrote is \
        replaced only with --overwrite. Its stickers are cached as a catalog's are (--cache, \
        --force); --report says which input each entry came from. The stickers of a pack \
        stickerkit wrote for the same app, packed again, are kept as they are. \
        With --platform line, -o names a NAME.zip instead, the archive LINE Creators Market takes in \
        one upload: the stickers converted as `resize --platform line` does (01.png, 02.png, … in \
        input order), main.png (240×240, an APNG for animations) and tab.png (96×74), both from \
        --icon, else those `icons --platform line` wrote into an input folder, else a main.png and \
        tab.png of your own there (one makes both; never stickers), else those of a LINE set \
        stickerkit packed that is packed again (its stickers kept as they are too), else from the \
        first input packed. LINE sells 8, 16, 24, 32 or 40 stills, or 8, 16 or 24 animations, in an \
        archive of at most 20 MB: anything else is one error line and no archive (exit 1). A file at \
        -o that is not an archive stickerkit wrote is replaced only with --overwrite; its stickers \
        are cached as a catalog's are.
        Exit status: 0 all converted, 1 some inputs failed (the catalog holds the rest), 2 usage error.
        """)

    @Argument(help: ArgumentHelp("Input files or folders (searched recursively).", valueName: "input"),
              completion: .file())
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The catalog to write or update, NAME.xcstickers (with --platform whatsapp NAME.wastickers, with --platform line NAME.zip).", completion: .directory)
    var output: String

    @OptionGroup var grid: GridSizeOption
    @OptionGroup var conversion: ConversionFlags

    @Option(name: .long, help: "Accessibility labels and sticker order: a CSV (file,label) or JSON ({\"file\": \"label\"}) file.",
            completion: .file(extensions: ["csv", "json"]))
    var labels: String?

    @Option(name: .long, help: "Also write the iMessage app icon set from this image (with --platform whatsapp or line: the pack's pictures).", completion: .file())
    var icon: String?

    @Option(name: .customLong("icon-background"), help: "Colour behind transparent icon pixels: #RRGGBB or a name (default: white).")
    var iconBackground: String?

    @Option(name: .customLong("icon-fit"), help: "Icons: cover (fill, crop the overflow; the default) or contain (whole image, padded).")
    var iconFit: FitMode?

    @Flag(name: .customLong("frame-folders"), help: "Treat folders of numbered frames (wave_01.png, wave_02.png, …) as one animated sticker each.")
    var frameFolders = false

    @Flag(name: .long, help: "Write frame folders as .stickersequence (PNG frames) instead of APNG stickers (implies --frame-folders).")
    var sequences = false

    @Option(name: .long, help: "Frame rate of frame folders.")
    var fps: Double = 10

    @Flag(name: .long, help: "Remove the stickers pack made earlier from inputs not given this time.")
    var prune = false

    @Flag(name: .long, help: "Replace what pack did not make: a file or non-catalog folder at -o, stickers edited since pack made them, a hand-made icon set (with --icon).")
    var overwrite = false

    @Option(name: .long, help: "Conversion cache folder (default: in the user's cache folder, outside the project).",
            completion: .directory)
    var cache: String?

    @OptionGroup var jobs: JobsOption

    @Flag(name: .long, help: "Convert every input again, even those that are up to date.")
    var force = false

    @OptionGroup var reportOption: ReportOption

    @OptionGroup var platform: PlatformFlags

    @Option(name: .long, help: "With --platform whatsapp: the pack's title (default: the archive's name).")
    var title: String?

    @Option(name: .long, help: "With --platform whatsapp: the pack's author (default: stickerkit).")
    var author: String?

    @Flag(name: .long, help: "Say what the update would add, replace, keep and remove in the catalog (with --platform whatsapp or line: in the archive), without changing it. The inputs are converted through the cache (outside the project), which tells a sticker made again from one that is unchanged.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        try PathArgument.requireNonEmpty(output, "-o", naming: "the catalog, e.g. -o \"My Stickers.xcstickers\"")
        try PathArgument.requireNonEmpty(labels, "--labels", naming: "a CSV or JSON file of labels")
        try PathArgument.requireNonEmpty(icon, "--icon", naming: "an image")
        try PathArgument.requireNonEmpty(cache, "--cache", naming: "a folder")
        let name = (output as NSString).lastPathComponent
        if dryRun && reportOption.report != nil { throw ValidationError("--dry-run writes nothing: leave out --report") }
        if platform.target == .whatsapp || platform.target == .line { return try validateArchive(name) }
        if !platform.target.isMessages {
            throw ValidationError("pack writes Xcode sticker catalogs (imessage), WhatsApp archives (--platform whatsapp) and LINE upload archives (--platform line); \(platform.target.displayName) packs are not made yet: use resize --platform \(platform.target.name)")
        }
        if title != nil || author != nil { throw ValidationError("--title and --author are for --platform whatsapp") }
        if !name.hasSuffix(".xcstickers") || name == ".xcstickers" {
            throw ValidationError("-o must name the catalog folder, e.g. -o \"My Stickers.xcstickers\"")
        }
        if !(fps > 0 && fps <= 120) { throw ValidationError("--fps must be above 0 and at most 120") }
        if let cache, PackCache.isInside(cache, output) {
            throw ValidationError("--cache \(cache) is inside the catalog; Xcode would compile it: choose a folder outside")
        }
        _ = try ColorArgument.parse(iconBackground ?? "white")
    }

    /// A platform archive's usage errors (`--platform whatsapp` or `line`): its name and the
    /// options a catalog alone takes.
    func validateArchive(_ name: String) throws {
        let line = platform.target == .line
        let suffix = line ? ".zip" : ".wastickers"
        if !name.lowercased().hasSuffix(suffix) || name.count == suffix.count {
            throw ValidationError("-o must name the archive, e.g. -o \"My Stickers\(suffix)\"")
        }
        let catalogOnly: [(String, Bool)] = [("--labels", labels != nil), ("--frame-folders", frameFolders), ("--sequences", sequences),
                                             ("--prune", prune), ("--icon-background", iconBackground != nil),
                                             ("--icon-fit", iconFit != nil)]
        if let (flag, _) = catalogOnly.first(where: \.1) {
            throw ValidationError("\(flag) is for Xcode sticker catalogs, not --platform \(platform.target.name)")
        }
        if line {
            if title != nil || author != nil { throw ValidationError("--title and --author are for --platform whatsapp: LINE takes them in its upload form") }
            return
        }
        try WastickersRun.validate(title: title, author: author)
    }

    func run() throws {
        if platform.target == .whatsapp || platform.target == .line {
            var options = platform.apply(to: try conversion.conversionOptions(sizes: [.regular]), budgetGiven: conversion.budget.given)
            options.measuresQuality = reportOption.report != nil
            let request = PlatformPackRequest(inputs: inputs, output: output, icon: icon, options: options, jobs: jobs.count,
                                              cache: cache ?? PackCache.defaultDirectory(for: output), force: force,
                                              overwrite: overwrite, quiet: quiet, dryRun: dryRun, report: reportOption.report)
            return try platform.target == .line ? LinePackRun.run(request) : WastickersRun.run(request, title: title, author: author)
        }
        let started = Date()
        let terminal = Terminal(quiet: quiet, resultsOnStderr: reportOption.toStandardOutput)
        let interrupts = Interrupts(terminal: terminal)
        defer { interrupts.stop() }
        var options = try conversion.conversionOptions(sizes: [grid.size ?? StickerCatalog.gridSize(of: output) ?? .regular])
        options.measuresQuality = reportOption.report != nil
        let size = options.sizes[0]
        let update = StickerCatalog.UpdateOptions(prune: prune, overwrite: overwrite)

        // 0. Everything that can stop the run before any work: the path, the labels, the icon.
        do {
            try StickerCatalog.checkTarget(output, options: update, withIconSet: icon != nil)
        } catch let e as PackError {
            throw PackFailure.beforeWork(e, writing: .catalog)
        }
        // A catalog (or nothing yet) at -o: a folder that can be written, or created, and no input.
        let catalogPath = CommandLineBytes.path(for: output)
        if ((try? FileStatus.of(catalogPath))?.kind ?? .directory) == .directory {
            try PathChecks.checkOutputFolder(catalogPath, inputs: inputs.map(CommandLineBytes.path(for:)))
        }
        let labelFile = try labels.map(Pack.readLabels)
        var iconSet: IconSetFiles?
        if let icon {
            try PathChecks.checkImage(icon, outside: (output as NSString).appendingPathComponent(StickerCatalog.iconSetFolderName), flag: "--icon")
            iconSet = try Icons.render(icon, background: try ColorArgument.parse(iconBackground ?? "white"), fit: iconFit ?? .cover,
                                       limits: options.limits)
            for w in iconSet!.warnings { terminal.warn(icon, w.description) }
        }
        if options.maxBytes > ByteBudget.messages {
            terminal.warn(output, "budget \(StickerChecker.grouped(options.maxBytes)) bytes is above Messages' limit of "
                     + "\(StickerChecker.grouped(ByteBudget.messages)): Messages refuses larger stickers")
        }

        // 1. Inputs: never a catalog or the cache; frame folders apart.
        let cacheDir = cache ?? PackCache.defaultDirectory(for: output)
        var found = InputDiscovery.discover(inputs.map(BytePath.init), excluding: InputDiscovery.Exclusions(), takesArchives: true)
        found.expandArchives(limits: options.limits)
        let report = reportOption.report
        if let path = reportOption.path {
            try PathChecks.checkReport(path, inputs: found.files, outputFolder: BytePath(output))
        }
        found.announce(on: terminal)
        for arg in inputs where StickerCatalog.holds(arg) {
            terminal.warn(arg, "a sticker catalog is never read as artwork; skipped")
        }
        let folders = (frameFolders || sequences) ? FrameFolder.find(in: inputs, excluding: [cacheDir]) : []
        let framePaths = Set(folders.flatMap(\.frames))
        let files = found.files.filter {
            !framePaths.contains($0.path) && !StickerCatalog.holds($0.path) && !PackCache.isInside($0.path, cacheDir)
        }
        if files.isEmpty && folders.isEmpty {
            // Each missing input or empty folder is named above; else every input was a catalog.
            if !found.missing.isEmpty { throw ExitCode(1) }
            throw CommandFailure.failed(nil, "no images to pack in \(inputs.joined(separator: ", "))")
        }

        // 2. Convert, through the cache: files by the batch runner, frame folders here.
        var reports = PackCache(directory: cacheDir).convert(files, options: options, jobs: jobs.count, force: force, terminal: terminal,
                                                             quiet: quiet)

        var stickers: [CatalogSticker] = []
        var failedSources = Set<String>()
        var labelUse = LabelUse(labelFile)
        func sticker(_ path: String, _ name: String, _ content: CatalogSticker.Content) -> CatalogSticker {
            let (label, rank) = labelUse.use(path, name: name)
            return CatalogSticker(name: name, label: label, content: content, source: PackInputs.source(of: path, catalog: output), rank: rank)
        }
        for (file, report) in zip(files, reports) {
            // The cached sticker is read when the catalog is written, one at a time.
            guard let out = report.outputs.first(where: { $0.status.hasSticker }),
                  (try? FileStatus.of(BytePath(out.path)))?.kind == .regular else {
                failedSources.insert(PackInputs.source(of: file.path, catalog: output))
                continue
            }
            let name = ((file.relativePath as NSString).lastPathComponent as NSString).deletingPathExtension
            stickers.append(sticker(file.path, name, .storedFile(path: out.path, fileExtension: "png")))
        }
        var frameCounts = (converted: 0, upToDate: 0)
        let frameCache = FrameFolderCache(cache: cacheDir)
        let settings = BatchRunner.settingsKey(options, size) + " fps=\(fps) sequence=\(sequences)"
        for folder in folders {
            var entry = BatchReport.File(input: folder.path, frames: folder.frames.count, warnings: [], outputs: [])
            do {
                let made = try frameCache.sticker(of: folder, settings: settings, options: options, fps: fps, sequence: sequences, force: force)
                if made.upToDate { frameCounts.upToDate += 1 } else { frameCounts.converted += 1 }
                entry.outputs.append(.init(path: frameCache.folder(for: folder), size: size, status: made.upToDate ? .upToDate : .written))
                stickers.append(sticker(folder.path, folder.stickerName, made.content))
            } catch {
                let failure = CommandFailure.failed(folder.path, error)
                terminal.error(failure.description)
                entry.error = failure.message
                entry.outputs.append(.init(path: frameCache.folder(for: folder), size: size, status: .failed(reason: failure.message)))
                failedSources.insert(PackInputs.source(of: folder.path, catalog: output))
            }
            reports.append(entry)
        }
        if !dryRun {
            frameCache.removeStale(keeping: Set(folders.map { (frameCache.folder(for: $0) as NSString).lastPathComponent }))
        }

        // 3. Labels the user should know about.
        if let labels {
            for w in labelUse.warnings(given: files.map(\.path) + folders.map(\.path)) { terminal.warn(labels, w) }
        }

        // 4. The catalog, written or updated atomically.
        if stickers.isEmpty && failedSources.isEmpty {
            throw CommandFailure.failed(nil, "no stickers to pack from \(inputs.joined(separator: ", "))")
        }
        var catalog = StickerCatalog(gridSize: size, stickers: stickers, iconSet: iconSet)
        catalog.failedSources = failedSources
        let changes: CatalogChanges
        do {
            changes = dryRun ? try catalog.changes(at: output, options: update) : try catalog.write(to: output, options: update)
        } catch let e as PackError {
            throw PackFailure.explain(e, writing: .catalog)
        }
        let sourcePaths = Dictionary((files.map(\.path) + folders.map(\.path)).map { (PackInputs.source(of: $0, catalog: output), $0) },
                                     uniquingKeysWith: { a, _ in a })
        for r in changes.renames { terminal.warn(r.source.flatMap { sourcePaths[$0] } ?? r.wanted, r.description) }
        for w in changes.warnings { terminal.warn(output, w.description) }

        // 5. Summary and report.
        let counts = BatchCounts(Array(reports.prefix(files.count)))
        let failed = found.missing.count + failedSources.count
        let converted = counts.converted + frameCounts.converted, upToDate = counts.skipped + frameCounts.upToDate
        let summary = Pack.summary(output, size: size, changes: changes, files: files.count, frameFolders: folders.count,
                                   converted: converted, upToDate: upToDate, iconSet: iconSet != nil, failed: failed)
        if dryRun {
            for line in Pack.dryRunLines(output, changes: changes) { terminal.result(line) }
            terminal.warning("dry run: \(summary); the catalog was not changed")
            if failed > 0 { throw ExitCode(1) }
            return
        }
        if !quiet { terminal.result(summary) }

        if let report {
            let missing = found.missing.map { BatchReport.File(input: $0.path, warnings: [], error: $0.reason, outputs: []) }
            let r = PackReport(catalog: output, gridSize: size, maxBytes: options.maxBytes, stickers: changes.entries,
                               renames: changes.renames, warnings: terminal.warnings, inputs: reports + missing,
                               summary: .init(stickers: changes.stickerCount, added: changes.count(.added),
                                              replaced: changes.count(.replaced), unchanged: changes.count(.unchanged),
                                              removed: changes.count(.removed), keptHandMade: changes.count(.keptHandMade),
                                              keptByStickerkit: changes.keptFromEarlierRuns, inputs: files.count + folders.count + found.missing.count,
                                              frameFolders: folders.count, converted: converted, upToDate: upToDate, failed: failed,
                                              iconSetWritten: iconSet != nil, seconds: Date().timeIntervalSince(started)))
            try BatchReport.deliver(r, to: report)
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// "NAME.xcstickers: 7 stickers (regular): 1 added, 0 replaced, 5 unchanged, 1 hand-made kept;
    /// 5 files and 1 frame folder (1 converted, 5 up to date)".
    static func summary(_ output: String, size: StickerSize, changes: CatalogChanges, files: Int, frameFolders: Int,
                        converted: Int, upToDate: Int, iconSet: Bool, failed: Int) -> String {
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        var parts = ["\(changes.count(.added)) added", "\(changes.count(.replaced)) replaced", "\(changes.count(.unchanged)) unchanged"]
        if changes.count(.removed) > 0 { parts.append("\(changes.count(.removed)) removed") }
        if changes.keptFromEarlierRuns > 0 { parts.append("\(changes.keptFromEarlierRuns) kept from earlier runs") }
        if changes.count(.keptHandMade) > 0 { parts.append("\(changes.count(.keptHandMade)) hand-made kept") }
        var line = "\(output): \(plural(changes.stickerCount, "sticker")) (\(size.rawValue)): " + parts.joined(separator: ", ")
        line += "; " + plural(files, "file") + (frameFolders > 0 ? " and " + plural(frameFolders, "frame folder") : "")
        line += " (\(converted) converted, \(upToDate) up to date)"
        if iconSet { line += changes.iconSetUnchanged ? "; icon set unchanged" : "; icon set written" }
        if failed > 0 { line += "; \(plural(failed, "input")) failed" }
        return line
    }

    /// What `--dry-run` prints: one line per sticker folder the update would change or keep
    /// for a reason (not those unchanged or hand-made), and the icon set when it would be written.
    static func dryRunLines(_ output: String, changes: CatalogChanges) -> [String] {
        let pack = (output as NSString).appendingPathComponent(changes.packFolder)
        var lines: [String] = []
        for e in changes.entries {
            let source = e.source ?? "?"
            let what: String
            switch e.outcome {
            case .added: what = "would be added (from \(source))"
            case .replaced: what = "would be replaced (made again from \(source))"
            case .keptEdited: what = "would be kept: edited since stickerkit made it (--overwrite replaces it)"
            case .keptWithoutInput: what = "would be kept: made from \(source), an input not given this time (--prune removes it)"
            case .keptInputFailed: what = "would be kept: its input \(source) failed"
            case .removed: what = "would be removed (--prune): made from \(source), an input not given this time"
            case .unchanged, .keptHandMade: continue
            }
            lines.append("\((pack as NSString).appendingPathComponent(e.folder)): \(what)")
        }
        if changes.iconSetWritten && !changes.iconSetUnchanged {
            lines.append("\((output as NSString).appendingPathComponent(StickerCatalog.iconSetFolderName)): would be written")
        }
        return lines
    }

    /// The labels file, or one line naming what is wrong with it (exit 2).
    static func readLabels(_ path: String) throws -> StickerLabels {
        let location = CommandLineBytes.path(for: path)
        if let size = (try? FileStatus.of(location))??.bytes, size > StickerLabels.maxFileBytes {
            throw CommandFailure.usage(path, "\(Limits.describeMegabytes(size)): a labels file is at most "
                                       + "\(Limits.describeMegabytes(StickerLabels.maxFileBytes)); is this the labels file?")
        }
        let bytes = try PathChecks.readFile(location, failing: .usage)
        do {
            return try StickerLabels(data: bytes, fileName: path)
        } catch {
            // The labels errors start with the file's name: "labels.csv: line 3 has …".
            let text = "\(error)"
            let what = text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
            throw CommandFailure.usage(path, what)
        }
    }
}
