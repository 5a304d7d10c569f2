import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader never sees a partial one: a temporary file beside the target,
/// flushed, then renamed over it. Temporary files still open when the process is interrupted are
/// removed by `stopAndRemovePending()` (called when the process is interrupted).
enum AtomicFile {
    enum Failure: Error, CustomStringConvertible {
        case io(String)
        var description: String { if case .io(let m) = self { return m }; return "" }
    }

    /// What every writer shares: temporary files still being written, the counter that makes
    /// their names unique, and whether the process is being interrupted.
    private struct Writers: Sendable {
        var pending: Set<String> = []
        var counter = 0
        var stopping = false
    }

    private static let writers = Locked(Writers())

    /// Writes `bytes` to `path` atomically, creating parent folders. Refuses to replace a folder.
    static func write(_ bytes: [UInt8], to path: String) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw Failure.io("output path is a folder: \(path)")
        }
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw Failure.io("cannot create folder \(dir): \(fileInTheWay(of: dir).map { "\($0) is a file, not a folder" } ?? reason(error))")
            }
        }
        let n = writers.withLock { w in
            w.counter += 1
            return w.counter
        }
        let name = (path as NSString).lastPathComponent
        let tmp = (dir.isEmpty ? "" : dir + "/") + ".\(name).stickerkit-\(getpid())-\(n).tmp"
        // Created under the lock: otherwise an interrupt could unlink the name just before this
        // thread creates it, and the process would exit leaving the new temporary file behind.
        let fd = try writers.withLock { w in
            if w.stopping { throw Failure.io("interrupted") }
            w.pending.insert(tmp)
            return open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        defer { writers.withLock { _ = $0.pending.remove(tmp) } }

        guard fd >= 0 else { throw Failure.io("cannot write in \(dir.isEmpty ? "." : dir): \(String(cString: strerror(errno)))") }
        var ok = true
        var err = ""
        bytes.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc_write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 { if errno == EINTR { continue }; ok = false; err = String(cString: strerror(errno)); break }
                off += n
            }
        }
        if ok && fsync(fd) != 0 { ok = false; err = String(cString: strerror(errno)) }
        if close(fd) != 0 && ok { ok = false; err = String(cString: strerror(errno)) }
        if !ok {
            unlink(tmp)
            throw Failure.io("cannot write \(path): \(err)")
        }
        if rename(tmp, path) != 0 {
            let e = String(cString: strerror(errno))
            unlink(tmp)
            throw Failure.io("cannot write \(path): \(e)")
        }
    }

    /// Refuses every later write and removes every temporary file still being written (called
    /// when the process is interrupted).
    static func stopAndRemovePending() {
        let all = writers.withLock { w in
            w.stopping = true
            return w.pending
        }
        for p in all { unlink(p) }
    }

    /// The nearest existing ancestor of `dir` when it is not a folder: Foundation's message for
    /// that case is only "The operation could not be completed".
    private static func fileInTheWay(of dir: String) -> String? {
        var path = dir
        while !path.isEmpty && path != "/" {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) { return isDir.boolValue ? nil : path }
            path = (path as NSString).deletingLastPathComponent
        }
        return nil
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

@inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}
