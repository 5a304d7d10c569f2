import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

/// `pack --platform whatsapp`: the inputs converted as `resize --platform whatsapp` converts them,
/// put together with the tray icon, title and author into one `.wastickers` archive
/// (`WastickersPack`), written atomically. A file at `-o` that is not an archive stickerkit wrote
/// is replaced only with `--overwrite`.
enum WastickersRun {
    /// The usage errors of the text options, before anything is read.
    static func validate(title: String?, author: String?) throws {
        for (flag, value) in [("--title", title), ("--author", author)] {
            guard let value else { continue }
            if value.trimmingCharacters(in: .whitespaces).isEmpty { throw CommandFailure.usage(flag, "is empty") }
            if value.contains(where: \.isNewline) { throw CommandFailure.usage(flag, "must be one line") }
            if value.count > WastickersPack.maxTextLength {
                throw CommandFailure.usage(flag, "has \(value.count) characters; WhatsApp takes at most \(WastickersPack.maxTextLength)")
            }
        }
    }

    static func run(_ r: PlatformPackRequest, title: String?, author: String?) throws {
        let started = Date()
        let terminal = Terminal(quiet: r.quiet, resultsOnStderr: r.reportsToStandardOutput)
        // Ctrl-C: the stickers finished stay in the cache, partial files and the archive's
        // temporary are removed (the archive at -o is as it was), exit 130.
        let interrupts = Interrupts(terminal: terminal)
        defer { interrupts.stop() }
        let path = CommandLineBytes.path(for: r.output)
        let limits = r.options.limits

        // 0. The path, before any work. 1. Inputs, and the pack rules that can be told before converting.
        let existing = try PlatformPackSteps.checkOutput(path, overwrite: r.overwrite, archive: "a .wastickers")
        let (found, missing) = try PlatformPackSteps.inputs(r.inputs, existing: existing, output: path, cache: r.cache, limits: limits,
                                                            terminal: terminal)
        // A tray.png made by hand beside the artwork is the pack's tray, not a sticker.
        let (inputs, handMade) = PlatformPackSteps.handMadePictures(found, target: .whatsapp)
        let files = inputs.map(\.path)
        try PlatformPackSteps.checkReport(r, inputs: inputs)
        if !WastickersPack.stickerRange.contains(files.count) {
            throw CommandFailure.failed(r.output, rulesError(files.count).description)
        }

        // 2. The tray icon given with --icon, before converting: a picture that cannot make one
        // stops the run at once. Without it, the tray comes from the first sticker packed (4).
        let givenTray = try r.icon.map { try tray(from: $0, limits: limits, terminal: terminal) }

        // 3. Convert, as `resize --platform whatsapp` does, --jobs at a time, through the cache.
        // The file's own structure says what WhatsApp will see: its rules, and still or animated.
        let converted = PlatformPackSteps.convert(inputs, cache: r.cache, options: r.options, jobs: r.jobs, force: r.force,
                                                  target: .whatsapp, terminal: terminal, quiet: r.quiet)
        var stickers: [WastickersPack.Sticker] = []
        let packed = converted.stickers.map(\.input)
        let failed = missing + converted.failed
        for c in converted.stickers {
            let animated = StickerContainer.webp.holdsAnimation(frames: c.check.facts.frames)
            if !animated, let frames = c.inputFrames, frames > 1 {
                terminal.warn(c.input.path, "its \(frames) frames came out as one WebP frame: packed as a still")
            }
            stickers.append(.init(webp: c.bytes, animated: animated))
        }

        // 4. The tray icon, unless given: the one `icons --platform whatsapp` recorded in an
        // input folder, else a tray.png made by hand beside the artwork, else the tray of a pack
        // stickerkit wrote that is packed again, else from the first input packed whose artwork
        // makes one (a file that failed has said why once, above, and is never the tray; for a
        // sticker `resize --platform whatsapp` wrote, the artwork it was made from). The
        // archive, when the stickers that converted make a pack.
        var trayPNG = givenTray, traySource = r.icon
        if trayPNG == nil, let made = PlatformPackSteps.recordedPicture(WastickersPack.trayName, in: r.inputs) { (trayPNG, traySource) = (made.png, made.path) }
        if trayPNG == nil, let file = handMade[WastickersPack.trayName] {
            (trayPNG, traySource) = (try tray(of: PlatformPackSteps.read(file, limits: limits), named: file.path, limits: limits),
                                     file.path)
        }
        // The packs stickerkit wrote among the inputs, read once for the tray, title and author.
        let ownPacks = PlatformPackSteps.stickerkitArchives(among: packed, target: .whatsapp)
        if trayPNG == nil, let icon = StickerTarget.whatsapp.packIcons.first,
           let kept = ownPacks.lazy
               .compactMap({ PlatformPackSteps.packedPicture(icon, in: $0, target: .whatsapp, limits: limits) }).first {
            (trayPNG, traySource) = (kept.png, kept.path)
        }
        for sticker in converted.stickers where trayPNG == nil {
            // A sticker `resize --platform whatsapp` wrote: from the artwork it was made from,
            // still as recorded (not from its lossy WebP).
            if let made = sticker.picture(limits: limits, { try? tray(of: $0, named: $1, limits: limits) }) {
                (trayPNG, traySource) = (made.picture, made.path)
            }
        }
        if trayPNG == nil && WastickersPack.stickerRange.contains(stickers.count) {
            var line = "no sticker's artwork makes a tray icon; give one with --icon"
            line += PlatformPackSteps.failedSuffix(failed)
            throw CommandFailure.failed(r.output, line)
        }
        // Title and author, unless given: those of a pack stickerkit wrote that is packed again,
        // else the archive's name and stickerkit.
        let pack = WastickersPack(title: title ?? packedText(WastickersPack.titleName, of: ownPacks, limits: limits) ?? defaultTitle(r.output),
                                  author: author ?? packedText(WastickersPack.authorName, of: ownPacks, limits: limits) ?? defaultAuthor,
                                  trayPNG: trayPNG ?? [], stickers: stickers)
        let bytes: [UInt8]
        do { bytes = try pack.archive() } catch {
            var line = error.description
            if case .mixedKinds = error { line += PlatformPackSteps.fewerKind(packed, animated: stickers.map(\.animated)) }
            line += PlatformPackSteps.failedSuffix(failed)
            throw CommandFailure.failed(r.output, line)
        }
        let animated = stickers.first?.animated ?? false
        let contents = "\(stickers.count) \(animated ? "animated" : "still") WhatsApp stickers, "
            + "\(StickerChecker.grouped(bytes.count)) bytes; tray icon from \(traySource ?? "")" + converted.counts
            + PlatformPackSteps.failedSuffix(failed)
        if r.dryRun {
            var sources = Dictionary(uniqueKeysWithValues: packed.enumerated().map { (WastickersPack.stickerName($0.offset), $0.element.path) })
            sources[WastickersPack.trayName] = traySource
            return try PlatformPackSteps.dryRun(bytes, of: r, at: path, existing: existing, sources: sources, contents: contents,
                                                failed: failed, terminal: terminal)
        }
        let unchanged = try PlatformPackSteps.write(bytes, to: path, existing: existing)
        if !r.quiet { terminal.result("\(r.output): " + (unchanged ? "unchanged, " : "") + contents) }
        if let report = r.report {
            try BatchReport.deliver(ArchivePackReport(
                archive: r.output, platform: StickerTarget.whatsapp.name, maxBytes: r.options.maxBytes,
                stickers: packed.enumerated().map { .init(entry: WastickersPack.stickerName($0.offset), input: $0.element.path) },
                picturesFrom: traySource ?? "", warnings: terminal.warnings, inputs: converted.reports,
                summary: .init(stickers: stickers.count, inputs: inputs.count + missing, converted: converted.converted,
                               upToDate: converted.upToDate, kept: converted.kept, failed: failed, bytes: bytes.count, unchanged: unchanged,
                               seconds: Date().timeIntervalSince(started))), to: report)
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// The title or author (`name`: `title.txt`, `author.txt`) of the first of `packs` (the packs
    /// stickerkit wrote that stickers come from, `PlatformPackSteps.stickerkitArchives`), when it
    /// is what `--title` and `--author` take (one line, not empty, at most
    /// `WastickersPack.maxTextLength` characters).
    static func packedText(_ name: String, of packs: [BytePath], limits: Limits) -> String? {
        guard let archive = packs.first,
              let bytes = try? ArchiveInputs.bytes(ofEntry: name, in: archive, limits: limits).get(),
              bytes.count <= 4 * WastickersPack.maxTextLength, let text = String(bytes: bytes, encoding: .utf8),
              (try? validate(title: text, author: nil)) != nil else { return nil }
        return text
    }

    /// The title when --title is not given: the archive's name without `.wastickers`.
    static func defaultTitle(_ output: String) -> String {
        ((output as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    static let defaultAuthor = "stickerkit"

    private static func rulesError(_ count: Int) -> WastickersError {
        count > WastickersPack.stickerRange.upperBound ? .tooManyStickers(count) : .tooFewStickers(count)
    }

    /// The tray icon PNG of the image at `source`, or one line naming why not (exit 1).
    /// An animation's first frame is warned of (`IconWarning.firstFrame`).
    static func tray(from source: String, limits: Limits, terminal: Terminal) throws -> [UInt8] {
        let data = try PathChecks.readFile(CommandLineBytes.path(for: source), failing: .failed, limits: limits)
        let png = try tray(of: data, named: source, limits: limits)
        if let w = IconWarning.firstFrame(of: data, pictures: StickerTarget.whatsapp.packIcons) {
            terminal.warn(source, w.description)
        }
        return png
    }

    /// The tray icon PNG of the image file `data` (named `source` in messages).
    static func tray(of data: [UInt8], named source: String, limits: Limits) throws -> [UInt8] {
        guard let icon = StickerTarget.whatsapp.packIcons.first else { preconditionFailure("WhatsApp has a tray icon") }
        // The first of WhatsApp's pack pictures (a still), by rows when the file allows.
        let pictures: [Result<[UInt8], StickerError>]
        do { pictures = try PackIconRenderer.render(file: data, target: .whatsapp, limits: limits) } catch { throw CommandFailure.failed(source, "\(error)") }
        switch pictures[0] {
        case .success(let b): return b
        case .failure(let e): throw CommandFailure.failed(source, "\(icon.role): \(e)")
        }
    }
}
