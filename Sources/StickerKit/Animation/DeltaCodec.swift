import CDeflate

/// Raw deflate at libdeflate's fastest level, for the frame store's spans once it holds more
/// than it keeps uncompressed. One compressor and one decompressor per store (one thread).
final class DeltaCodec {
    private let compressor: OpaquePointer?
    private let decompressor: OpaquePointer?

    init() {
        compressor = libdeflate_alloc_compressor(1)
        decompressor = libdeflate_alloc_decompressor()
    }

    deinit {
        if let compressor { libdeflate_free_compressor(compressor) }
        if let decompressor { libdeflate_free_decompressor(decompressor) }
    }

    /// `bytes` deflated, or nil when that does not make them smaller (or fails).
    func compress(_ bytes: [UInt8]) -> [UInt8]? {
        guard let compressor, !bytes.isEmpty else { return nil }
        let bound = libdeflate_deflate_compress_bound(compressor, bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let n = bytes.withUnsafeBytes { i in
            out.withUnsafeMutableBytes { o in
                libdeflate_deflate_compress(compressor, i.baseAddress, i.count, o.baseAddress, bound)
            }
        }
        guard n > 0, n < bytes.count else { return nil }
        // Exactly its size: a trimmed array would keep the bound's capacity.
        return Array(out[0..<n])
    }

    /// The `count` bytes `compressed` holds, into `out` (at least `count` bytes).
    func decompress(_ compressed: [UInt8], count: Int, into out: UnsafeMutableRawPointer) -> Bool {
        guard let decompressor else { return false }
        var actual = 0
        let r = compressed.withUnsafeBytes { i in
            libdeflate_deflate_decompress(decompressor, i.baseAddress, i.count, out, count, &actual)
        }
        return r == LIBDEFLATE_SUCCESS && actual == count
    }
}
