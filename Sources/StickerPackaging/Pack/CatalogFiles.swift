import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File helpers shared by the catalog and the icon set.
enum CatalogFiles {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return e
    }

    static func writeJSON<T: Encodable>(_ value: T, to url: URL) throws {
        var data = try encoder().encode(value)
        data.append(0x0A)
        try write([UInt8](data), to: url)
    }

    /// Writes `bytes` as a new file at `url`: whatever is there is unlinked first, never written
    /// through. A new catalog's tree shares its unchanged files with the old one (`linkTree`), so
    /// writing into one of them in place would change the catalog on disk before it is replaced.
    /// Throws, writing nothing, once the process is stopping (`PendingFolders`).
    static func write(_ bytes: [UInt8], to url: URL) throws {
        try PendingFolders.checkGoingOn(url)
        do {
            if unlink(url.path) != 0 && errno != ENOENT { throw PackError.cannotWrite(path: url.path, reason: String(cString: strerror(errno))) }
            try Data(bytes).write(to: url)
        } catch let e as PackError {
            throw e
        } catch {
            throw PackError.cannotWrite(path: url.path, reason: reason(error))
        }
    }

    /// The tree `source` again at `dest` (which must not exist), each file a hard link to the
    /// file it repeats, so that building a new version of a catalog costs no copy of the files
    /// it keeps (a catalog holding 2 GB of the user's files took 3.0–3.4 s to copy on every run).
    /// Folders are made anew with the permissions of theirs (set once their entries are in, so
    /// that a read-only folder still takes them), and symbolic links made again (never followed); a
    /// folder of the user's made private (700) stayed 755 in the new version. Where a link cannot
    /// be made (a file system without them), a regular file is copied; anything else (a pipe, a
    /// socket, a device) is refused by name: reading a pipe to copy it waited forever.
    /// Every later write into `dest` must replace a file, never write through it (`write`).
    /// Once the process is stopping (`PendingFolders`) it throws before its next entry.
    static func linkTree(from source: URL, to dest: URL) throws {
        let fm = FileManager.default
        try PendingFolders.checkGoingOn(dest)
        try fm.createDirectory(at: dest, withIntermediateDirectories: false)
        for name in try fm.contentsOfDirectory(atPath: source.path) {
            let from = source.appendingPathComponent(name), to = dest.appendingPathComponent(name)
            try PendingFolders.checkGoingOn(to)
            switch try fm.attributesOfItem(atPath: from.path)[.type] as? FileAttributeType {
            case .typeDirectory?:
                try linkTree(from: from, to: to)
            case .typeSymbolicLink?:
                try fm.createSymbolicLink(atPath: to.path, withDestinationPath: fm.destinationOfSymbolicLink(atPath: from.path))
            case let type:
                if linkat(AT_FDCWD, from.path, AT_FDCWD, to.path, 0) == 0 { continue }
                guard type == .typeRegular else {
                    throw PackError.cannotWrite(path: from.path, reason: "not a regular file, folder or link (\(String(cString: strerror(errno)))); move it out of the catalog")
                }
                try fm.copyItem(at: from, to: to)
            }
        }
        if let mode = try fm.attributesOfItem(atPath: source.path)[.posixPermissions] {
            try fm.setAttributes([.posixPermissions: mode], ofItemAtPath: dest.path)
        }
    }

    /// Removes the folder `url` and all it holds, as far as it can: a version moved aside or
    /// half built, ours to delete. A folder of the user's made read-only (555) inside it kept its
    /// entries, and the whole version was left beside the catalog (`.NAME.old-…`); such folders
    /// are made writable and the removal tried again. Links are never followed.
    static func removeTree(_ url: URL) {
        let fm = FileManager.default
        if (try? fm.removeItem(at: url)) != nil || !exists(url) { return }
        func unlock(_ folder: URL) {
            var s = stat()
            guard lstat(folder.path, &s) == 0, s.st_mode & S_IFMT == S_IFDIR else { return }
            _ = chmod(folder.path, (s.st_mode & 0o7777) | S_IRWXU)
            for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] { unlock(folder.appendingPathComponent(name)) }
        }
        unlock(url)
        try? fm.removeItem(at: url)
    }

    /// Whether anything is at `url` (a link itself, not followed).
    private static func exists(_ url: URL) -> Bool {
        var s = stat()
        return lstat(url.path, &s) == 0
    }

    static func isFolder(_ url: URL) -> Bool {
        var isDir: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
    }

    /// The system's reason, without Foundation's "The operation could not be completed" wrapper
    /// when there is a better one.
    static func reason(_ error: Error) -> String {
        let e = error as NSError
        if let posix = e.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain,
           let text = strerror(Int32(posix.code)) {
            return String(cString: text)
        }
        return e.localizedFailureReason ?? e.localizedDescription
    }

    /// Why JSON did not decode, in one line: "invalid JSON" or the missing or mistyped key.
    static func jsonReason(_ error: Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted?: return "invalid JSON"
        case let .keyNotFound(key, _)?: return "no \"\(key.stringValue)\" key"
        case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?:
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\"\(path)\" has the wrong type"
        default: return "\(error)"
        }
    }

    /// A name for a temporary sibling of `dest`, unique to this process: `.NAME.<kind>-PID-RANDOM`.
    static func sibling(of dest: URL, kind: String) -> URL {
        let token = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return dest.deletingLastPathComponent().appendingPathComponent(".\(dest.lastPathComponent).\(kind)-\(token)")
    }

    /// Builds a new version of the folder `dest` in a hidden sibling (`.NAME.tmp-PID-…`, which
    /// `build` fills) and renames it into place; an existing `dest` is moved aside first
    /// (`.NAME.old-PID-…`) and deleted only after the rename succeeded (restored if it failed).
    /// Nothing changes at `dest` when `build` throws. Both siblings are `PendingFolders` while
    /// they exist, so an interrupted process removes them on its way out.
    static func replace(_ dest: URL, building build: (URL) throws -> Void) throws {
        let fm = FileManager.default
        let new = sibling(of: dest, kind: "tmp")
        try PendingFolders.track(new) {
            do {
                try build(new)
                try PendingFolders.swap(dest, {
                    guard fm.fileExists(atPath: dest.path) else {
                        try fm.moveItem(at: new, to: dest)
                        return nil
                    }
                    let old = sibling(of: dest, kind: "old")
                    try fm.moveItem(at: dest, to: old)
                    do {
                        try fm.moveItem(at: new, to: dest)
                    } catch {
                        try? fm.moveItem(at: old, to: dest)
                        throw error
                    }
                    return old
                }, then: { old in removeTree(old) })
            } catch {
                removeTree(new)
                if let e = error as? PackError { throw e }
                throw PackError.cannotWrite(path: dest.path, reason: reason(error))
            }
        }
    }

    /// Clears what an earlier run killed mid-write left beside `dest`: its temporary copies
    /// (`.NAME.tmp-PID-…`) are removed, and a previous version moved aside (`.NAME.old-PID-…`) is
    /// put back when `dest` itself is missing, else removed. Only names of processes no longer
    /// running are touched.
    static func removeLeftovers(of dest: URL) {
        let fm = FileManager.default
        let parent = dest.deletingLastPathComponent()
        guard let names = try? fm.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names.sorted() {
            for kind in ["tmp", "old"] {
                let prefix = ".\(dest.lastPathComponent).\(kind)-"
                guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }),
                      kill(pid, 0) != 0 && errno == ESRCH else { continue }
                let url = parent.appendingPathComponent(name)
                if kind == "old" && !fm.fileExists(atPath: dest.path) {
                    try? fm.moveItem(at: url, to: dest)
                } else {
                    removeTree(url)
                }
            }
        }
    }
}
