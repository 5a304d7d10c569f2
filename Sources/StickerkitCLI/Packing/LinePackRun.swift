import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

/// `pack --platform line`: the inputs converted as `resize --platform line` does, put together
/// with the set's main and chat tab images into the ZIP archive LINE Creators Market takes in one
/// upload (`LinePack`), written atomically. A file at `-o` that is not an archive stickerkit wrote
/// is replaced only with `--overwrite`.
enum LinePackRun {
    /// The main and chat tab images, and where they came from.
    struct Pictures {
        var main: [UInt8]
        var tab: [UInt8]
        /// Whether the main image is an animation.
        var animatedMain: Bool
        var source: String
    }

    static func run(_ r: PlatformPackRequest) throws {
        let started = Date()
        let terminal = Terminal(quiet: r.quiet, resultsOnStderr: r.reportsToStandardOutput)
        // Ctrl-C: the stickers finished stay in the cache, partial files and the archive's
        // temporary are removed (the archive at -o is as it was), exit 130.
        let interrupts = Interrupts(terminal: terminal)
        defer { interrupts.stop() }
        let path = CommandLineBytes.path(for: r.output)
        let limits = r.options.limits

        // 0. The path, before any work. 1. Inputs, and the set sizes that can be told before
        // converting: a count no set of either kind holds.
        let existing = try PlatformPackSteps.checkOutput(path, overwrite: r.overwrite, archive: "a LINE archive")
        let (found, missing) = try PlatformPackSteps.inputs(r.inputs, existing: existing, output: path, cache: r.cache, limits: limits, terminal: terminal)
        // A main.png or tab.png made by hand beside the artwork is the set's picture, not a sticker.
        let (inputs, handMade) = PlatformPackSteps.handMadePictures(found, target: .line)
        try PlatformPackSteps.checkReport(r, inputs: inputs)
        if !LinePack.stillCounts.contains(inputs.count) {
            throw CommandFailure.failed(r.output, LinePackError.setSize(inputs.count, animated: nil).description)
        }

        // 2. The pictures given with --icon, before converting: an image that cannot make them
        // stops the run at once. Without it, they come from the first sticker packed (4).
        var iconData: [UInt8]? = nil, given: Pictures? = nil
        if let icon = r.icon {
            let data = try PathChecks.readFile(CommandLineBytes.path(for: icon), failing: .failed, limits: limits)
            (iconData, given) = (data, try pictures(of: data, named: icon, animatedSet: true, limits: limits))
        }

        // 3. Convert, as `resize --platform line` does, --jobs at a time, through the cache.
        // The file's own structure says what LINE will see: its rules, and still or animated.
        let converted = PlatformPackSteps.convert(inputs, cache: r.cache, options: r.options, jobs: r.jobs, force: r.force,
                                                  target: .line, terminal: terminal, quiet: r.quiet)
        let stickers = converted.stickers.map { LinePack.Sticker(png: $0.bytes, animated: $0.check.facts.frames > 1) }
        let packed = converted.stickers.map(\.input)
        let failed = missing + converted.failed

        // 4. The set's rules, then its pictures: given, else those `icons --platform line` wrote
        // into an input folder, else made by hand beside the artwork, else those of a LINE set
        // stickerkit packed that is packed again, else made from the first input packed (a file
        // that failed has said why once, above, and is never a picture; for a sticker
        // `resize --platform line` wrote, from the artwork it was made from, still as recorded).
        let animatedSet = !stickers.isEmpty && stickers.allSatisfy(\.animated)
        do { try LinePack.check(count: stickers.count, animations: stickers.filter(\.animated).count) } catch {
            var line = error.description
            if case .mixedKinds = error { line += PlatformPackSteps.fewerKind(packed, animated: stickers.map(\.animated)) }
            throw CommandFailure.failed(r.output, line + PlatformPackSteps.failedSuffix(failed))
        }
        var made = try given.map { g -> Pictures in
            // A still set's main image is a still: an animation given is shown by its first frame.
            guard !animatedSet && g.animatedMain, let icon = r.icon, let data = iconData else { return g }
            if let w = IconWarning.firstFrame(of: data, pictures: StickerTarget.line.packIcons.map(\.still)) { terminal.warn(icon, w.description) }
            return try pictures(of: data, named: icon, animatedSet: false, limits: limits)
        }
        if made == nil { made = recordedPictures(in: r.inputs) }
        if made == nil, !handMade.isEmpty { made = try handMadePictures(handMade, animatedSet: animatedSet, limits: limits) }
        if made == nil { made = packedPictures(of: packed, animatedSet: animatedSet, limits: limits) }
        for sticker in converted.stickers where made == nil {
            made = sticker.picture(limits: limits) { try? pictures(of: $0, named: $1, animatedSet: animatedSet, limits: limits) }?.picture
        }
        guard let pictures = made else {
            throw CommandFailure.failed(r.output, "no sticker's artwork makes the main and chat tab images; give an image with --icon"
                                        + PlatformPackSteps.failedSuffix(failed))
        }
        if animatedSet != pictures.animatedMain {
            terminal.warn(pictures.source, animatedSet ? "the main image is a still: LINE asks for an animated set's main image as an animation (APNG)"
                          : "the main image is an animation: LINE shows a set of stills with a still main image")
        }
        let bytes: [UInt8]
        do { bytes = try LinePack(stickers: stickers, mainPNG: pictures.main, tabPNG: pictures.tab).archive() } catch {
            throw CommandFailure.failed(r.output, error.description + PlatformPackSteps.failedSuffix(failed))
        }
        let contents = "\(stickers.count) \(animatedSet ? "animated" : "still") LINE stickers, "
            + "\(StickerChecker.grouped(bytes.count)) bytes; main and chat tab images from \(pictures.source)" + converted.counts
            + PlatformPackSteps.failedSuffix(failed)
        if r.dryRun {
            var sources = Dictionary(uniqueKeysWithValues: packed.enumerated().map { (LinePack.stickerName($0.offset), $0.element.path) })
            for name in LinePack.pictureNames { sources[name] = pictures.source }
            return try PlatformPackSteps.dryRun(bytes, of: r, at: path, existing: existing, sources: sources, contents: contents,
                                                failed: failed, terminal: terminal)
        }
        let unchanged = try PlatformPackSteps.write(bytes, to: path, existing: existing)
        if !r.quiet { terminal.result("\(r.output): " + (unchanged ? "unchanged, " : "") + contents) }
        if let report = r.report {
            try BatchReport.deliver(ArchivePackReport(
                archive: r.output, platform: StickerTarget.line.name, maxBytes: r.options.maxBytes,
                stickers: packed.enumerated().map { .init(entry: LinePack.stickerName($0.offset), input: $0.element.path) },
                picturesFrom: pictures.source, warnings: terminal.warnings, inputs: converted.reports,
                summary: .init(stickers: stickers.count, inputs: inputs.count + missing, converted: converted.converted,
                               upToDate: converted.upToDate, kept: converted.kept, failed: failed, bytes: bytes.count, unchanged: unchanged,
                               seconds: Date().timeIntervalSince(started))), to: report)
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// The main and chat tab images of the image file `data` (named `source` in messages), or one
    /// line naming why not (exit 1). The main image is an APNG when `data` is an animation and
    /// the set is one of animations (`animatedSet`), else a still of its first frame.
    static func pictures(of data: [UInt8], named source: String, animatedSet: Bool, limits: Limits) throws -> Pictures {
        let files = try render(StickerTarget.line.packIcons, of: data, named: source, animatedSet: animatedSet, limits: limits)
        return Pictures(main: files[0], tab: files[1], animatedMain: LinePack.isAnimation(files[0]), source: source)
    }

    /// The files of LINE's pictures `icons` (some of `StickerTarget.line.packIcons`, in order) made
    /// from the image file `data`, or one line naming why not (exit 1).
    static func render(_ icons: [PackIcon], of data: [UInt8], named source: String, animatedSet: Bool, limits: Limits) throws -> [[UInt8]] {
        var target = StickerTarget.line
        target.packIcons = animatedSet ? icons : icons.map(\.still)
        let made: [Result<[UInt8], StickerError>]
        do { made = try PackIconRenderer.render(file: data, target: target, limits: limits) } catch {
            throw CommandFailure.failed(source, "\(error)")
        }
        return try zip(target.packIcons, made).map { icon, result in
            switch result {
            case .success(let b): return b
            case .failure(let e): throw CommandFailure.failed(source, "\(icon.role): \(e)")
            }
        }
    }

    /// The main and chat tab images made from the pictures found by hand beside the artwork
    /// (`PlatformPackSteps.handMadePictures`): each from its own file, or both from the one there
    /// is, fitted to LINE's sizes and rules. One that cannot make its picture is an error.
    static func handMadePictures(_ files: [String: InputFile], animatedSet: Bool, limits: Limits) throws -> Pictures {
        let names = LinePack.pictureNames
        guard let mainFile = files[names[0]] ?? files[names[1]], let tabFile = files[names[1]] ?? files[names[0]] else {
            preconditionFailure("at least one picture")
        }
        guard tabFile != mainFile else {
            return try pictures(of: PlatformPackSteps.read(mainFile, limits: limits), named: mainFile.path, animatedSet: animatedSet,
                                limits: limits)
        }
        // Each file makes its own picture alone (a tab.png is never made into a main image).
        let icons = StickerTarget.line.packIcons
        let main = try render([icons[0]], of: PlatformPackSteps.read(mainFile, limits: limits), named: mainFile.path,
                              animatedSet: animatedSet, limits: limits)[0]
        let tab = try render([icons[1]], of: PlatformPackSteps.read(tabFile, limits: limits), named: tabFile.path,
                             animatedSet: animatedSet, limits: limits)[0]
        return Pictures(main: main, tab: tab, animatedMain: LinePack.isAnimation(main), source: mainFile.path + " and " + tabFile.path)
    }

    /// The main and chat tab images of the first LINE set stickerkit packed whose stickers are
    /// packed again and whose two pictures still pass LINE's rules
    /// (`PlatformPackSteps.packedPicture`), both as they are and both of one set, when its main
    /// image is of the new set's kind.
    static func packedPictures(of packed: [InputFile], animatedSet: Bool, limits: Limits) -> Pictures? {
        let icons = StickerTarget.line.packIcons
        for archive in PlatformPackSteps.stickerkitArchives(among: packed, target: .line) {
            guard let main = PlatformPackSteps.packedPicture(icons[0], in: archive, target: .line, limits: limits),
                  let tab = PlatformPackSteps.packedPicture(icons[1], in: archive, target: .line, limits: limits) else { continue }
            return LinePack.isAnimation(main.png) == animatedSet
                ? Pictures(main: main.png, tab: tab.png, animatedMain: animatedSet, source: main.path) : nil
        }
        return nil
    }

    /// The main and chat tab images `icons --platform line` wrote into an input folder, both
    /// still the files it recorded (`PlatformPackSteps.recordedPicture`).
    static func recordedPictures(in inputs: [String]) -> Pictures? {
        let names = LinePack.pictureNames
        guard let main = PlatformPackSteps.recordedPicture(names[0], in: inputs),
              let tab = PlatformPackSteps.recordedPicture(names[1], in: inputs) else { return nil }
        return Pictures(main: main.png, tab: tab.png, animatedMain: LinePack.isAnimation(main.png), source: main.path)
    }
}
