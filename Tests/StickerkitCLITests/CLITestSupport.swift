import Foundation
import XCTest

/// Runs the built `stickerkit` binary and captures what it prints.
struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLI {
    /// The folder holding the built products (next to the test bundle).
    static var productsDirectory: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `stickerkit` (or `executable`) with `arguments`; `environment` replaces the child's
    /// environment when given.
    static func run(_ arguments: [String], in directory: URL? = nil, executable: URL? = nil,
                    environment: [String: String]? = nil) throws -> CLIRun {
        let p = Process()
        p.executableURL = executable ?? productsDirectory.appendingPathComponent("stickerkit")
        p.arguments = arguments
        if let directory { p.currentDirectoryURL = directory }
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes before waiting so a chatty child cannot block on a full pipe.
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLIRun(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                      stderr: String(decoding: e, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stickerkit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The entry names of the ZIP archive `archive`, in order, as a reader that is not ours
    /// (Python's zipfile) lists them, each entry read and checked against its CRC-32 and size;
    /// the entries are extracted into `folder`.
    static func unzip(_ archive: URL, into folder: URL) throws -> [String] {
        let script = """
        import json, sys, zipfile, zlib
        z = zipfile.ZipFile(sys.argv[1])
        assert z.testzip() is None
        rows = []
        for i in z.infolist():
            data = z.read(i)
            assert zlib.crc32(data) == i.CRC and len(data) == i.file_size
            rows.append(i.filename)
        z.extractall(sys.argv[2])
        print(json.dumps(rows))
        """
        let listed = try run(["python3", "-c", script, archive.path, folder.path], executable: URL(fileURLWithPath: "/usr/bin/env"))
        XCTAssertEqual(listed.status, 0, listed.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String])
    }
}
