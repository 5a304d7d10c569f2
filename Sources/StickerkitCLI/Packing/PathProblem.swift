import Foundation

/// What is wrong with a path a command was given, in words: the real problem, not Foundation's
/// "The operation could not be completed".
enum PathProblem {
    enum Expected { case file, folder }

    /// Why `path` cannot be used as `expected`, or nil when it can (it exists as that and, for a
    /// file, can be read).
    static func of(_ path: String, expecting expected: Expected) -> String? {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDir) else {
            if let blocker = fileInTheWay(of: path) { return "\(blocker) is a file, not a folder" }
            return expected == .file ? "no such file" : "no such folder"
        }
        switch (expected, isDir.boolValue) {
        case (.file, true): return "is a folder, not a file"
        case (.folder, false): return "is a file, not a folder"
        case (.file, false): return fm.isReadableFile(atPath: path) ? nil : "cannot be read (permission denied)"
        case (.folder, true): return nil
        }
    }

    /// `of`, for a path known to be unusable: never nil.
    static func describe(_ path: String, expecting expected: Expected) -> String {
        of(path, expecting: expected) ?? "cannot be read"
    }

    /// The nearest existing ancestor of `path` when it is a file (so `path` cannot exist).
    static func fileInTheWay(of path: String) -> String? {
        var p = (path as NSString).deletingLastPathComponent
        while !p.isEmpty && p != "/" {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: p, isDirectory: &isDir) { return isDir.boolValue ? nil : p }
            p = (p as NSString).deletingLastPathComponent
        }
        return nil
    }
}
