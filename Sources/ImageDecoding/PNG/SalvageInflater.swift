/// A small, slow, forgiving inflater (RFC 1950/1951) for the rare streams libdeflate refuses.
/// libdeflate reports failure without saying how far it got; this one returns every byte that
/// decodes before the stream ends or goes bad, so lenient decoding can keep those rows and
/// error messages can say "decoded X of Y bytes". Decodes Huffman codes bit by bit: never on the
/// fast path.
struct SalvageInflater {
    private let src: UnsafePointer<UInt8>
    private let srcCount: Int
    private var pos = 0
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    private let out: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var produced = 0

    private init(src: UnsafePointer<UInt8>, srcCount: Int, out: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.src = src
        self.srcCount = srcCount
        self.out = out
        self.capacity = capacity
    }

    /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int]

        /// Nil when the lengths over-subscribe the code space.
        init?(lengths: [Int]) {
            symbols = [Int](repeating: 0, count: lengths.count)
            for l in lengths { counts[l] += 1 }
            var left = 1
            for len in 1..<16 {
                left <<= 1
                left -= counts[len]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for len in 1..<15 { offsets[len + 1] = offsets[len] + counts[len] }
            for (symbol, l) in lengths.enumerated() where l != 0 {
                symbols[offsets[l]] = symbol
                offsets[l] += 1
            }
        }
    }

    private enum Stop: Error { case endOfInput, badData, full }

    /// Whether a stream with this two-byte zlib header is read: deflate (CM 8) without a preset
    /// dictionary. The check bits and the window size are not looked at.
    static func readsHeader(cmf: UInt8, flg: UInt8) -> Bool { cmf & 0x0F == 8 && flg & 0x20 == 0 }

    /// Inflates the zlib stream `src` into `out`, stopping at `capacity` bytes. Returns how many
    /// bytes were written and whether the stream ended properly (final block seen).
    static func inflate(zlib src: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>, capacity: Int) -> (produced: Int, finished: Bool) {
        guard src.count > 2, let base = src.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return (0, false) }
        if !readsHeader(cmf: base[0], flg: base[1]) { return (0, false) }
        var state = SalvageInflater(src: base + 2, srcCount: src.count - 2, out: out, capacity: capacity)
        do {
            try state.run()
            return (state.produced, true)
        } catch {
            return (state.produced, false)
        }
    }

    private mutating func bits(_ n: Int) throws -> Int {
        while bitCount < n {
            guard pos < srcCount else { throw Stop.endOfInput }
            bitBuffer |= UInt64(src[pos]) << UInt64(bitCount)
            pos += 1
            bitCount += 8
        }
        let v = Int(bitBuffer & ((1 << UInt64(n)) - 1))
        bitBuffer >>= UInt64(n)
        bitCount -= n
        return v
    }

    private mutating func decode(_ h: Huffman) throws -> Int {
        var code = 0, first = 0, index = 0
        for len in 1..<16 {
            code |= try bits(1)
            let count = h.counts[len]
            if code - count < first { return h.symbols[index + code - first] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw Stop.badData
    }

    private mutating func emit(_ byte: UInt8) throws {
        guard produced < capacity else { throw Stop.full }
        out[produced] = byte
        produced += 1
    }

    private mutating func run() throws {
        var last = 0
        repeat {
            last = try bits(1)
            switch try bits(2) {
            case 0: try stored()
            case 1: try codes(SalvageInflater.fixedLiterals, SalvageInflater.fixedDistances)
            case 2:
                let (lit, dist) = try dynamicTables()
                try codes(lit, dist)
            default: throw Stop.badData
            }
        } while last == 0
    }

    private mutating func stored() throws {
        bitBuffer = 0
        bitCount = 0
        guard pos + 4 <= srcCount else { throw Stop.endOfInput }
        let len = Int(src[pos]) | Int(src[pos + 1]) << 8
        let nlen = Int(src[pos + 2]) | Int(src[pos + 3]) << 8
        pos += 4
        if len != (~nlen & 0xFFFF) { throw Stop.badData }
        for _ in 0..<len {
            guard pos < srcCount else { throw Stop.endOfInput }
            try emit(src[pos])
            pos += 1
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    private static let fixedLiterals: Huffman = {
        var l = [Int](repeating: 8, count: 288)
        for i in 144..<256 { l[i] = 9 }
        for i in 256..<280 { l[i] = 7 }
        return Huffman(lengths: l)!
    }()
    private static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))!

    private mutating func codes(_ lit: Huffman, _ dist: Huffman) throws {
        while true {
            let symbol = try decode(lit)
            if symbol < 256 {
                try emit(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let li = symbol - 257
                guard li < 29 else { throw Stop.badData }
                let length = SalvageInflater.lengthBase[li] + (try bits(SalvageInflater.lengthExtra[li]))
                let di = try decode(dist)
                guard di < 30 else { throw Stop.badData }
                let distance = SalvageInflater.distanceBase[di] + (try bits(SalvageInflater.distanceExtra[di]))
                guard distance <= produced else { throw Stop.badData }
                for _ in 0..<length { try emit(out[produced - distance]) }
            }
        }
    }

    private mutating func dynamicTables() throws -> (Huffman, Huffman) {
        let nlen = try bits(5) + 257
        let ndist = try bits(5) + 1
        let ncode = try bits(4) + 4
        guard nlen <= 286, ndist <= 30 else { throw Stop.badData }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<ncode { codeLengths[order[i]] = try bits(3) }
        guard let lencode = Huffman(lengths: codeLengths) else { throw Stop.badData }
        var lengths = [Int](repeating: 0, count: nlen + ndist)
        var i = 0
        while i < nlen + ndist {
            let symbol = try decode(lencode)
            if symbol < 16 {
                lengths[i] = symbol
                i += 1
                continue
            }
            var value = 0, repeatCount = 0
            switch symbol {
            case 16:
                guard i > 0 else { throw Stop.badData }
                value = lengths[i - 1]
                repeatCount = 3 + (try bits(2))
            case 17: repeatCount = 3 + (try bits(3))
            default: repeatCount = 11 + (try bits(7))
            }
            guard i + repeatCount <= nlen + ndist else { throw Stop.badData }
            for _ in 0..<repeatCount { lengths[i] = value; i += 1 }
        }
        guard lengths[256] != 0,
              let lit = Huffman(lengths: Array(lengths[0..<nlen])),
              let dist = Huffman(lengths: Array(lengths[nlen...])) else { throw Stop.badData }
        return (lit, dist)
    }
}
