import CGIF

/// The bytes giflib reads through `GIFSource.read`, and whether it asked for more than there was.
struct GIFSource {
    let base: UnsafePointer<UInt8>
    let count: Int
    var offset = 0
    var ranOut = false

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// giflib's input callback over a `GIFSource` in `UserData`: copies what is left and reports
    /// a short read, which giflib turns into D_GIF_ERR_READ_FAILED.
    static let read: InputFunc = { gif, buffer, length in
        guard let gif, let buffer, length > 0,
              let source = gif.pointee.UserData?.assumingMemoryBound(to: GIFSource.self) else { return 0 }
        let n = min(Int(length), source.pointee.count - source.pointee.offset)
        if n > 0 {
            buffer.update(from: source.pointee.base + source.pointee.offset, count: n)
            source.pointee.offset += n
        }
        if n < Int(length) { source.pointee.ranOut = true }
        return Int32(max(n, 0))
    }
}
