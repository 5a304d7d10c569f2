#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat`/`lstat` say about a path: its kind, size, modification time and identity.
struct FileStatus: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

        /// "a FIFO", "a folder", … for messages.
        var noun: String {
            switch self {
            case .regular: "a file"
            case .directory: "a folder"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .unknown: "not a file"
            }
        }
    }

    var kind: Kind
    var bytes: Int
    /// Modification time in nanoseconds since 1970.
    var modifiedNanoseconds: Int64
    var id: FileID

    init(_ s: stat) {
        switch s.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .unknown
        }
        bytes = Int(s.st_size)
        #if canImport(Darwin)
        modifiedNanoseconds = Int64(s.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(s.st_mtimespec.tv_nsec)
        #else
        modifiedNanoseconds = Int64(s.st_mtim.tv_sec) * 1_000_000_000 + Int64(s.st_mtim.tv_nsec)
        #endif
        id = FileID(device: UInt64(bitPattern: Int64(s.st_dev)), inode: UInt64(s.st_ino))
    }

    /// The status of `path`, following a final symbolic link or not; nil when nothing is there
    /// (or a folder on the way is missing).
    static func of(_ path: BytePath, followingLinks: Bool = true) throws(FileError) -> FileStatus? {
        var s = stat()
        let r = path.withCString { followingLinks ? stat($0, &s) : lstat($0, &s) }
        if r == 0 { return FileStatus(s) }
        let code = errno
        if code == ENOENT || code == ENOTDIR { return nil }
        throw FileError(.inspect, path, .system(code))
    }

    /// The status of the open file `fd`.
    static func of(descriptor fd: Int32, path: BytePath) throws(FileError) -> FileStatus {
        var s = stat()
        guard fstat(fd, &s) == 0 else { throw FileError(.inspect, path, .system(errno)) }
        return FileStatus(s)
    }

    /// The status of `name` in the open folder `dirfd`, without following a final link; nil when
    /// nothing is there.
    static func of(_ name: BytePath, in dirfd: Int32, path: BytePath) throws(FileError) -> FileStatus? {
        var s = stat()
        let r = name.withCString { fstatat(dirfd, $0, &s, AT_SYMLINK_NOFOLLOW) }
        if r == 0 { return FileStatus(s) }
        let code = errno
        if code == ENOENT || code == ENOTDIR { return nil }
        throw FileError(.inspect, path, .system(code))
    }
}
