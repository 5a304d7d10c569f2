import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

struct Pack: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert artwork into an Xcode sticker catalog (NAME.xcstickers).",
        discussion: """
        Converts every input as `resize` does (one --size, the byte budget, animations as APNG) and \
        writes a standalone sticker catalog Xcode opens without edits: root Contents.json, \
        "Sticker Pack.stickerpack" with the grid size and the stickers sorted by name (ignoring \
        case, then by UTF-8 bytes), one NAME.sticker per sticker with its accessibility label, and \
        with --icon the "iMessage App Icon.stickersiconset".

        Labels come from --labels (CSV rows `file,label` or JSON {"file": "label"}; a file is \
        matched by path, name, or name without extension) or from the file name: happy_cat-2.png → \
        "Happy cat 2".

        With --frame-folders (or --sequences), a frame folder — a folder without subfolders holding \
        two or more images all named one prefix plus a number (wave_01.png, wave_02.png, … or 1.png, \
        2.png, …) — becomes one animated sticker played at --fps, in number order: with --sequences a \
        NAME.stickersequence of PNG frames (the budget shared between the frames), otherwise an APNG \
        NAME.sticker. Without either flag every image is its own sticker, so a folder of \
        sticker1.png, sticker2.png, … is never merged into one animation by surprise.

        Converted stickers are kept in a hidden folder beside the catalog (.NAME.xcstickers.cache) \
        so that a rerun only converts inputs or settings that changed; the catalog itself is \
        rebuilt in a temporary folder and renamed into place.
        Exit status: 0 all converted, 1 some inputs failed (the catalog holds the rest), 2 usage error.
        """)

    @Argument(help: "Input files or folders (searched recursively).")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The catalog to write, NAME.xcstickers.")
    var output: String

    @OptionGroup var conversion: ConversionFlags

    @Option(name: .long, help: "Accessibility labels: a CSV (file,label) or JSON ({\"file\": \"label\"}) file.")
    var labels: String?

    @Option(name: .long, help: "Also write the iMessage app icon set from this image.")
    var icon: String?

    @Option(name: .customLong("icon-background"), help: "Colour behind transparent icon pixels: #RRGGBB or a name.")
    var iconBackground: String = "white"

    @Flag(name: .customLong("frame-folders"), help: "Treat folders of numbered frames (wave_01.png, wave_02.png, …) as one animated sticker each.")
    var frameFolders = false

    @Flag(name: .long, help: "Write frame folders as .stickersequence (PNG frames) instead of APNG stickers (implies --frame-folders).")
    var sequences = false

    @Option(name: .long, help: "Frame rate of frame folders.")
    var fps: Double = 10

    @Option(name: .shortAndLong, help: "Files converted at once (default: all cores).")
    var jobs: Int?

    @Flag(name: .long, help: "Convert every input again, even those that are up to date.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if conversion.size == .all { throw ValidationError("pack takes one grid size: --size small, regular or large") }
        let name = (output as NSString).lastPathComponent
        if !name.hasSuffix(".xcstickers") || name == ".xcstickers" {
            throw ValidationError("-o must name the catalog folder, e.g. -o \"My Stickers.xcstickers\"")
        }
        if !(fps > 0 && fps <= 120) { throw ValidationError("--fps must be above 0 and at most 120") }
        if let j = jobs, j < 1 { throw ValidationError("--jobs must be at least 1") }
        _ = try ColorArgument.parse(iconBackground)
    }

    func run() throws {
        let terminal = Terminal(quiet: quiet)
        let interrupts = Interrupts(terminal: terminal)
        defer { interrupts.stop() }
        let options = try conversion.conversionOptions()
        let size = options.sizes[0]
        let labelFile: StickerLabels?
        if let labels {
            guard let data = FileManager.default.contents(atPath: labels) else {
                throw ValidationError("--labels \(labels): cannot read the file")
            }
            do { labelFile = try StickerLabels(data: [UInt8](data), fileName: labels) } catch {
                throw ValidationError("--labels \(error)")
            }
        } else {
            labelFile = nil
        }
        func label(_ path: String, _ name: String) -> String {
            labelFile?.label(for: path) ?? StickerNaming.label(fromFileName: name)
        }

        // 1. Frame folders, then every other image through resize's batch machinery.
        let frameFolders = (self.frameFolders || sequences) ? FrameFolder.find(in: inputs) : []
        let framePaths = Set(frameFolders.flatMap(\.frames))
        let found = InputDiscovery.discover(inputs)
        for m in found.missing { terminal.error("\(m.path): error: \(m.reason)") }
        let files = found.files.filter { !framePaths.contains($0.path) }
        let cache = PackInputs.cacheDirectory(for: output)
        let plan = OutputPlan(directory: cache, sizes: [size], inputs: files)
        let runner = BatchRunner(settings: .init(options: options, outputDirectory: cache,
                                                 jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                                                 overwrite: true, force: force),
                                 terminal: terminal)
        let reports = runner.run(files, plan: plan)
        let counts = BatchCounts(reports)
        var failed = found.missing.count
        var stickers: [CatalogSticker] = []
        for (file, report) in zip(files, reports) {
            guard let out = report.outputs.first(where: { $0.status.hasSticker }),
                  let data = FileManager.default.contents(atPath: out.path) else {
                failed += 1
                continue
            }
            let name = ((file.relativePath as NSString).lastPathComponent as NSString).deletingPathExtension
            stickers.append(CatalogSticker(name: name, label: label(file.path, (file.path as NSString).lastPathComponent),
                                           content: .file(bytes: [UInt8](data), fileExtension: "png")))
        }
        for folder in frameFolders {
            let name = folder.stickerName
            do {
                let content = try PackInputs.convertFrames(folder.frames, options: options, fps: fps, sequence: sequences)
                stickers.append(CatalogSticker(name: name, label: label(folder.path, name), content: content))
            } catch {
                terminal.error("\(folder.path): error: \(error)")
                failed += 1
            }
        }

        // 2. The icon set, then the catalog, written atomically.
        var iconSet: IconSetFiles?
        if let icon {
            iconSet = try Icons.render(icon, background: try ColorArgument.parse(iconBackground))
        }
        if stickers.isEmpty {
            terminal.error("stickerkit: no stickers to pack from \(inputs.joined(separator: ", "))")
            throw ExitCode(1)
        }
        do {
            try StickerCatalog(gridSize: size, stickers: stickers, iconSet: iconSet).write(to: output)
        } catch {
            terminal.error("\(output): error: cannot write the catalog: \(error)")
            throw ExitCode(1)
        }
        let summary = "\(output): \(stickers.count) sticker\(stickers.count == 1 ? "" : "s") (\(size.rawValue), "
            + "\(counts.converted) converted, \(counts.skipped) up to date)\(iconSet == nil ? "" : " and the app icon set")"
            + (failed > 0 ? "; \(failed) input\(failed == 1 ? "" : "s") failed" : "")
        if !quiet { print(summary) }
        if failed > 0 { throw ExitCode(1) }
    }
}
