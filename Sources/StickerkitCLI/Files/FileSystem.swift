#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import StickerPackaging

/// The POSIX calls the CLI's file handling is built on, each taking a `BytePath` (any bytes in a
/// name) and throwing a `FileError` that names the path and the reason.
enum FileSystem {
    /// Opens a folder the user named (a link to a folder is followed: the user chose it).
    static func openFolder(_ path: BytePath) throws(FileError) -> Int32 {
        let fd = path.withCString { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else {
            let code = errno
            if code == ENOTDIR, let s = try? FileStatus.of(path) { throw FileError(.open, path, .notAFolder(s.kind)) }
            throw FileError(.open, path, .system(code))
        }
        return fd
    }

    /// Opens the folder `name` inside the open folder `dirfd` without following a link, creating
    /// it when `create` and it is missing. `path` is its whole path, for messages.
    static func openFolder(_ name: BytePath, in dirfd: Int32, path: BytePath, create: Bool) throws(FileError) -> Int32 {
        func attempt() -> Int32 { name.withCString { openat(dirfd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) } }
        var fd = attempt()
        if fd < 0 && errno == ENOENT && create {
            if name.withCString({ mkdirat(dirfd, $0, 0o755) }) != 0 && errno != EEXIST {
                throw FileError(.createFolder, path, .system(errno))
            }
            fd = attempt()
        }
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP || code == ENOTDIR || code == EMLINK,
               let s = try FileStatus.of(name, in: dirfd, path: path), s.kind != .directory {
                throw FileError(create ? .createFolder : .open, path, s.kind == .symbolicLink ? .symbolicLink : .notAFolder(s.kind))
            }
            throw FileError(.open, path, .system(code))
        }
        return fd
    }

    /// `mkdir -p` for a path the user named: every missing folder is created. A file in the way
    /// is named.
    static func createFolders(_ path: BytePath) throws(FileError) {
        if let s = try FileStatus.of(path) {
            if s.kind == .directory { return }
            throw FileError(.createFolder, path, .notAFolder(s.kind))
        }
        let parent = path.parent
        if !parent.isEmpty && parent != path { try createFolders(parent) }
        if path.withCString({ mkdir($0, 0o755) }) != 0 && errno != EEXIST {
            throw FileError(.createFolder, path, .system(errno))
        }
    }

    /// The whole content of the regular file at `path` (a final link is followed). A FIFO or
    /// device is refused before anything is read: reading one could block forever.
    static func readFile(_ path: BytePath) throws(FileError) -> [UInt8] {
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT, let s = try? FileStatus.of(path, followingLinks: false), s.kind == .symbolicLink {
                throw FileError(.read, path, .brokenLink)
            }
            throw FileError(.read, path, .system(code))
        }
        defer { close(fd) }
        return try readAll(fd, path: path)
    }

    /// The whole content of the regular file `name` in the open folder `dirfd`, never through a
    /// link.
    static func readFile(_ name: BytePath, in dirfd: Int32, path: BytePath) throws(FileError) -> [UInt8] {
        let fd = try openForReading(name, in: dirfd, path: path)
        defer { close(fd) }
        return try readAll(fd, path: path)
    }

    /// The regular file `name` in the open folder `dirfd` (never through a link), handed to
    /// `body` a megabyte at a time: never held whole.
    static func readFile(_ name: BytePath, in dirfd: Int32, path: BytePath,
                         inChunks body: (UnsafeRawBufferPointer) -> Void) throws(FileError) {
        let fd = try openForReading(name, in: dirfd, path: path)
        defer { close(fd) }
        try readRegularChunks(fd, path: path, body)
    }

    /// The regular file at `path` (a final link is followed), handed to `body` a megabyte at a
    /// time: never held whole.
    static func readFile(_ path: BytePath, inChunks body: (UnsafeRawBufferPointer) -> Void) throws(FileError) {
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw FileError(.read, path, .system(errno)) }
        defer { close(fd) }
        try readRegularChunks(fd, path: path, body)
    }

    /// The SHA-256 of the regular file at `path`, read a megabyte at a time (never held whole:
    /// the digest of an input too large to convert still says whether it changed).
    static func sha256(_ path: BytePath) throws(FileError) -> String {
        let hasher = SHA256Stream()
        try readFile(path) { hasher.update($0) }
        return hasher.hex()
    }

    /// `name` in the open folder `dirfd`, opened for reading, never through a link.
    private static func openForReading(_ name: BytePath, in dirfd: Int32, path: BytePath) throws(FileError) -> Int32 {
        let fd = name.withCString { openat(dirfd, $0, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC) }
        guard fd >= 0 else {
            let code = errno
            throw FileError(.read, path, code == ELOOP ? .symbolicLink : .system(code))
        }
        return fd
    }

    /// Reads the regular file open at `fd` (anything else is refused before a byte is read) on
    /// to its end, a megabyte at a time, handing each chunk read to `body`.
    private static func readRegularChunks(_ fd: Int32, path: BytePath, _ body: (UnsafeRawBufferPointer) -> Void) throws(FileError) {
        let status = try FileStatus.of(descriptor: fd, path: path)
        guard status.kind == .regular else { throw FileError(.read, path, .notARegularFile(status.kind)) }
        try readChunks(fd, path: path, chunkBytes: 1 << 20, body)
    }

    /// Reads `fd` on to its end, `chunkBytes` at a time, handing each chunk read to `body`.
    private static func readChunks(_ fd: Int32, path: BytePath, chunkBytes: Int,
                                   _ body: (UnsafeRawBufferPointer) -> Void) throws(FileError) {
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(.read, path, .system(errno))
            }
            if n == 0 { return }
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
    }

    /// The first `count` bytes of the regular file at `path` (fewer when it is shorter); nil when
    /// it cannot be read or is not a regular file.
    static func readHead(_ path: BytePath, count: Int) -> [UInt8]? {
        readRange(path, 0..<count)
    }

    /// The last `count` bytes of the regular file at `path` (all of a shorter one), or nil when
    /// it cannot be read.
    static func readTail(_ path: BytePath, count: Int) -> [UInt8]? {
        guard let size = (try? FileStatus.of(path)).flatMap({ $0 }).flatMap({ $0.kind == .regular ? $0.bytes : nil }) else { return nil }
        return readRange(path, max(0, size - count)..<size)
    }

    /// The bytes `range` of the regular file at `path` (fewer when the file ends sooner), or nil
    /// when it cannot be read.
    static func readRange(_ path: BytePath, _ range: Range<Int>) -> [UInt8]? {
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let s = try? FileStatus.of(descriptor: fd, path: path), s.kind == .regular else { return nil }
        var bytes = [UInt8](repeating: 0, count: range.count)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(range.lowerBound + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return n == 0 ? Array(bytes[..<done]) : nil }
            done += n
        }
        return bytes
    }

    /// Reads the file into an array of exactly its size: the size the file system reports is
    /// read in place, and only a file that turns out longer (it grew, or reports no size) is read
    /// on in chunks. (Growing one array past its end to find the end held 3.5 times a 94 MB
    /// input at once and kept 1.5 times it for the whole conversion.)
    private static func readAll(_ fd: Int32, path: BytePath) throws(FileError) -> [UInt8] {
        let status = try FileStatus.of(descriptor: fd, path: path)
        guard status.kind == .regular else { throw FileError(.read, path, .notARegularFile(status.kind)) }
        let expected = max(status.bytes, 0)
        var failure: Int32 = 0
        var filled = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            while filled < expected {
                let n = read(fd, buffer.baseAddress! + filled, expected - filled)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                filled += n
            }
            count = filled
        }
        if failure != 0 { throw FileError(.read, path, .system(failure)) }
        guard filled == expected else { return bytes }
        // At the size reported: anything past it comes in chunks.
        try readChunks(fd, path: path, chunkBytes: 1 << 16) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Writes all of `bytes` to `fd`, retrying short writes; a write that makes no progress is an
    /// error, never silently cut.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], operation: FileError.Operation, path: BytePath) throws(FileError) {
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + written, $0.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(operation, path, .system(errno))
            }
            if n == 0 { throw FileError(operation, path, .shortWrite(written: written, of: bytes.count)) }
            written += n
        }
    }

    /// The names in the folder at `path` (`.` and `..` left out), as the file system stores them.
    static func list(_ path: BytePath) throws(FileError) -> [BytePath] {
        guard let dir = path.withCString({ opendir($0) }) else { throw FileError(.list, path, .system(errno)) }
        defer { closedir(dir) }
        return entries(dir)
    }

    /// The names in the open folder `dirfd` (which stays open). Read through a new open of the
    /// folder, not a `dup`: a duplicate shares the read position, so a second listing of the
    /// same descriptor would start at the end and find nothing.
    static func list(descriptor dirfd: Int32, path: BytePath) throws(FileError) -> [BytePath] {
        let copy = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard copy >= 0 else { throw FileError(.list, path, .system(errno)) }
        guard let dir = fdopendir(copy) else {
            let code = errno
            close(copy)
            throw FileError(.list, path, .system(code))
        }
        defer { closedir(dir) }
        return entries(dir)
    }

    #if canImport(Darwin)
    private typealias DirectoryStream = UnsafeMutablePointer<DIR>
    #else
    private typealias DirectoryStream = OpaquePointer
    #endif

    private static func entries(_ dir: DirectoryStream) -> [BytePath] {
        var names: [BytePath] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { p in
                p.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { bytes in
                    Array(UnsafeBufferPointer(start: bytes, count: strlen(UnsafeRawPointer(bytes).assumingMemoryBound(to: CChar.self))))
                }
            }
            if name == [BytePath.dot] || name == [BytePath.dot, BytePath.dot] { continue }
            names.append(BytePath(bytes: name))
        }
        return names
    }

    /// Why the user may not write into the folder at `path`, or nil when they may (`access(W_OK|X_OK)`: catches a
    /// read-only mount even for root).
    static func writeAccessError(_ path: BytePath) -> Int32? {
        let r = path.withCString { access($0, W_OK | X_OK) }
        return r == 0 ? nil : errno
    }
}

/// `write(2)`, named apart from the methods called `write`.
@inline(__always) func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}
