import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

/// `pack --platform whatsapp`: the inputs converted as `resize --platform whatsapp` converts them,
/// put together with the tray icon, title and author into one `.wastickers` archive
/// (`WastickersPack`), written atomically. A file at `-o` that is not an archive stickerkit wrote
/// is replaced only with `--overwrite`.
enum WastickersRun {
    struct Request {
        var inputs: [String]
        var output: String
        var title: String?
        var author: String?
        var icon: String?
        var options: ConversionOptions
        var jobs: Int
        var overwrite: Bool
        var quiet: Bool
    }

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

    static func run(_ r: Request) throws {
        let terminal = Terminal(quiet: r.quiet)
        let path = CommandLineBytes.path(for: r.output)

        // 0. The path, before any work: a folder that can hold it, and nothing in the way. The
        // folder may be an input's (`pack art -o art/Cats.wastickers`): the archive is one file,
        // never read back as artwork.
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
            let ours = ArchiveInputs.isStickerkitPack(path)
            if !ours && !r.overwrite {
                throw CommandFailure.usage(path.display, "already exists and is not a .wastickers stickerkit wrote; --overwrite replaces it")
            }
        }

        // 1. Inputs, and the pack rules that can be told before converting.
        // Another pack's stickers may be packed again (a ZIP named, a .wastickers in a folder);
        // one stickerkit wrote there (this archive, on a rerun) is never read back.
        var found = InputDiscovery.discover(r.inputs.map(BytePath.init), excluding: InputDiscovery.Exclusions(), takesArchives: true)
        found.expandArchives(limits: r.options.limits)
        if let existing, found.files.contains(where: { $0.id == existing.id }) {
            // Whatever the flags: an input is never written.
            throw CommandFailure.usage(path.display, "-o: is an input of this pack; choose another name")
        }
        found.announce(on: terminal)
        let inputs = found.files
        let files = inputs.map(\.path)
        if files.isEmpty {
            if !found.missing.isEmpty { throw ExitCode(1) }
            throw CommandFailure.failed(nil, "no images to pack in \(r.inputs.joined(separator: ", "))")
        }
        if !WastickersPack.stickerRange.contains(files.count) {
            throw CommandFailure.failed(r.output, rulesError(files.count).description)
        }

        // 2. The tray icon given with --icon, before converting: a picture that cannot make one
        // stops the run at once. Without it, the tray comes from the first sticker packed (4).
        let givenTray = try r.icon.map { try tray(from: $0, limits: r.options.limits) }

        // 3. Convert, as `resize --platform whatsapp` does, --jobs at a time.
        let outcomes = Locked([Result<StickerOutput, CommandFailure>?](repeating: nil, count: files.count))
        let next = Locked(0)
        CorePool.shared.run(cores: max(1, r.jobs), workers: max(1, min(r.jobs, files.count))) { _ in
            while true {
                let i = next.withLock { n -> Int in defer { n += 1 }; return n }
                if i >= files.count { return }
                let outcome = convert(inputs[i], options: r.options)
                outcomes.withLock { $0[i] = outcome }
            }
        }
        var stickers: [WastickersPack.Sticker] = []
        var packed: [InputFile] = []
        var failed = found.missing.count
        for (input, outcome) in zip(inputs, outcomes.withLock { $0 }) {
            let file = input.path
            switch outcome! {
            case .success(let out):
                for w in out.report.warnings { terminal.warn(file, w) }
                // The file's own structure says what WhatsApp will see: its rules, and still or animated.
                let check = PlatformChecker.check(out.bytes, path: file, target: .whatsapp)
                if let error = check.findings.first(where: { $0.severity == .error }) {
                    terminal.error(CommandFailure.failed(file, "the sticker breaks WhatsApp's rules: \(error.message)").description)
                    failed += 1
                    continue
                }
                let animated = StickerContainer.webp.holdsAnimation(frames: check.facts.frames)
                if !animated && out.report.frames > 1 {
                    terminal.warn(file, "its \(out.report.frames) frames came out as one WebP frame: packed as a still")
                }
                stickers.append(.init(webp: out.bytes, animated: animated))
                packed.append(input)
            case .failure(let f):
                terminal.error(f.description)
                failed += 1
            }
        }

        // 4. The tray icon, unless given: from the first input packed whose artwork makes one (a
        // file that failed has said why once, above, and is never the tray). The archive, when
        // the stickers that converted make a pack.
        var trayPNG = givenTray, traySource = r.icon
        if trayPNG == nil, let made = recordedTray(in: r.inputs) { (trayPNG, traySource) = (made.png, made.path) }
        for input in packed where trayPNG == nil {
            if let png = try? tray(of: read(input, limits: r.options.limits), named: input.path, limits: r.options.limits) {
                (trayPNG, traySource) = (png, input.path)
            }
        }
        if trayPNG == nil && WastickersPack.stickerRange.contains(stickers.count) {
            var line = "no sticker's artwork makes a tray icon; give one with --icon"
            line += failedSuffix(failed)
            throw CommandFailure.failed(r.output, line)
        }
        let pack = WastickersPack(title: r.title ?? defaultTitle(r.output), author: r.author ?? defaultAuthor,
                                  trayPNG: trayPNG ?? [], stickers: stickers)
        let bytes: [UInt8]
        do { bytes = try pack.archive() } catch {
            var line = error.description
            if case .mixedKinds(let stills, let animations) = error {
                // Name the fewer kind, so the user sees which files to move.
                let fewer = stills <= animations
                let names = zip(packed, stickers).filter { $0.1.animated != fewer }.map(\.0.path)
                line += " (\(fewer ? "stills" : "animations"): " + names.prefix(5).joined(separator: ", ") + (names.count > 5 ? ", …" : "") + ")"
            }
            line += failedSuffix(failed)
            throw CommandFailure.failed(r.output, line)
        }
        // The same archive as the one there (a rerun with nothing changed) is left as it is, its
        // date too, as `pack` leaves a catalog's unchanged stickers. A file of another size is
        // not read (one in the way, replaced with --overwrite, may be of any size).
        let unchanged = existing?.bytes == bytes.count && (try? FileSystem.readFile(path)) == bytes
        if !unchanged {
            do throws(FileError) { try AtomicFile.write(bytes, to: path) } catch {
                throw CommandFailure.failed(path.display, error.problem.description)
            }
        }
        if !r.quiet {
            let animated = stickers.first?.animated ?? false
            var line = "\(r.output): " + (unchanged ? "unchanged, " : "") + "\(stickers.count) \(animated ? "animated" : "still") WhatsApp stickers, "
                + "\(StickerChecker.grouped(bytes.count)) bytes; tray icon from \(traySource ?? "")"
            line += failedSuffix(failed)
            terminal.result(line)
        }
        if failed > 0 { throw ExitCode(1) }
    }

    /// What ends a line when inputs failed: "; 2 inputs failed" (nothing when none did).
    static func failedSuffix(_ failed: Int) -> String {
        failed > 0 ? "; \(failed) input\(failed == 1 ? "" : "s") failed" : ""
    }

    /// The title when --title is not given: the archive's name without `.wastickers`.
    static func defaultTitle(_ output: String) -> String {
        ((output as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    static let defaultAuthor = "stickerkit"

    private static func rulesError(_ count: Int) -> WastickersError {
        count > WastickersPack.stickerRange.upperBound ? .tooManyStickers(count) : .tooFewStickers(count)
    }

    /// The tray icon `icons --platform whatsapp` wrote into one of the folders `inputs` names
    /// (its manifest records it, and it is still the file recorded), as it is: the tray the user
    /// made for this pack, which was left out as a sticker.
    static func recordedTray(in inputs: [String]) -> (png: [UInt8], path: String)? {
        let name = BytePath(WastickersPack.trayName)
        for input in inputs {
            let folder = CommandLineBytes.path(for: input)
            guard (try? FileStatus.of(folder))??.kind == .directory,
                  let record = Manifest.records(inFolder: folder).first(where: { $0.output == name }),
                  let status = (try? FileStatus.of(folder.appending(name), followingLinks: false)) ?? nil,
                  status.kind == .regular, status.bytes == record.outputBytes,   // another size: not read
                  let bytes = try? FileSystem.readFile(folder.appending(name)),
                  record.outputSHA256 == SHA256.hex(bytes) else { continue }
            let path = folder.appending(name)
            return (bytes, path.string ?? path.display)
        }
        return nil
    }

    /// The tray icon PNG of the image at `source`, or one line naming why not (exit 1).
    static func tray(from source: String, limits: Limits) throws -> [UInt8] {
        try tray(of: PathChecks.readFile(CommandLineBytes.path(for: source), failing: .failed, limits: limits), named: source, limits: limits)
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

    /// The bytes of `input`: its file, or its entry read out of its archive.
    static func read(_ input: InputFile, limits: Limits) throws(CommandFailure) -> [UInt8] {
        guard input.entry != nil else { return try PathChecks.readFile(input.location, failing: .failed, limits: limits) }
        switch ArchiveInputs.bytes(of: input, limits: limits) {
        case .success(let bytes): return bytes
        case .failure(let why): throw CommandFailure.failed(input.path, why.description)
        }
    }

    /// One input's sticker, or the line naming why not.
    static func convert(_ input: InputFile, options: ConversionOptions) -> Result<StickerOutput, CommandFailure> {
        let file = input.path
        do {
            let data = try read(input, limits: options.limits)
            let result = try StickerConverter.convert(data, options: options)
            guard let first = result.outputs.first else { return .failure(.failed(file, "no sticker made")) }
            switch first.result {
            case .success(let out): return .success(out)
            case .failure(let e): return .failure(.failed(file, e))
            }
        } catch let f as CommandFailure {
            return .failure(f)
        } catch {
            return .failure(.failed(file, error))
        }
    }
}
