import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

/// `icons --platform NAME`: the platform's pack pictures (`StickerTarget.packIcons`: WhatsApp's
/// tray icon, Telegram's thumbnail, LINE's main and chat tab images) in a folder.
///
/// The folder's manifest (`Manifest`, the one `resize` keeps) records each picture written, as
/// for stickers: a later run replaces a picture of its own (unchanged since) without asking, and
/// `resize` or `pack` on that folder never take the pictures for artwork. A file at a picture's
/// name that stickerkit did not write, or has changed since, is replaced only when it holds
/// exactly what would be written (nothing to do; it is recorded as ours) or with `--overwrite`:
/// a `tray.png` the user made is never lost. Every problem is found before anything is written,
/// one line each: paths in the way, then pictures that cannot be made, then files that would be
/// replaced. A picture that animates, made from an animation, is named for its container
/// (`StickerTarget.fileName(of:animated:)`: Telegram's `thumbnail.webm`); the picture under the
/// other name that an earlier run wrote is removed when it is as written, and otherwise (the
/// user's, or edited) stays with a warning that the app takes one.
enum PlatformIconRun {
    static func run(image: String, output: String, target: StickerTarget, overwrite: Bool, terminal: Terminal, quiet: Bool,
                    limits: Limits) throws {
        guard !target.packIcons.isEmpty else {
            throw CommandFailure.usage("--platform", "\(target.displayName) packs have no pack picture to make")
        }
        let folder = CommandLineBytes.path(for: output)
        let imagePath = CommandLineBytes.path(for: image)
        try PathChecks.checkOutputFolder(folder, inputs: [imagePath])
        let source = (try? FileStatus.of(imagePath)) ?? nil
        let data = try PathChecks.readFile(imagePath, failing: .failed, limits: limits)
        let animated = PackIconRenderer.isAnimation(file: data)
        let names = target.packIcons.map { target.fileName(of: $0, animated: animated) }
        var inTheWay: [CommandFailure] = []
        var existing: [FileStatus?] = []
        for name in names {
            let path = folder.appending(name)
            do {
                let status = try FileStatus.of(path, followingLinks: false)
                if let status, status.kind != .regular {
                    inTheWay.append(.usage(path.display, "is in the way (not a regular file); move it or choose another -o"))
                } else if let status, status.id == source?.id {
                    // Whatever the flags and the manifest say, an input is never written.
                    inTheWay.append(.usage(path.display, "is the image the pictures are made from; choose another -o"))
                }
                existing.append(status)
            } catch {
                inTheWay.append(.usage(path.display, error.problem.description))
                existing.append(nil)
            }
        }
        try stop(inTheWay, terminal)
        let made: [Result<[UInt8], StickerError>]
        do { made = try PackIconRenderer.render(file: data, target: target, limits: limits) } catch {
            throw CommandFailure.failed(image, "\(error)")
        }
        var pictures: [[UInt8]] = []
        var unmade: [CommandFailure] = []
        for (icon, result) in zip(target.packIcons, made) {
            switch result {
            case .success(let b): pictures.append(b)
            case .failure(let e): unmade.append(.failed(image, "\(icon.role): \(e)"))
            }
        }
        try stop(unmade, terminal)
        if let w = IconWarning.firstFrame(of: data, pictures: target.packIcons) { terminal.warn(image, w.description) }

        // The folder exists when any picture is there; its manifest says which are ours.
        let opened = existing.contains { $0 != nil } ? try open(folder, terminal: terminal) : nil
        var upToDate: [Bool] = []
        var replacing: [CommandFailure] = []
        for (k, name) in names.enumerated() {
            let path = folder.appending(name)
            guard existing[k] != nil, let opened else {
                upToDate.append(false)
                continue
            }
            // A file of another size is not read: it may be of any size.
            let same = existing[k]?.bytes == pictures[k].count && (try? opened.folder.read(BytePath(name))) == pictures[k]
            upToDate.append(same)
            if same || overwrite || opened.manifest.record(for: BytePath(name)) != nil { continue }
            let reason = opened.manifest.changedOutputs.contains(BytePath(name))
                ? "was written by stickerkit and has changed since" : "already exists and holds another picture"
            replacing.append(.usage(path.display, "\(reason); --overwrite replaces it"))
        }
        try stop(replacing, terminal)

        let place: (folder: OutputFolder, manifest: Manifest)
        if let opened { place = opened } else {
            do throws(FileError) {
                try FileSystem.createFolders(folder)
            } catch {
                throw CommandFailure.failed(output, "cannot create the folder (\(error.problem))")
            }
            place = try open(folder, terminal: terminal)
        }
        let digest = SHA256.hex(data)
        let settings = "\(Stickerkit.configuration.version) pack-picture platform=\(target.name)"
        func record(_ name: BytePath, _ bytes: [UInt8], _ written: FileStatus) -> ManifestRecord {
            ManifestRecord(version: ManifestRecord.currentVersion, output: name, size: nil, name: nil,
                           input: BatchRunner.absolute(imagePath), inputBytes: source?.bytes ?? data.count,
                           inputModifiedNanoseconds: source?.modifiedNanoseconds, inputSHA256: digest, settings: settings,
                           outputBytes: written.bytes, outputModifiedNanoseconds: written.modifiedNanoseconds,
                           outputInode: written.id.inode, outputSHA256: SHA256.hex(bytes))
        }
        for (k, icon) in target.packIcons.enumerated() {
            let name = BytePath(names[k])
            let path = folder.appending(names[k])
            do throws(FileError) {
                if upToDate[k] {
                    // The same picture: recorded as ours (made from this image) if it was not.
                    if let status = place.folder.status(of: name),
                       place.manifest.record(for: name).map({ $0.input != BatchRunner.absolute(imagePath) || $0.settings != settings }) ?? true {
                        try place.manifest.append(record(name, pictures[k], status))
                    }
                    if !quiet { terminal.result("\(target.displayName) \(icon.role) up to date: \(path.display)") }
                    continue
                }
                try place.folder.write(pictures[k], to: name) { written throws(FileError) in
                    try place.manifest.append(record(name, pictures[k], written))
                }
            } catch {
                throw CommandFailure.failed(path.display, error.problem.description)
            }
            if !quiet { terminal.result("\(target.displayName) \(icon.role) (\(icon.dimensions), \(pictures[k].count) bytes) written to \(path.display)") }
        }
        for (k, icon) in target.packIcons.enumerated() {
            for other in target.fileNames(of: icon) where other != names[k] && place.folder.status(of: BytePath(other)) != nil {
                // The picture of the other kind from an earlier run, as written: superseded.
                let path = folder.appending(other)
                do throws(FileError) {
                    if try place.manifest.removeOwn(BytePath(other)) {
                        if !quiet { terminal.result("\(path.display) removed: \(names[k]) is the \(target.displayName) \(icon.role) now") }
                        continue
                    }
                } catch {
                    terminal.error("\(path.display): error: \(error.problem); it stays")
                }
                terminal.warn(path.display, "stays beside \(names[k]); \(target.displayName) takes one \(icon.role): "
                              + "remove the one you do not want")
            }
        }
        do throws(FileError) { try place.manifest.rewriteIfNeeded() } catch {
            terminal.error("\(place.manifest.path.display): error: \(error.problem); the manifest could not be rewritten")
        }
    }

    /// The folder at `path`, locked against other runs that write there, and its manifest (whose
    /// findings are warnings).
    private static func open(_ path: BytePath, terminal: Terminal) throws -> (folder: OutputFolder, manifest: Manifest) {
        do throws(FileError) {
            let manifest = try Manifest.open(path, create: false, shard: nil, sweepingTemporaries: false, terminal: terminal).manifest
            return (manifest.folder, manifest)
        } catch {
            throw CommandFailure.failed(path.display, error.problem.description)
        }
    }

    /// Nothing when `failures` is empty; else every line but the last printed, the last thrown
    /// (its exit status is the command's).
    private static func stop(_ failures: [CommandFailure], _ terminal: Terminal) throws {
        guard let last = failures.last else { return }
        for f in failures.dropLast() { terminal.error(f.description) }
        throw last
    }
}
