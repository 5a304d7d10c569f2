import ArgumentParser
import Foundation
import StickerKit

/// `icons --platform NAME`: the platform's pack picture (`StickerTarget.packIcon`) in a folder.
enum PlatformIconRun {
    static func run(image: String, output: String, target: StickerTarget, quiet: Bool) throws {
        guard let icon = target.packIcon else {
            throw CommandExit.usage("--platform \(target.name): \(target.displayName) packs have no pack icon to make")
        }
        if let problem = PathProblem.of(output, expecting: .folder), problem != "no such folder" {
            throw CommandExit.usage("\(output): error: \(problem); -o takes the folder to write the \(icon.role) in")
        }
        guard PathProblem.of(image, expecting: .file) == nil, let data = FileManager.default.contents(atPath: image) else {
            throw CommandExit.failure("\(image): error: \(PathProblem.describe(image, expecting: .file))")
        }
        let source: Image
        do { source = try Artwork.firstFrame([UInt8](data)) } catch { throw CommandExit.failure("\(image): error: \(error)") }
        let bytes: [UInt8]
        switch PackIconRenderer.render(source, icon: icon) {
        case .success(let b): bytes = b
        case .failure(let e): throw CommandExit.failure("\(image): error: \(icon.role): \(e)")
        }
        do {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        } catch {
            throw CommandExit.failure("\(output): error: cannot create the folder")
        }
        let path = (output as NSString).appendingPathComponent(icon.fileName)
        do throws(FileError) { try AtomicFile.write(bytes, to: path) } catch {
            throw CommandExit.failure("\(path): error: \(error.problem)")
        }
        if !quiet { print("\(target.displayName) \(icon.role) (\(icon.side)×\(icon.side), \(bytes.count) bytes) written to \(path)") }
    }
}
