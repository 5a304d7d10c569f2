import Foundation
import StickerKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file of a catalog or icon set read only when its size allows: a file of any size may be
/// put there, and is then named, never held whole (a 1.5 GB file in a sticker's folder held
/// 3.1 GB during `check` and `preview`, 4.6 GB during `pack`).
enum BoundedRead: Equatable {
    /// Nothing there (or it cannot be read).
    case missing
    /// Something that is not a regular file (`kind`: "a FIFO", "a folder", …), never opened: a
    /// pipe would wait for a writer.
    case notAFile(kind: String)
    /// A file past the bound, not read.
    case tooLarge(bytes: Int)
    case bytes([UInt8])

    /// The most bytes of JSON read from a Contents.json or stickerkit's record (Xcode's are a few
    /// hundred bytes; the record, about 200 bytes a sticker).
    static let maxJSONBytes = 16 << 20

    /// The file at `url` when it is a regular file of at most `limit` bytes.
    static func of(_ url: URL, limit: Int) -> BoundedRead {
        guard let size = regularFileSize(url) else { return otherKind(url).map { .notAFile(kind: $0) } ?? .missing }
        if size > limit { return .tooLarge(bytes: size) }
        guard let data = FileManager.default.contents(atPath: url.path) else { return .missing }
        return .bytes([UInt8](data))
    }

    /// The image at `url` when one input of its size may be held under the default memory
    /// budget, as the CLI reads a file given to `check` (`StickerConverter.checkFileSize`).
    static func image(_ url: URL) -> BoundedRead {
        guard let size = regularFileSize(url) else { return otherKind(url).map { .notAFile(kind: $0) } ?? .missing }
        if (try? StickerConverter.checkFileSize(size, head: [], limits: .default)) == nil { return .tooLarge(bytes: size) }
        return of(url, limit: .max)
    }

    /// Why a JSON file of `size` bytes was not read.
    static func jsonTooLarge(_ size: Int) -> String {
        "\(Limits.describeMegabytes(size)), not read: stickerkit reads JSON files of a catalog up to \(Limits.describeMegabytes(maxJSONBytes))"
    }

    /// The size of the regular file at `url` (links followed), or nil.
    static func regularFileSize(_ url: URL) -> Int? {
        var s = stat()
        guard stat(url.path, &s) == 0, s.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(s.st_size)
    }

    /// What is at `url` (links followed) when it is there but not a regular file: "a folder",
    /// "a FIFO", "a socket", "a device"; nil otherwise.
    static func otherKind(_ url: URL) -> String? {
        var s = stat()
        guard stat(url.path, &s) == 0 else { return nil }
        switch s.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "a device"
        }
    }

    /// Why a file that is `kind` was not read.
    static func notAFileMessage(_ kind: String) -> String { "not a regular file (\(kind)); not read" }

    /// Why an image that is there was not read (past the bound, or not a regular file), as
    /// `check` says it; nil when it was read or is missing.
    var unreadableImageMessage: String? {
        switch self {
        case .tooLarge(let bytes): StickerCheckReport.tooLargeMessage(bytes)
        case .notAFile(let kind): Self.notAFileMessage(kind)
        case .missing, .bytes: nil
        }
    }

    /// The bytes read, or nil.
    var bytes: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }
}
