#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder a batch writes into (`-o`), held open for the batch. Everything below it is reached
/// one component at a time without following links: a link planted inside the folder (to
/// `/etc`, to the user's artwork) can never make stickerkit read or write outside it. The folder
/// itself may be a link: the user named it.
final class OutputFolder: Sendable {
    let root: BytePath
    private let descriptor: Int32

    /// Opens the folder at `root`, creating it (and its parents) when `create`.
    init(_ root: BytePath, create: Bool) throws(FileError) {
        if create { try FileSystem.createFolders(root) }
        self.root = root
        descriptor = try FileSystem.openFolder(root)
    }

    deinit { close(descriptor) }

    /// The path of `relative` for messages and for the report.
    func path(_ relative: BytePath) -> BytePath { root.appending(relative) }

    /// Runs `body` with the open folder `relative` (empty: the root) and its path, each folder on
    /// the way a real folder (created when `create`), or throws naming the component in the way.
    func withFolder<Result>(_ relative: BytePath, create: Bool,
                            _ body: (Int32, BytePath) throws(FileError) -> Result) throws(FileError) -> Result {
        var fd = descriptor
        var path = root
        defer { if fd != descriptor { close(fd) } }
        for component in relative.components {
            path = path.appending(component)
            guard component.bytes != [BytePath.dot, BytePath.dot] else { throw FileError(.open, path, .notAFolder(.unknown)) }
            let next = try FileSystem.openFolder(component, in: fd, path: path, create: create)
            if fd != descriptor { close(fd) }
            fd = next
        }
        return try body(fd, path)
    }

    /// The status of the file at `relative` (not following a final link); nil when it or a folder
    /// on the way is missing, or a folder on the way is not a real folder.
    func status(of relative: BytePath) -> FileStatus? {
        try? withFolder(relative.parent, create: false) { fd, folder throws(FileError) in
            try FileStatus.of(relative.lastComponent, in: fd, path: folder.appending(relative.lastComponent))
        }
    }

    /// The bytes of the regular file at `relative`, never through a link.
    func read(_ relative: BytePath) throws(FileError) -> [UInt8] {
        try withFolder(relative.parent, create: false) { fd, folder throws(FileError) in
            try FileSystem.readFile(relative.lastComponent, in: fd, path: folder.appending(relative.lastComponent))
        }
    }

    /// The regular file at `relative`, never through a link, handed to `body` a megabyte at a time.
    func read(_ relative: BytePath, inChunks body: (UnsafeRawBufferPointer) -> Void) throws(FileError) {
        try withFolder(relative.parent, create: false) { fd, folder throws(FileError) in
            try FileSystem.readFile(relative.lastComponent, in: fd, path: folder.appending(relative.lastComponent), inChunks: body)
        }
    }

    /// Writes `bytes` at `relative` atomically (see `AtomicFile`), creating real folders on the
    /// way; `beforeReplacing` runs between the flushed temporary file and the rename.
    func write(_ bytes: [UInt8], to relative: BytePath,
               beforeReplacing: (FileStatus) throws(FileError) -> Void) throws(FileError) {
        try withFolder(relative.parent, create: true) { fd, folder throws(FileError) in
            try AtomicFile.write(bytes, named: relative.lastComponent, in: fd, folderPath: folder, beforeReplacing: beforeReplacing)
        }
    }

    /// Renames `relative` to `newName` in the same folder, refusing to replace anything there.
    func moveAside(_ relative: BytePath, to newName: BytePath) throws(FileError) {
        try withFolder(relative.parent, create: false) { fd, folder throws(FileError) in
            if try FileStatus.of(newName, in: fd, path: folder.appending(newName)) != nil {
                throw FileError(.replace, folder.appending(newName), .system(EEXIST))
            }
            let r = relative.lastComponent.withCString { from in newName.withCString { to in renameat(fd, from, fd, to) } }
            if r != 0 { throw FileError(.replace, folder.appending(relative.lastComponent), .system(errno)) }
        }
    }

    /// Removes the folder at `relative` and then each folder above it, below the root, as long as
    /// each is empty (never through a link).
    func removeEmptyFolders(from relative: BytePath) {
        var path = relative
        while !path.bytes.isEmpty && path.bytes != [BytePath.dot] {
            let name = path.lastComponent
            let gone = (try? withFolder(path.parent, create: false) { fd, _ throws(FileError) -> Bool in
                name.withCString { unlinkat(fd, $0, AT_REMOVEDIR) } == 0
            }) ?? false
            guard gone else { break }
            path = path.parent
        }
    }

    /// Takes the folder's lock (`flock`): exclusive for a run that may rewrite anything in it,
    /// shared for a `--shard` run (shards write disjoint files and each its own manifest). Held
    /// until the folder is released. Returns false when `wait` is false and another run holds it.
    func lock(exclusive: Bool, wait: Bool) -> Bool {
        flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)) == 0
    }

    /// Removes the temporary files left below the folder by runs that were killed
    /// (`TemporaryName.isStale`), without following links; returns their paths.
    func removeStaleTemporaries(noOtherWriter: Bool) -> [BytePath] {
        var removed: [BytePath] = []
        func sweep(_ fd: Int32, _ path: BytePath, depth: Int) {
            guard depth < 64, let names = try? FileSystem.list(descriptor: fd, path: path) else { return }
            for name in names {
                guard let s = try? FileStatus.of(name, in: fd, path: path.appending(name)) else { continue }
                if s.kind == .directory {
                    guard let sub = try? FileSystem.openFolder(name, in: fd, path: path.appending(name), create: false) else { continue }
                    sweep(sub, path.appending(name), depth: depth + 1)
                    close(sub)
                } else if s.kind == .regular, let t = TemporaryName(parsing: name), t.isStale(noOtherWriter: noOtherWriter) {
                    if name.withCString({ unlinkat(fd, $0, 0) }) == 0 { removed.append(path.appending(name)) }
                }
            }
        }
        sweep(descriptor, root, depth: 0)
        return removed
    }
}
