import CDeflate

/// zlib decompression for PNG: libdeflate for speed, with the salvage inflater to count (and
/// keep) what decodes when libdeflate refuses the stream.
enum PNGInflater {
    enum Outcome: Equatable {
        /// Exactly the expected bytes, stream intact.
        case complete
        /// The stream ended cleanly but held fewer bytes.
        case short(produced: Int)
        /// The stream holds more than needed; the first `count` bytes are in the buffer.
        case overlong
        /// The stream breaks (truncated, corrupt, or a bad Adler-32) after `produced` bytes.
        case damaged(produced: Int)

        var produced: Int? {
            switch self {
            case .complete, .overlong: nil
            case .short(let n), .damaged(let n): n
            }
        }
    }

    /// Inflates the zlib stream `src` into `dst`, which holds exactly `count` bytes.
    static func inflate(_ src: UnsafeRawBufferPointer, into dst: UnsafeMutablePointer<UInt8>, count: Int) -> Outcome {
        guard let d = libdeflate_alloc_decompressor() else { return .damaged(produced: 0) }
        defer { libdeflate_free_decompressor(d) }
        var actual = 0
        let r = libdeflate_zlib_decompress(d, src.baseAddress, src.count, dst, count, &actual)
        if r == LIBDEFLATE_SUCCESS {
            return actual == count ? .complete : .short(produced: actual)
        }
        // libdeflate says nothing of how far it got: decode again, slowly, to find out and to
        // leave every good byte in `dst`.
        let salvage = SalvageInflater.inflate(zlib: src, into: dst, capacity: count)
        if r == LIBDEFLATE_INSUFFICIENT_SPACE && salvage.produced == count { return .overlong }
        return .damaged(produced: salvage.produced)
    }

    /// Inflates a small zlib stream of unknown size (an ICC profile), growing the buffer up to
    /// `cap` bytes. Nil when the stream is damaged or larger than `cap`.
    static func inflateGrowing(_ src: UnsafeRawBufferPointer, cap: Int) -> [UInt8]? {
        guard let d = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(d) }
        var size = min(cap, max(1 << 16, src.count &* 4))
        while true {
            var actual = 0
            var out = [UInt8](repeating: 0, count: size)
            let r = out.withUnsafeMutableBytes { o in
                libdeflate_zlib_decompress(d, src.baseAddress, src.count, o.baseAddress, size, &actual)
            }
            if r == LIBDEFLATE_SUCCESS {
                out.removeLast(size - actual)
                return out
            }
            if r != LIBDEFLATE_INSUFFICIENT_SPACE || size >= cap { return nil }
            size = min(cap, size * 4)
        }
    }
}
