import ArgumentParser
import Foundation
import StickerKit
import StickerPackaging

/// `icons --platform NAME`: the platform's pack picture (`StickerTarget.packIcon`) in a folder.
///
/// The picture has no record of its own, so a file already at its name is replaced only when
/// it holds exactly what would be written (nothing to do) or with `--overwrite`: a `tray.png`
/// the user made is never lost.
enum PlatformIconRun {
    static func run(image: String, output: String, target: StickerTarget, overwrite: Bool, quiet: Bool) throws {
        guard let icon = target.packIcon else {
            throw CommandFailure.usage("--platform", "\(target.displayName) packs have no pack icon to make")
        }
        let folder = CommandLineBytes.path(for: output)
        try PathChecks.checkOutputFolder(folder, inputs: [CommandLineBytes.path(for: image)])
        let path = folder.appending(icon.fileName)
        let existing: FileStatus?
        do { existing = try FileStatus.of(path, followingLinks: false) } catch {
            throw CommandFailure.usage(path.display, error.problem.description)
        }
        if let existing, existing.kind != .regular {
            throw CommandFailure.usage(path.display, "is in the way (not a regular file); move it or choose another -o")
        }
        let data = try PathChecks.readFile(CommandLineBytes.path(for: image), failing: .failed)
        let source: Image
        do { source = try Artwork.firstFrame(data) } catch { throw CommandFailure.failed(image, "\(error)") }
        let bytes: [UInt8]
        switch PackIconRenderer.render(source, icon: icon) {
        case .success(let b): bytes = b
        case .failure(let e): throw CommandFailure.failed(image, "\(icon.role): \(e)")
        }
        let terminal = Terminal(quiet: quiet)
        if existing != nil {
            if (try? FileSystem.readFile(path)) == bytes {
                terminal.result("\(target.displayName) \(icon.role) up to date: \(path.display)")
                return
            }
            guard overwrite else {
                throw CommandFailure.usage(path.display, "already exists and holds another picture; --overwrite replaces it")
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.failed(output, "cannot create the folder")
        }
        do throws(FileError) { try AtomicFile.write(bytes, to: path) } catch {
            throw CommandFailure.failed(path.display, error.problem.description)
        }
        terminal.result("\(target.displayName) \(icon.role) (\(icon.side)×\(icon.side), \(bytes.count) bytes) written to \(path.display)")
    }
}
