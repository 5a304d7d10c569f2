import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Helpers for the ownership, discovery and path tests: they drive the built binary only (no
/// internal API), so they also run against an older build to show what it got wrong.
enum Fixture {
    static let manifestName = ".stickerkit-manifest.jsonl"

    /// Copies the sample `name` to `url`, creating folders.
    static func sample(_ name: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: BatchSafety.samples.appendingPathComponent(name), to: url)
    }

    /// The output paths the manifest in `out` records (its readable lines), and how many lines
    /// it has.
    static func recordedOutputs(_ out: URL) throws -> [String] {
        let data = try Data(contentsOf: out.appendingPathComponent(manifestName))
        return try data.split(separator: UInt8(ascii: "\n")).map { line in
            let json = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            return json?["output"] as? String ?? "?"
        }
    }

    /// Whether the manifest in `out` lists exactly the stickers present, once each.
    static func assertManifestDescribesStickers(_ out: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let recorded = try recordedOutputs(out)
        XCTAssertEqual(recorded.sorted(), try BatchSafety.stickers(out), "manifest vs stickers present", file: file, line: line)
    }

    /// The report's per-file warnings, by input file name.
    static func reportWarnings(_ url: URL) throws -> [String: [String]] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        var out: [String: [String]] = [:]
        for f in json?["files"] as? [[String: Any]] ?? [] {
            out[((f["input"] as? String ?? "") as NSString).lastPathComponent] = f["warnings"] as? [String] ?? []
        }
        return out
    }

    /// Creates a file whose path has exactly these bytes (any encoding).
    static func createFile(rawPath: [UInt8], contents: Data) throws {
        let fd = (rawPath + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard fd >= 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno)) }
        defer { close(fd) }
        _ = contents.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
    }

    /// The names in the folder at `path`, as bytes.
    static func rawNames(_ path: String) -> [[UInt8]] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        while let e = readdir(dir) {
            let name = withUnsafePointer(to: &e.pointee.d_name) { p in
                p.withMemoryRebound(to: CChar.self, capacity: 256) { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
            }.map { UInt8(bitPattern: $0) }
            if name != [46] && name != [46, 46] { names.append(name) }
        }
        return names
    }

    /// The bytes of the file at a raw path.
    static func read(rawPath: [UInt8]) -> Data? {
        let fd = (rawPath + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) }
        }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(fd, &buffer, buffer.count)
            #else
            let n = Darwin.read(fd, &buffer, buffer.count)
            #endif
            if n <= 0 { break }
            data.append(contentsOf: buffer[..<n])
        }
        return data
    }

    /// The id of a process that has exited (and been reaped): no process has it now.
    static func deadPID() throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        return p.processIdentifier
    }

    /// Runs the binary with raw (byte) arguments, for names that are not UTF-8.
    static func run(rawArguments: [[UInt8]]) throws -> CLIRun {
        // A shell passes the bytes through untouched: printf '\351' builds them.
        var script = "exec '\(CLI.productsDirectory.appendingPathComponent("stickerkit").path)'"
        for arg in rawArguments {
            script += " \"$(printf '" + arg.map { String(format: "\\%03o", $0) }.joined() + "')\""
        }
        return try CLI.run(["-c", script], executable: URL(fileURLWithPath: "/bin/sh"))
    }
}
