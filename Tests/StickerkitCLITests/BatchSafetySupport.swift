import Foundation
import XCTest

/// Folder snapshots and a background `stickerkit` run for the batch-safety tests.
enum BatchSafety {
    static let samples = CLI.repositoryRoot.appendingPathComponent("samples")

    /// Small stills and one small animation: quick to convert in a debug build.
    static let quickInputs = ["oc_saxophone_palette.png", "oc_teddybear.png", "noto_1f600_grinning_face_512.png",
                              "maneki_neko_palette_3f.apng"]

    /// Copies `names` from samples/ into `folder`, `copies` times (copy k > 0 gets a `-k` suffix).
    static func stage(_ names: [String], copies: Int = 1, into folder: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        for k in 0..<copies {
            for name in names {
                let stem = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
                let target = k == 0 ? name : "\(stem)-\(k).\(ext)"
                try fm.copyItem(at: samples.appendingPathComponent(name), to: folder.appendingPathComponent(target))
            }
        }
    }

    /// Every regular file below `folder` (hidden ones included), by relative path, with its bytes.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let base = folder.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return files }
        for case let url as URL in walker {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let path = url.resolvingSymlinksInPath().path
            files[String(path.dropFirst(base.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    /// Relative paths of the regular files below `folder` (hidden ones included), without reading
    /// them: safe while a batch is renaming its temporary files into place.
    static func paths(_ folder: URL) -> [String] {
        let base = folder.resolvingSymlinksInPath().path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var paths: [String] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            paths.append(String(url.resolvingSymlinksInPath().path.dropFirst(base.count + 1)))
        }
        return paths
    }

    /// Relative paths of the stickers (`*.png`, not hidden) below `folder`.
    static func stickers(_ folder: URL) throws -> [String] {
        paths(folder).filter { $0.hasSuffix(".png") && !($0 as NSString).lastPathComponent.hasPrefix(".") }.sorted()
    }

    /// Paths of temporary files left below `folder`.
    static func temporaries(_ folder: URL) throws -> [String] {
        try snapshot(folder).keys.filter { $0.hasSuffix(".tmp") }.sorted()
    }

    /// Per output path, its status and reason in a `--report` JSON file.
    static func reportOutputs(_ url: URL) throws -> [String: (status: String, reason: String?)] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        var outputs: [String: (String, String?)] = [:]
        for file in json?["files"] as? [[String: Any]] ?? [] {
            for o in file["outputs"] as? [[String: Any]] ?? [] {
                if let path = o["path"] as? String, let status = o["status"] as? String {
                    outputs[(path as NSString).lastPathComponent] = (status, o["reason"] as? String)
                }
            }
        }
        return outputs
    }

    /// A PNG that ends with its IEND chunk: what a sticker cut short would not be.
    static func isWholePNG(_ data: Data) -> Bool {
        let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        return data.starts(with: [0x89, 0x50, 0x4E, 0x47]) && data.suffix(12).elementsEqual(iend)
    }

    /// Runs a system tool quietly and returns its exit status.
    static func system(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Waits until `started` (polled every 20 ms, at most 300 s) while the run `p` goes on, then
    /// sends it SIGINT and checks what every writing command promises: exit 130 and one line
    /// saying it was interrupted (in `logs`.err).
    static func interrupt(_ p: Process, logs: URL, once started: () -> Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date().addingTimeInterval(300)
        while p.isRunning, !started(), Date() < deadline { usleep(20_000) }
        XCTAssertTrue(p.isRunning, "the run ended before it could be interrupted", file: file, line: line)
        p.interrupt()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .exit, file: file, line: line)
        XCTAssertEqual(p.terminationStatus, 130, file: file, line: line)
        let err = try String(contentsOf: logs.appendingPathExtension("err"), encoding: .utf8)
        XCTAssertTrue(err.contains("interrupted"), err, file: file, line: line)
    }

    /// Starts `stickerkit` with output to files (so a full pipe never blocks it).
    static func start(_ arguments: [String], logs: URL) throws -> Process {
        let p = Process()
        p.executableURL = CLI.productsDirectory.appendingPathComponent("stickerkit")
        p.arguments = arguments
        _ = FileManager.default.createFile(atPath: logs.appendingPathExtension("out").path, contents: nil)
        _ = FileManager.default.createFile(atPath: logs.appendingPathExtension("err").path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: logs.appendingPathExtension("out"))
        p.standardError = try FileHandle(forWritingTo: logs.appendingPathExtension("err"))
        try p.run()
        return p
    }
}
