import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

/// `icons --platform NAME`: the platform's pack pictures (`StickerTarget.packIcons`: WhatsApp's
/// tray icon, Telegram's thumbnail, LINE's main and chat tab images) in a folder.
///
/// The pictures have no record of their own, so a file already at one's name is replaced only
/// when it holds exactly what would be written (nothing to do) or with `--overwrite`: a
/// `tray.png` the user made is never lost. Every problem is found before anything is written,
/// one line each: paths in the way, then pictures that cannot be made, then files that would be
/// replaced.
enum PlatformIconRun {
    static func run(image: String, output: String, target: StickerTarget, overwrite: Bool, quiet: Bool, limits: Limits) throws {
        guard !target.packIcons.isEmpty else {
            throw CommandFailure.usage("--platform", "\(target.displayName) packs have no pack picture to make")
        }
        let folder = CommandLineBytes.path(for: output)
        try PathChecks.checkOutputFolder(folder, inputs: [CommandLineBytes.path(for: image)])
        let terminal = Terminal(quiet: quiet)
        var inTheWay: [CommandFailure] = []
        var existing: [Bool] = []
        for icon in target.packIcons {
            let path = folder.appending(icon.fileName)
            do {
                let status = try FileStatus.of(path, followingLinks: false)
                if let status, status.kind != .regular {
                    inTheWay.append(.usage(path.display, "is in the way (not a regular file); move it or choose another -o"))
                }
                existing.append(status != nil)
            } catch {
                inTheWay.append(.usage(path.display, error.problem.description))
                existing.append(false)
            }
        }
        try stop(inTheWay, terminal)
        let data = try PathChecks.readFile(CommandLineBytes.path(for: image), failing: .failed, limits: limits)
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
        var upToDate: [Bool] = []
        var replacing: [CommandFailure] = []
        for (k, icon) in target.packIcons.enumerated() {
            let path = folder.appending(icon.fileName)
            let same = existing[k] && (try? FileSystem.readFile(path)) == pictures[k]
            upToDate.append(same)
            if existing[k] && !same && !overwrite {
                replacing.append(.usage(path.display, "already exists and holds another picture; --overwrite replaces it"))
            }
        }
        try stop(replacing, terminal)
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.failed(output, "cannot create the folder")
        }
        for (k, icon) in target.packIcons.enumerated() {
            let path = folder.appending(icon.fileName)
            if upToDate[k] {
                terminal.result("\(target.displayName) \(icon.role) up to date: \(path.display)")
                continue
            }
            do throws(FileError) { try AtomicFile.write(pictures[k], to: path) } catch {
                throw CommandFailure.failed(path.display, error.problem.description)
            }
            terminal.result("\(target.displayName) \(icon.role) (\(icon.dimensions), \(pictures[k].count) bytes) written to \(path.display)")
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
