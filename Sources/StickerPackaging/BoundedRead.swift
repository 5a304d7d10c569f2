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
    /// No regular file there (or it cannot be read).
    case missing
    /// A file past the bound, not read.
    case tooLarge(bytes: Int)
    case bytes([UInt8])

    /// The most bytes of JSON read from a Contents.json or stickerkit's record (Xcode's are a few
    /// hundred bytes; the record, about 200 bytes a sticker).
    static let maxJSONBytes = 16 << 20

    /// The file at `url` when it is a regular file of at most `limit` bytes.
    static func of(_ url: URL, limit: Int) -> BoundedRead {
        guard let size = regularFileSize(url) else { return .missing }
        if size > limit { return .tooLarge(bytes: size) }
        guard let data = FileManager.default.contents(atPath: url.path) else { return .missing }
        return .bytes([UInt8](data))
    }

    /// The image at `url` when one input of its size may be held under the default memory
    /// budget, as the CLI reads a file given to `check` (`StickerConverter.checkFileSize`).
    static func image(_ url: URL) -> BoundedRead {
        guard let size = regularFileSize(url) else { return .missing }
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

    /// The bytes read, or nil.
    var bytes: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }
}
