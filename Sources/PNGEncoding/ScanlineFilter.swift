/// PNG scanline filtering (filter method 0): turns a `Raster` into the byte stream deflate
/// compresses, each row prefixed by its filter type.
enum ScanlineFilter {
    /// The filtered stream of `raster`: `height × (1 + rowBytes)` bytes.
    static func filter(_ raster: Raster, strategy: FilterStrategy, compressor: ZlibCompressor? = nil) -> [UInt8] {
        if strategy == .bruteForce { return bruteForce(raster, compressor: compressor ?? ZlibCompressor()) }
        return filter(raster, strategy: strategy, rows: [0..<raster.height])
    }

    /// The filtered rows of `bands`, one after another: each row exactly as in the whole filtered
    /// stream (a band's first row is predicted from the real row above it). Not for `.bruteForce`,
    /// whose choice depends on the rows chosen before.
    static func filter(_ raster: Raster, strategy: FilterStrategy, rows bands: [Range<Int>]) -> [UInt8] {
        precondition(strategy != .bruteForce, "brute force filters whole rasters only")
        let rowBytes = raster.rowBytes
        let unit = raster.filterUnit
        let rowList = bands.flatMap { $0.clamped(to: 0..<raster.height) }
        var out = [UInt8](repeating: 0, count: rowList.count * (rowBytes + 1))
        // Row -1 is all zeros for Up, Average and Paeth.
        let zeroRow = [UInt8](repeating: 0, count: rowBytes)
        // Five candidate rows for the heuristic.
        var scratch = [UInt8](repeating: 0, count: 5 * rowBytes)
        raster.data.withUnsafeBufferPointer { src in
            zeroRow.withUnsafeBufferPointer { zero in
                out.withUnsafeMutableBufferPointer { dst in
                    scratch.withUnsafeMutableBufferPointer { s in
                        guard rowBytes > 0, let src = src.baseAddress, let dst = dst.baseAddress else { return }
                        for (n, y) in rowList.enumerated() {
                            let cur = src + y * rowBytes
                            let prev = y == 0 ? zero.baseAddress! : cur - rowBytes
                            let o = dst + n * (rowBytes + 1)
                            switch strategy {
                            case .fixed(let type):
                                o[0] = type.rawValue
                                filterRow(type: type, cur: cur, prev: prev, count: rowBytes, unit: unit, out: o + 1)
                            case .minimumSum, .bruteForce:
                                o[0] = minimumSumRow(cur: cur, prev: prev, count: rowBytes, unit: unit, scratch: s.baseAddress!, out: o + 1).rawValue
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Per row, each filter type is written after the previous `bruteForceWindowRows` filtered
    /// rows and the whole window deflated; the type giving the smallest stream is kept.
    static func bruteForce(_ raster: Raster, compressor: ZlibCompressor) -> [UInt8] {
        let rowBytes = raster.rowBytes, height = raster.height, unit = raster.filterUnit
        let stride = rowBytes + 1
        let window = FilterStrategy.bruteForceWindowRows
        var out = [UInt8](repeating: 0, count: height * stride)
        // Room for `window` context rows and one candidate row.
        var work = [UInt8](repeating: 0, count: (window + 1) * stride)
        let zeroRow = [UInt8](repeating: 0, count: rowBytes)
        raster.data.withUnsafeBufferPointer { src in
            zeroRow.withUnsafeBufferPointer { zero in
                out.withUnsafeMutableBufferPointer { dst in
                    work.withUnsafeMutableBufferPointer { w in
                        guard rowBytes > 0, let src = src.baseAddress, let dst = dst.baseAddress, let w = w.baseAddress else { return }
                        for y in 0..<height {
                            let cur = src + y * rowBytes
                            let prev = y == 0 ? zero.baseAddress! : cur - rowBytes
                            let context = min(y, window)
                            // The chosen rows before this one, then the candidate.
                            w.update(from: dst + (y - context) * stride, count: context * stride)
                            let candidate = w + context * stride
                            var best = FilterType.none, bestSize = Int.max
                            for type in FilterType.allCases {
                                candidate[0] = type.rawValue
                                filterRow(type: type, cur: cur, prev: prev, count: rowBytes, unit: unit, out: candidate + 1)
                                let size = compressor.compressedSize(w, count: (context + 1) * stride, level: 1)
                                if size < bestSize { bestSize = size; best = type }
                            }
                            let o = dst + y * stride
                            o[0] = best.rawValue
                            filterRow(type: best, cur: cur, prev: prev, count: rowBytes, unit: unit, out: o + 1)
                        }
                    }
                }
            }
        }
        return out
    }

    /// Filters every way, keeps the one with the smallest signed-absolute sum; returns its type.
    @inline(never)
    static func minimumSumRow(cur: UnsafePointer<UInt8>, prev: UnsafePointer<UInt8>, count: Int, unit: Int,
                              scratch: UnsafeMutablePointer<UInt8>, out: UnsafeMutablePointer<UInt8>) -> FilterType {
        var best = FilterType.none
        var bestSum = Int.max
        for type in FilterType.allCases {
            let row = scratch + Int(type.rawValue) * count
            filterRow(type: type, cur: cur, prev: prev, count: count, unit: unit, out: row)
            let sum = signedAbsoluteSum(row, count: count)
            if sum < bestSum { bestSum = sum; best = type }
        }
        out.update(from: scratch + Int(best.rawValue) * count, count: count)
        return best
    }

    /// Σ |b| with each byte read as a signed 8-bit value. `min(b, 0 &- b)` is that magnitude
    /// (128 for 0x80) and, unlike a branch on the sign, lets LLVM vectorise the loop.
    @inline(never)
    static func signedAbsoluteSum(_ p: UnsafePointer<UInt8>, count: Int) -> Int {
        var sum = 0
        var i = 0
        // A row is at most 2³¹ bytes, but keep the UInt32 sum safe: flush every 2²⁴ bytes.
        while i < count {
            let end = min(count, i + (1 << 24))
            var part: UInt32 = 0
            while i < end {
                let b = p[i]
                let n = 0 &- b
                part &+= UInt32(b < n ? b : n)
                i &+= 1
            }
            sum += Int(part)
        }
        return sum
    }

    /// The Paeth predictor of left `a`, above `b`, upper-left `c`, without branches: on noisy
    /// rows the branchy form mispredicts and was about twice as slow.
    @inline(__always)
    static func paeth(_ a: Int16, _ b: Int16, _ c: Int16) -> UInt8 {
        // 16-bit lanes: every intermediate is within ±1020, and LLVM can vectorise 16 at a time.
        let da = b &- c, db = a &- c, dc = a &+ b &- 2 &* c
        let pa = (da ^ (da >> 15)) &- (da >> 15)
        let pb = (db ^ (db >> 15)) &- (db >> 15)
        let pc = (dc ^ (dc >> 15)) &- (dc >> 15)
        let aWins = ~((pb &- pa) >> 15) & ~((pc &- pa) >> 15)   // all ones when pa ≤ pb and pa ≤ pc
        let bWins = ~((pc &- pb) >> 15)                         // all ones when pb ≤ pc
        let bc = (b & bWins) | (c & ~bWins)
        return UInt8(truncatingIfNeeded: (a & aWins) | (bc & ~aWins))
    }

    /// One row through one filter type. `prev` is the unfiltered row above (zeros for row 0).
    @inline(never)
    static func filterRow(type: FilterType, cur: UnsafePointer<UInt8>, prev: UnsafePointer<UInt8>, count: Int, unit: Int,
                          out: UnsafeMutablePointer<UInt8>) {
        // Wrapping `&+`/`&-` on the indices keeps overflow checks out of the loops, which lets
        // LLVM vectorise them (Paeth went from 6 ms to 0.4 ms on a 618² RGBA frame).
        let head = min(unit, count)
        var i = 0
        switch type {
        case .sub:
            while i < head { out[i] = cur[i]; i &+= 1 }
            while i < count { out[i] = cur[i] &- cur[i &- unit]; i &+= 1 }
        case .up:
            while i < count { out[i] = cur[i] &- prev[i]; i &+= 1 }
        case .average:
            while i < head { out[i] = cur[i] &- (prev[i] >> 1); i &+= 1 }
            while i < count {
                out[i] = cur[i] &- UInt8(truncatingIfNeeded: (UInt16(cur[i &- unit]) &+ UInt16(prev[i])) >> 1)
                i &+= 1
            }
        case .paeth:
            // With no left neighbour the Paeth predictor is the byte above.
            while i < head { out[i] = cur[i] &- prev[i]; i &+= 1 }
            while i < count {
                out[i] = cur[i] &- paeth(Int16(cur[i &- unit]), Int16(prev[i]), Int16(prev[i &- unit]))
                i &+= 1
            }
        case .none:
            out.update(from: cur, count: count)
        }
    }
}
