import CDeflate

/// zlib streams from libdeflate, one compressor per level, owned by one encode call.
///
/// A libdeflate compressor is not thread-safe, so every encode call makes its own and frees it
/// when done: concurrent conversions never share one. Allocating costs far less than compressing
/// (measured in NOTES.md), so there is no cross-call cache.
final class ZlibCompressor {
    private var compressors: [Int: OpaquePointer] = [:]
    /// Inputs met before and what they gave, when `remembers` (`StreamMemo`).
    private var memo: StreamMemo?

    /// With `remembers`, inputs met again take the stream or size made the first time
    /// (`StreamMemo`): for an APNG encode's layout, whose regions come back.
    init(remembers: Bool = false) {
        memo = remembers ? StreamMemo() : nil
    }

    /// Inputs answered from what this compressor made before.
    var remembered: Int { memo?.hits ?? 0 }

    deinit {
        for (_, c) in compressors { libdeflate_free_compressor(c) }
    }

    private func compressor(level: Int) -> OpaquePointer? {
        if let c = compressors[level] { return c }
        guard let c = libdeflate_alloc_compressor(Int32(level)) else { return nil }
        compressors[level] = c
        return c
    }

    /// The zlib stream of `input` at `level` (0…12), in an array of exactly its size: streams
    /// are kept (a layout holds every frame's), and an array trimmed from the compression bound
    /// would keep the bound's capacity.
    func compress(_ input: UnsafeBufferPointer<UInt8>, level: Int) -> [UInt8] {
        guard let c = compressor(level: level) else { return ZlibCompressor.stored(input) }
        let bound = libdeflate_zlib_compress_bound(c, input.count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let n = scratch.withUnsafeMutableBufferPointer { o in
            libdeflate_zlib_compress(c, input.baseAddress, input.count, o.baseAddress, bound)
        }
        if n == 0 { return ZlibCompressor.stored(input) }
        return Array(scratch[0..<n])
    }

    /// The zlib stream of `input` at `level`; an input this compressor met before, byte for
    /// byte, takes the stream made then (`StreamMemo`).
    func compress(_ input: [UInt8], level: Int) -> [UInt8] {
        let r = remembering(input, form: .zlib, level: level) { .stream(compress($0, level: level)) }
        guard case .stream(let s) = r else { preconditionFailure("ZlibCompressor: a zlib entry holds a stream") }
        return s
    }

    /// The size of the raw deflate stream of `input` at `level`, as `compressedSize(_:count:level:)`
    /// gives it; an input this compressor met before takes the size found then.
    func compressedSize(_ input: [UInt8], level: Int) -> Int {
        let r = remembering(input, form: .rawSize, level: level) { .size(compressedSize($0.baseAddress!, count: $0.count, level: level)) }
        guard case .size(let n) = r else { preconditionFailure("ZlibCompressor: a size entry holds a size") }
        return n
    }

    /// `make`'s result for `input`, from the memo when this compressor met the same bytes in
    /// `form` at `level` before; kept there when small enough.
    private func remembering(_ input: [UInt8], form: StreamMemo.Form, level: Int,
                             make: (UnsafeBufferPointer<UInt8>) -> StreamMemo.Result) -> StreamMemo.Result {
        guard memo != nil, input.count <= StreamMemo.maxInputBytes else { return input.withUnsafeBufferPointer(make) }
        let digest = StreamMemo.digest(input, form: form, level: level)
        if let r = memo!.lookup(input, digest: digest, form: form, level: level) { return r }
        let r = input.withUnsafeBufferPointer(make)
        memo!.remember(input, digest: digest, form: form, level: level, result: r)
        return r
    }

    private var scratch: [UInt8] = []

    /// The bytes of the zlib stream `stream`, which holds at most `capacity`; nil when it is not
    /// a valid stream of at most that many bytes (or libdeflate cannot allocate).
    static func inflate(_ stream: [UInt8], capacity: Int) -> [UInt8]? {
        guard let d = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(d) }
        var out = [UInt8](repeating: 0, count: max(capacity, 1))
        var n = 0
        let result = stream.withUnsafeBytes { s in
            out.withUnsafeMutableBytes { o in
                libdeflate_zlib_decompress(d, s.baseAddress, s.count, o.baseAddress, o.count, &n)
            }
        }
        guard result == LIBDEFLATE_SUCCESS else { return nil }
        out.removeLast(out.count - n)
        return out
    }

    /// The size of the raw deflate stream of `count` bytes at `level`, without keeping it: the
    /// measure the brute-force filter strategy compares rows with.
    func compressedSize(_ p: UnsafePointer<UInt8>, count: Int, level: Int) -> Int {
        guard let c = compressor(level: level) else { return count }
        let bound = libdeflate_deflate_compress_bound(c, count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let n = scratch.withUnsafeMutableBufferPointer { o in
            libdeflate_deflate_compress(c, p, count, o.baseAddress, bound)
        }
        return n == 0 ? count : n
    }

    /// The raw DEFLATE stream of `input` at `level` (a piece of `SplitDeflate`'s stream), or nil
    /// when libdeflate cannot allocate or the output would not be smaller than its bound.
    func deflate(_ input: UnsafeBufferPointer<UInt8>, level: Int) -> [UInt8]? {
        guard let c = compressor(level: level) else { return nil }
        let bound = libdeflate_deflate_compress_bound(c, input.count)
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let n = scratch.withUnsafeMutableBufferPointer { o in
            libdeflate_deflate_compress(c, input.baseAddress, input.count, o.baseAddress, bound)
        }
        return n == 0 ? nil : Array(scratch[0..<n])
    }

    /// A zlib stream of stored (uncompressed) blocks: the fallback when libdeflate cannot
    /// allocate, so encoding never fails.
    static func stored(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        out.reserveCapacity(input.count + input.count / 65535 * 5 + 11)
        var offset = 0
        repeat {
            let n = min(65535, input.count - offset)
            let final: UInt8 = offset + n == input.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            if n > 0 { out.append(contentsOf: UnsafeBufferPointer(rebasing: input[offset..<(offset + n)])) }
            offset += n
        } while offset < input.count
        let adler = libdeflate_adler32(1, input.baseAddress, input.count)
        out += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out
    }
}
