/// One file of a ZIP archive, as its central directory header describes it (`ZipReader`).
public struct ZipEntry: Sendable, Equatable {
    /// The name inside the archive, as text (`ZipName`: UTF-8 when marked so or when valid,
    /// else code page 437).
    public var name: String
    /// 0 stored, 8 deflate; others are not read.
    public var method: Int
    /// Whether the entry is encrypted (general purpose flag bit 0).
    public var encrypted: Bool
    /// The CRC-32 its header declares.
    public var crc32: UInt32
    /// Bytes in the archive.
    public var compressedSize: Int
    /// Bytes once expanded.
    public var size: Int
    /// Where its local file header starts.
    public var localHeaderOffset: Int

    /// A folder entry (its name ends with `/`), which holds no bytes.
    public var isFolder: Bool { name.hasSuffix("/") }

    /// The last component of its name.
    public var fileName: String { String(name.split(separator: "/", omittingEmptySubsequences: true).last ?? "") }

    /// Metadata a Mac's Finder adds when it compresses a folder (`__MACOSX/…`, `.DS_Store`):
    /// not part of what was packed.
    public var isFinderMetadata: Bool { name.hasPrefix("__MACOSX/") || fileName == ".DS_Store" }
}
