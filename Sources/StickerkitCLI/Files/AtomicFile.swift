#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a reader never sees a partial one: a temporary file beside the target
/// (`TemporaryName`), created exclusively and never through a link, written in full, flushed to
/// disk, then renamed over the target. Temporary files still open when the process is
/// interrupted are removed by `stopAndRemovePending()`; those of a process that was killed are
/// removed by the next run (`StaleTemporaries`).
enum AtomicFile {
    /// What every writer shares: temporary files still being written, the counter that makes
    /// their names unique, and whether the process is being interrupted.
    private struct Writers: Sendable {
        var pending: Set<BytePath> = []
        var counter = 0
        var stopping = false
    }

    private static let writers = Locked(Writers())

    /// Writes `bytes` to `path` atomically, creating missing parent folders. Refuses to replace a
    /// folder or a symbolic link (nothing is ever written through a link) or anything but a
    /// regular file. For files outside an output folder: the report, a catalog's files, a preview.
    static func write(_ bytes: [UInt8], to path: String) throws(FileError) {
        try write(bytes, to: BytePath(path))
    }

    /// `write(_:to:)` for a path of any bytes.
    static func write(_ bytes: [UInt8], to path: BytePath) throws(FileError) {
        let folder = path.parent
        if !folder.isEmpty { try FileSystem.createFolders(folder) }
        let dirfd = try FileSystem.openFolder(folder.isEmpty ? BytePath(".") : folder)
        defer { close(dirfd) }
        let name = path.lastComponent
        if let existing = try FileStatus.of(name, in: dirfd, path: path) {
            switch existing.kind {
            case .regular: break
            case .directory: throw FileError(.replace, path, .isAFolder)
            case .symbolicLink: throw FileError(.replace, path, .symbolicLink)
            default: throw FileError(.replace, path, .notARegularFile(existing.kind))
            }
        }
        try write(bytes, named: name, in: dirfd, folderPath: folder, beforeReplacing: { _ throws(FileError) in })
    }

    /// Writes `bytes` as `name` in the open folder `dirfd` (whose path is `folderPath`):
    /// temporary file, flushed; then `beforeReplacing` with the temporary file's status (what
    /// the target will be once renamed: same size, time and inode), which may refuse by
    /// throwing (the temporary file is removed and nothing is replaced); then the rename. The
    /// caller has decided that whatever is at `name` may be replaced.
    static func write(_ bytes: [UInt8], named name: BytePath, in dirfd: Int32, folderPath: BytePath,
                      beforeReplacing: (FileStatus) throws(FileError) -> Void) throws(FileError) {
        let target = folderPath.appending(name)
        let n = writers.withLock { w in
            w.counter += 1
            return w.counter
        }
        let tmpName = TemporaryName.mine(n).fileName
        let tmpPath = folderPath.appending(tmpName)
        // Created under the lock: otherwise an interrupt could unlink the name just before this
        // thread creates it, and the process would exit leaving the new temporary file behind.
        let opened: Result<Int32, FileError> = writers.withLock { w in
            if w.stopping { return .failure(FileError(.write, target, .system(EINTR))) }
            let fd = tmpName.withCString { openat(dirfd, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
            if fd < 0 { return .failure(FileError(.write, target, .system(errno))) }
            w.pending.insert(tmpPath)
            return .success(fd)
        }
        let fd = try opened.get()
        defer { writers.withLock { _ = $0.pending.remove(tmpPath) } }
        func discard() { _ = tmpName.withCString { unlinkat(dirfd, $0, 0) } }

        var status: FileStatus
        do throws(FileError) {
            try FileSystem.writeAll(fd, bytes, operation: .write, path: target)
            if fsync(fd) != 0 { throw FileError(.write, target, .system(errno)) }
            status = try FileStatus.of(descriptor: fd, path: target)
        } catch {
            close(fd)
            discard()
            throw error
        }
        if close(fd) != 0 {
            let code = errno
            discard()
            throw FileError(.write, target, .system(code))
        }
        do throws(FileError) {
            try beforeReplacing(status)
        } catch {
            discard()
            throw error
        }
        let renamed = tmpName.withCString { from in name.withCString { to in renameat(dirfd, from, dirfd, to) } }
        if renamed != 0 {
            let code = errno
            discard()
            throw FileError(.write, target, code == EISDIR ? .isAFolder : .system(code))
        }
    }

    /// Removes the temporary files left directly in `folder` by processes of this machine that
    /// are gone (`TemporaryName.isStale`); returns their paths. For the folder of a file written
    /// outside an output folder, such as the report.
    static func removeStaleTemporaries(in folder: BytePath) -> [BytePath] {
        guard let names = try? FileSystem.list(folder.isEmpty ? BytePath(".") : folder) else { return [] }
        var removed: [BytePath] = []
        for name in names {
            guard let t = TemporaryName(parsing: name), t.isStale(noOtherWriter: false) else { continue }
            let path = folder.appending(name)
            guard (try? FileStatus.of(path, followingLinks: false))?.kind == .regular else { continue }
            if path.withCString({ unlink($0) }) == 0 { removed.append(path) }
        }
        return removed
    }

    /// Refuses every later write and removes every temporary file still being written (called
    /// when the process is interrupted).
    static func stopAndRemovePending() {
        let all = writers.withLock { w in
            w.stopping = true
            return w.pending
        }
        for p in all { _ = p.withCString { unlink($0) } }
    }
}
