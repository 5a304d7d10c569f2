/// Why a ZIP archive, or one of its entries, cannot be read (`ZipReader`). Each case carries the
/// values that show what is wrong, and the entry's name when it is about one entry.
public enum ZipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No end of central directory record in the last 65,557 bytes: not a ZIP archive, or one cut
    /// before its end.
    case noEndRecord
    /// A ZIP64 archive (over 65,535 entries or 4 GiB), which a sticker pack never needs.
    case zip64
    /// An archive split over several disks.
    case multiDisk
    /// The central directory (`offset`, `size` bytes) does not lie inside the `fileSize`-byte file.
    case directoryOutside(offset: Int, size: Int, fileSize: Int)
    /// The central directory ends after `found` of the `declared` entries.
    case directoryCut(found: Int, declared: Int)
    /// An entry's data (from its local header at `offset`) runs past the end of the file.
    case entryOutside(name: String, offset: Int)
    /// An encrypted entry.
    case encrypted(name: String)
    /// An entry compressed by a method other than stored (0) or deflate (8).
    case unsupportedMethod(name: String, method: Int)
    /// An entry larger, once expanded, than the reader takes.
    case entryTooLarge(name: String, bytes: Int, limit: Int)
    /// A stored entry whose compressed and expanded sizes differ.
    case storedSizes(name: String, compressed: Int, expanded: Int)
    /// An entry's deflate stream is broken, or does not expand to its declared size.
    case badDeflate(name: String, declared: Int)
    /// An entry's bytes do not match the CRC-32 its header declares.
    case crcMismatch(name: String, declared: UInt32, computed: UInt32)

    public var description: String {
        switch self {
        case .noEndRecord:
            return "not a ZIP archive, or cut short: no end of central directory record"
        case .zip64:
            return "a ZIP64 archive (over 65,535 entries or 4 GiB): not read"
        case .multiDisk:
            return "a ZIP archive split over several disks: not read"
        case .directoryOutside(let offset, let size, let fileSize):
            return "ZIP central directory (\(size) bytes at \(offset)) lies outside the \(fileSize)-byte file: cut short or damaged"
        case .directoryCut(let found, let declared):
            return "ZIP central directory ends after \(found) of its \(declared) entries: damaged"
        case .entryOutside(let name, let offset):
            return "\(name): its data (local header at \(offset)) runs past the end of the file: cut short or damaged"
        case .encrypted(let name):
            return "\(name): encrypted, not read"
        case .unsupportedMethod(let name, let method):
            return "\(name): compressed by ZIP method \(method); read are stored (0) and deflate (8)"
        case .entryTooLarge(let name, let bytes, let limit):
            return "\(name): \(bytes) bytes once expanded, over the \(limit) read from one entry"
        case .storedSizes(let name, let compressed, let expanded):
            return "\(name): stored, yet \(compressed) bytes in the archive and \(expanded) declared: damaged"
        case .badDeflate(let name, let declared):
            return "\(name): its deflate data is damaged or does not expand to the \(declared) bytes declared"
        case .crcMismatch(let name, let declared, let computed):
            return "\(name): CRC-32 \(hex(computed)), its header declares \(hex(declared)): damaged"
        }
    }

    private func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }
}
