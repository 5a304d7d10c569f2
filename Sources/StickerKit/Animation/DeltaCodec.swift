import CDeflate

/// Packs a frame store's spans once it holds more than it keeps uncompressed: as runs of equal
/// pixels, themselves deflated, when the spans are made of runs (flat artwork: the runs take a
/// third of the bytes or less), else raw deflate of the spans, both at libdeflate's fastest
/// level. One compressor and one decompressor per store (one thread).
///
/// Why runs first: deflating the spans as they are, and inflating them on every walk of the
/// search, was about a quarter of the `perf` samples of `scripts/check-bombs`' 5,000-frame GIF
/// (a square moving over an enlarged 32² screen) and a tenth over the animated corpus; a run of
/// equal pixels is found and rebuilt at memory speed, and deflate then sees a third of the
/// bytes or less. Spans that are not runs (photos, dithering) stop the run pass early and are
/// deflated as they are. Figures in NOTES.md.
final class DeltaCodec {
    private let compressor: OpaquePointer?
    private let decompressor: OpaquePointer?
    /// Bytes per pixel: runs are of whole pixels.
    private let unit: Int

    /// What the first byte of a packed block says.
    private enum Form: UInt8 {
        /// Raw deflate of the bytes.
        case deflated = 0
        /// The length of the runs' stream (4 bytes, little-endian), then its raw deflate.
        case runs = 1
    }

    /// Runs are used when they take at most 1/`runShare` of the bytes.
    static let runShare = 3

    init(unit: Int = 4) {
        precondition(unit == 1 || unit == 4, "DeltaCodec: pixels of 1 or 4 bytes")
        self.unit = unit
        compressor = libdeflate_alloc_compressor(1)
        decompressor = libdeflate_alloc_decompressor()
    }

    deinit {
        if let compressor { libdeflate_free_compressor(compressor) }
        if let decompressor { libdeflate_free_decompressor(decompressor) }
    }

    /// `bytes` packed, or nil when that does not make them smaller (or fails).
    func compress(_ bytes: [UInt8]) -> [UInt8]? {
        guard compressor != nil, !bytes.isEmpty else { return nil }
        if bytes.count % unit == 0, let runs = DeltaCodec.runs(bytes, unit: unit, limit: bytes.count / DeltaCodec.runShare) {
            let n = UInt32(runs.count)
            let header: [UInt8] = [Form.runs.rawValue, UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
            if let packed = deflate(runs, after: header), packed.count < bytes.count { return packed }
        }
        guard let packed = deflate(bytes, after: [Form.deflated.rawValue]), packed.count < bytes.count else { return nil }
        return packed
    }

    /// The `count` bytes `compressed` holds, into `out` (at least `count` bytes).
    func decompress(_ compressed: [UInt8], count: Int, into out: UnsafeMutableRawPointer) -> Bool {
        guard decompressor != nil, let first = compressed.first, let form = Form(rawValue: first) else { return false }
        switch form {
        case .deflated:
            return inflate(compressed, from: 1, count: count, into: out)
        case .runs:
            guard compressed.count >= 5 else { return false }
            let n = Int(compressed[1]) | Int(compressed[2]) << 8 | Int(compressed[3]) << 16 | Int(compressed[4]) << 24
            var runs = [UInt8](repeating: 0, count: n)
            let ok = runs.withUnsafeMutableBytes { inflate(compressed, from: 5, count: n, into: $0.baseAddress!) }
            return ok && DeltaCodec.expand(runs, unit: unit, count: count, into: out)
        }
    }

    private func deflate(_ bytes: [UInt8], after header: [UInt8]) -> [UInt8]? {
        guard let compressor else { return nil }
        let bound = libdeflate_deflate_compress_bound(compressor, bytes.count)
        var out = [UInt8](repeating: 0, count: header.count + bound)
        let n = bytes.withUnsafeBytes { i in
            out.withUnsafeMutableBytes { o in
                header.withUnsafeBytes { o.copyMemory(from: $0) }
                return libdeflate_deflate_compress(compressor, i.baseAddress, i.count, o.baseAddress! + header.count, bound)
            }
        }
        guard n > 0 else { return nil }
        // Exactly its size: a trimmed array would keep the bound's capacity.
        return Array(out[0..<(header.count + n)])
    }

    private func inflate(_ compressed: [UInt8], from start: Int, count: Int, into out: UnsafeMutableRawPointer) -> Bool {
        var actual = 0
        let r = compressed.withUnsafeBytes { i in
            libdeflate_deflate_decompress(decompressor, i.baseAddress! + start, i.count - start, out, count, &actual)
        }
        return r == LIBDEFLATE_SUCCESS && actual == count
    }

    /// `bytes` as runs of equal pixels of `unit` bytes: per run a 2-byte little-endian length
    /// (1…65535 pixels), then the pixel. Nil as soon as that passes `limit` bytes.
    static func runs(_ bytes: [UInt8], unit: Int, limit: Int) -> [UInt8]? {
        unit == 4 ? runs(bytes, of: UInt32.self, limit: limit) : runs(bytes, of: UInt8.self, limit: limit)
    }

    private static func runs<Pixel: FixedWidthInteger>(_ bytes: [UInt8], of _: Pixel.Type, limit: Int) -> [UInt8]? {
        let unit = MemoryLayout<Pixel>.size
        let pixels = bytes.count / unit, record = 2 + unit
        var out = [UInt8](repeating: 0, count: limit + record)
        var n = 0
        let fits: Bool = bytes.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                let p = src.baseAddress!, d = dst.baseAddress!
                var i = 0
                while i < pixels {
                    let v = p.loadUnaligned(fromByteOffset: i * unit, as: Pixel.self)
                    var e = i + 1
                    while e < pixels && e - i < 65535 && p.loadUnaligned(fromByteOffset: e * unit, as: Pixel.self) == v { e += 1 }
                    if n + record > limit { return false }
                    d.storeBytes(of: UInt16(e - i).littleEndian, toByteOffset: n, as: UInt16.self)
                    d.storeBytes(of: v, toByteOffset: n + 2, as: Pixel.self)
                    n += record
                    i = e
                }
                return true
            }
        }
        return fits ? Array(out[0..<n]) : nil
    }

    /// Rebuilds the `count` bytes of `runs` (as `runs(_:unit:limit:)` writes them) into `out`;
    /// false when they do not make exactly `count` bytes.
    static func expand(_ runs: [UInt8], unit: Int, count: Int, into out: UnsafeMutableRawPointer) -> Bool {
        unit == 4 ? expand(runs, of: UInt32.self, count: count, into: out) : expand(runs, of: UInt8.self, count: count, into: out)
    }

    private static func expand<Pixel: FixedWidthInteger>(_ runs: [UInt8], of _: Pixel.Type, count: Int,
                                                         into out: UnsafeMutableRawPointer) -> Bool {
        let unit = MemoryLayout<Pixel>.size, record = 2 + unit
        guard runs.count % record == 0 else { return false }
        return runs.withUnsafeBytes { src in
            let s = src.baseAddress!
            var at = 0, k = 0
            while k < runs.count {
                let pixels = Int(UInt16(littleEndian: s.loadUnaligned(fromByteOffset: k, as: UInt16.self)))
                if at + pixels * unit > count { return false }
                let v = s.loadUnaligned(fromByteOffset: k + 2, as: Pixel.self)
                if Int(bitPattern: out + at) % MemoryLayout<Pixel>.alignment == 0 {
                    (out + at).assumingMemoryBound(to: Pixel.self).update(repeating: v, count: pixels)
                } else {
                    for j in 0..<pixels { out.storeBytes(of: v, toByteOffset: at + j * unit, as: Pixel.self) }
                }
                at += pixels * unit
                k += record
            }
            return at == count
        }
    }
}
