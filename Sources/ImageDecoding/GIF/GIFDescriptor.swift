/// The image descriptor giflib is about to read, read ahead from the bytes: the frame's size and
/// its LZW minimum code size, which giflib either misreads (a zero-size frame) or cannot report
/// (a code size it cannot decode).
struct GIFDescriptor {
    let width: Int
    let height: Int
    /// nil when the file ends before it.
    let lzwCodeSize: Int?

    /// LZW minimum code sizes giflib decodes. The GIF specification's encoders write 2…8; 0 and
    /// 12 or more cannot be decoded (a 12-bit code would have no room for the first table entry).
    static let readableCodeSizes = 1...11

    /// The descriptor at `source`'s read position, just after its 0x2C separator; nil when the
    /// file ends inside its 9 fixed bytes (giflib then reports the truncation).
    init?(_ source: GIFSource) {
        let at = source.offset
        guard at + 9 <= source.count else { return nil }
        let b = source.base + at
        width = Int(b[4]) | Int(b[5]) << 8
        height = Int(b[6]) | Int(b[7]) << 8
        let flags = Int(b[8])
        let localTable = flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0
        let codeAt = at + 9 + localTable
        lzwCodeSize = codeAt < source.count ? Int(source.base[codeAt]) : nil
    }
}
