#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file operation that failed: what was being done, to which path, and why. Its description is
/// one line, `cannot write out/cat.png: No space left on device`; `problem` alone is the part
/// after the colon, for messages that already start with the path.
struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Operation: String, Sendable {
        case read, write, replace, remove, inspect, list
        case createFolder = "create the folder"
        case open
        case record = "add a record to"
    }

    enum Problem: Equatable, Sendable, CustomStringConvertible {
        /// A system call failed with this `errno`.
        case system(Int32)
        /// Something other than a folder is where a folder is needed.
        case notAFolder(FileStatus.Kind)
        /// A folder is where a file is needed.
        case isAFolder
        /// Not a regular file (a FIFO, a device, …): never read or replaced.
        case notARegularFile(FileStatus.Kind)
        /// A symbolic link where stickerkit creates or replaces files: never followed.
        case symbolicLink
        /// A symbolic link whose target does not exist.
        case brokenLink
        /// A write that stopped short without an error.
        case shortWrite(written: Int, of: Int)

        var description: String {
            switch self {
            case .system(let code): String(cString: strerror(code))
            case .notAFolder(let kind): "is \(kind.noun), not a folder"
            case .isAFolder: "is a folder"
            case .notARegularFile(let kind): "not a regular file (\(kind.noun))"
            case .symbolicLink: "is a symbolic link (stickerkit does not write through links)"
            case .brokenLink: "broken symbolic link (its target does not exist)"
            case .shortWrite(let written, let total): "only \(written) of \(total) bytes could be written"
            }
        }
    }

    var operation: Operation
    var path: BytePath
    var problem: Problem

    init(_ operation: Operation, _ path: BytePath, _ problem: Problem) {
        self.operation = operation
        self.path = path
        self.problem = problem
    }

    var description: String { "cannot \(operation.rawValue) \(path.display): \(problem)" }
}
