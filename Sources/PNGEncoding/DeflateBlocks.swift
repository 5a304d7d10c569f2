/// Where the final block of a raw DEFLATE stream (RFC 1951) starts and ends, found by walking
/// its blocks: stored blocks are skipped by their length, Huffman blocks by decoding their
/// symbols (nothing is written out). What `SplitDeflate` needs to turn a stream that libdeflate
/// ended with a final block into one that goes on: libdeflate has no flush API.
///
/// Codes of up to 10 bits are decoded by one table look-up, longer ones a bit at a time
/// (canonical codes, RFC 1951 §3.2.2): it runs over compressed bytes only, once per piece.
enum DeflateBlocks {
    /// The bit offsets (bit 0 = the least significant bit of byte 0) of the final block's
    /// header and of the first bit after its end-of-block code. Nil when `stream` is not a
    /// well-formed DEFLATE stream that ends with a final block within its bytes.
    static func finalBlock(_ stream: UnsafeBufferPointer<UInt8>) -> (header: Int, end: Int)? {
        var bits = BitCursor(stream)
        while true {
            let header = bits.position
            guard let final = bits.read(1), let type = bits.read(2) else { return nil }
            switch type {
            case 0:
                bits.alignToByte()
                guard let length = bits.read(16), let inverse = bits.read(16), length == ~inverse & 0xFFFF,
                      bits.skip(8 * length) else { return nil }
            case 1:
                guard skipSymbols(&bits, literals: fixedLiterals, distances: fixedDistances) else { return nil }
            case 2:
                guard let (literals, distances) = dynamicCodes(&bits),
                      skipSymbols(&bits, literals: literals, distances: distances) else { return nil }
            default:
                return nil
            }
            if final == 1 { return (header, bits.position) }
        }
    }

    /// Extra bits after length symbols 257…285 and distance symbols 0…29 (RFC 1951 §3.2.5).
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
                                        12, 12, 13, 13]
    /// The order in which code-length code lengths are stored (RFC 1951 §3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static let fixedLiterals = Code(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })!
    private static let fixedDistances = Code(lengths: [Int](repeating: 5, count: 30))!

    /// Skips a block's symbols up to and including its end-of-block code.
    private static func skipSymbols(_ bits: inout BitCursor, literals: Code, distances: Code) -> Bool {
        while true {
            guard let symbol = literals.decode(&bits) else { return false }
            if symbol < 256 { continue }
            if symbol == 256 { return true }
            let length = symbol - 257
            guard length < lengthExtra.count, bits.skip(lengthExtra[length]),
                  let distance = distances.decode(&bits), distance < distanceExtra.count,
                  bits.skip(distanceExtra[distance]) else { return false }
        }
    }

    /// The literal/length and distance codes of a dynamic block, read from its header.
    private static func dynamicCodes(_ bits: inout BitCursor) -> (Code, Code)? {
        guard let hlit = bits.read(5), let hdist = bits.read(5), let hclen = bits.read(4) else { return nil }
        let literalCount = hlit + 257, distanceCount = hdist + 1
        guard literalCount <= 286, distanceCount <= 30 else { return nil }
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<(hclen + 4) {
            guard let n = bits.read(3) else { return nil }
            codeLengths[codeLengthOrder[i]] = n
        }
        guard let lengthCode = Code(lengths: codeLengths) else { return nil }
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            guard let symbol = lengthCode.decode(&bits) else { return nil }
            switch symbol {
            case 0..<16:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last, let n = bits.read(2) else { return nil }
                lengths += repeatElement(previous, count: 3 + n)
            case 17:
                guard let n = bits.read(3) else { return nil }
                lengths += repeatElement(0, count: 3 + n)
            default:
                guard let n = bits.read(7) else { return nil }
                lengths += repeatElement(0, count: 11 + n)
            }
        }
        guard lengths.count == literalCount + distanceCount, lengths[256] > 0,
              let literals = Code(lengths: Array(lengths[..<literalCount])),
              let distances = Code(lengths: Array(lengths[literalCount...])) else { return nil }
        return (literals, distances)
    }

    /// A canonical Huffman code: how many codes each length has, the symbols in code order, and
    /// a table that decodes codes of up to `fastBits` bits in one look-up.
    private struct Code {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []
        /// For every `fastBits`-bit window of the stream (first bit lowest): the symbol whose
        /// code starts it, shifted left by 4, plus the code's length; 0 when that code is longer.
        var fast = [UInt32](repeating: 0, count: 1 << Code.fastBits)
        static let fastBits = 10

        /// Nil for an over-subscribed set of lengths (incomplete ones are allowed, as for a
        /// single distance code).
        init?(lengths: [Int]) {
            for n in lengths { counts[n] += 1 }
            counts[0] = 0
            var left = 1
            for n in 1..<16 {
                left = left * 2 - counts[n]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for n in 1..<15 { offsets[n + 1] = offsets[n] + counts[n] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, n) in lengths.enumerated() where n > 0 {
                symbols[offsets[n]] = symbol
                offsets[n] += 1
            }
            // Canonical codes in symbol order per length; the stream holds a code's first
            // (most significant) bit first, so the window holds it reversed.
            var code = 0, index = 0
            for n in 1...Code.fastBits {
                for j in 0..<counts[n] {
                    var reversed = 0
                    for b in 0..<n where (code + j) >> (n - 1 - b) & 1 == 1 { reversed |= 1 << b }
                    let entry = UInt32(symbols[index + j]) << 4 | UInt32(n)
                    for high in stride(from: reversed, to: 1 << Code.fastBits, by: 1 << n) { fast[high] = entry }
                }
                index += counts[n]
                code = (code + counts[n]) << 1
            }
        }

        func decode(_ bits: inout BitCursor) -> Int? {
            let entry = fast[bits.peek(Code.fastBits)]
            if entry != 0 { return bits.skip(Int(entry & 15)) ? Int(entry >> 4) : nil }
            var code = 0, first = 0, index = 0
            for n in 1..<16 {
                guard let bit = bits.read(1) else { return nil }
                code |= bit
                let count = counts[n]
                if code >= first && code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            return nil
        }
    }

    /// Reads bits least significant first, as DEFLATE packs them.
    private struct BitCursor {
        let bytes: UnsafeBufferPointer<UInt8>
        private(set) var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// The next `count` (≤ 16) bits as a number, the first bit lowest; bits past the end
        /// read as 0 (the caller checks lengths with `read` or `skip`).
        @inline(__always)
        func peek(_ count: Int) -> Int {
            guard let base = bytes.baseAddress else { return 0 }
            let byte = position >> 3, n = bytes.count
            var v = byte < n ? Int(base[byte]) : 0
            if byte + 1 < n { v |= Int(base[byte + 1]) << 8 }
            if byte + 2 < n { v |= Int(base[byte + 2]) << 16 }
            return v >> (position & 7) & ((1 << count) - 1)
        }

        /// The next `count` (≤ 16) bits as a number, the first bit lowest; nil past the end.
        @inline(__always)
        mutating func read(_ count: Int) -> Int? {
            guard position + count <= bytes.count * 8 else { return nil }
            let value = peek(count)
            position += count
            return value
        }

        mutating func skip(_ count: Int) -> Bool {
            guard position + count <= bytes.count * 8 else { return false }
            position += count
            return true
        }

        mutating func alignToByte() { position = (position + 7) & ~7 }
    }
}
