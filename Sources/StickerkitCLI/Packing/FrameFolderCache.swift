import Foundation
import StickerKit
import StickerPackaging

/// The conversion cache of frame folders: `CACHE/frames/NAME-<hash of the folder's path>/` holds
/// the converted sticker (`sticker.png`, or `frame-001.png`, … for a sequence) and `entry.json`,
/// which records the settings and every frame's size and modification time. An entry is used only
/// when all of them match; it is written after its stickers, so an interrupted write is redone.
struct FrameFolderCache {
    struct Entry: Codable, Equatable {
        struct Frame: Codable, Equatable {
            var path: String
            var bytes: Int
            var modified: Double
        }
        var settings: String
        var frames: [Frame]
        /// Files of the converted sticker, in order.
        var outputs: [String]
        var sequence: Bool
        var fps: Double
    }

    let directory: String

    init(cache: String) {
        directory = (cache as NSString).appendingPathComponent("frames")
    }

    /// `frames/NAME-<hash of the folder's absolute path>`.
    func folder(for frameFolder: FrameFolder) -> String {
        let abs = URL(fileURLWithPath: frameFolder.path).standardizedFileURL
        return (directory as NSString).appendingPathComponent("\(abs.lastPathComponent)-\(ContentDigest.of(abs.path))")
    }

    /// What the entry should say for these frames and settings, or nil when a frame cannot be read.
    static func expected(_ frameFolder: FrameFolder, settings: String, sequence: Bool, fps: Double) -> Entry? {
        var frames: [Entry.Frame] = []
        for p in frameFolder.frames {
            guard let status = try? FileStatus.of(BytePath(p)), status.kind == .regular else { return nil }
            frames.append(.init(path: URL(fileURLWithPath: p).standardizedFileURL.path, bytes: status.bytes,
                                modified: Double(status.modifiedNanoseconds) / 1e9))
        }
        return Entry(settings: settings, frames: frames, outputs: [], sequence: sequence, fps: fps)
    }

    /// The cached sticker, when the entry matches `expected`.
    func lookup(_ frameFolder: FrameFolder, expected: Entry) -> CatalogSticker.Content? {
        let dir = folder(for: frameFolder)
        guard let data = FileManager.default.contents(atPath: (dir as NSString).appendingPathComponent("entry.json")),
              let entry = try? JSONDecoder().decode(Entry.self, from: data) else { return nil }
        var check = entry
        check.outputs = []
        guard check == expected, !entry.outputs.isEmpty else { return nil }
        let files = entry.outputs.map { (dir as NSString).appendingPathComponent($0) }
        guard files.allSatisfy({ (try? FileStatus.of(BytePath($0)))?.kind == .regular }) else { return nil }
        return entry.sequence ? .storedSequence(framePaths: files, fps: entry.fps, repetitions: 0)
                              : .storedFile(path: files[0], fileExtension: "png")
    }

    /// Stores a converted sticker (held in memory); returns whether it was stored whole. A cache
    /// that cannot be written only costs time on the next run.
    @discardableResult
    func store(_ content: CatalogSticker.Content, for frameFolder: FrameFolder, entry: Entry) -> Bool {
        let dir = folder(for: frameFolder)
        try? FileManager.default.removeItem(atPath: dir)
        var entry = entry
        let files: [[UInt8]]
        switch content {
        case let .file(bytes, _):
            files = [bytes]
            entry.outputs = ["sticker.png"]
        case let .sequence(frames, _, _):
            files = frames
            entry.outputs = frames.indices.map { String(format: "frame-%03d.png", $0 + 1) }
        case .storedFile, .storedSequence:
            return false
        }
        var stored = true
        for (name, bytes) in zip(entry.outputs, files) {
            do { try AtomicFile.write(bytes, to: (dir as NSString).appendingPathComponent(name)) } catch { stored = false }
        }
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        guard stored, let json = try? enc.encode(entry),
              (try? AtomicFile.write([UInt8](json), to: (dir as NSString).appendingPathComponent("entry.json"))) != nil else { return false }
        return true
    }

    /// The sticker of `frameFolder`: from the cache when its entry matches (`upToDate`), else
    /// converted and stored. Throws `CommandFailure` naming what failed.
    func sticker(of frameFolder: FrameFolder, settings: String, options: ConversionOptions, fps: Double, sequence: Bool,
                 force: Bool) throws -> (content: CatalogSticker.Content, upToDate: Bool) {
        guard let expected = Self.expected(frameFolder, settings: settings, sequence: sequence, fps: fps) else {
            throw CommandFailure.failed(nil, "cannot read its frames")
        }
        if !force, let cached = lookup(frameFolder, expected: expected) { return (cached, true) }
        let content = try PackInputs.convertFrames(frameFolder.frames, options: options, fps: fps, sequence: sequence)
        // Once stored, the sticker is read from the cache when the catalog is written: a pack of
        // many frame folders holds one sticker's bytes at a time.
        if store(content, for: frameFolder, entry: expected), let stored = lookup(frameFolder, expected: expected) {
            return (stored, false)
        }
        return (content, false)
    }

    /// Removes the entries of frame folders no longer given (folder names not in `keep`).
    func removeStale(keeping keep: Set<String>) {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        for name in names where !keep.contains(name) && PackCache.hasHashSuffix(name) {
            try? fm.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }
}
