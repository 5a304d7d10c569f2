/// One chunk of a RIFF file (WebP's container): its FourCC and where its data lies. The data of
/// the last chunk of a cut file may run past the end of the bytes.
struct RIFFChunk {
    let fourCC: String
    /// Offset of the chunk's 8-byte header.
    let offset: Int
    /// Data size as declared (without the pad byte that follows odd sizes).
    let size: Int

    var dataStart: Int { offset + 8 }
    /// Offset just past the data.
    var end: Int { dataStart + size }
    /// Offset of the next chunk's header: after the data and its pad byte.
    var next: Int { end + (size & 1) }

    /// The chunk whose header starts at `offset`, or nil when its header is not all there.
    static func at(_ offset: Int, in file: UnsafeBufferPointer<UInt8>) -> RIFFChunk? {
        guard offset >= 0, offset + 8 <= file.count else { return nil }
        return RIFFChunk(fourCC: String(decoding: file[offset..<(offset + 4)], as: UTF8.self), offset: offset,
                         size: le32(file, offset + 4))
    }

    /// The little-endian 24-bit value at `at` (the caller has checked the range).
    static func le24(_ file: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        Int(file[at]) | Int(file[at + 1]) << 8 | Int(file[at + 2]) << 16
    }

    /// The little-endian 32-bit value at `at` (the caller has checked the range).
    static func le32(_ file: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int {
        Int(file[at]) | Int(file[at + 1]) << 8 | Int(file[at + 2]) << 16 | Int(file[at + 3]) << 24
    }
}
