/// How filter types are chosen for the rows of an image.
enum FilterStrategy: Hashable, CustomStringConvertible {
    /// The same filter type (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) on every row.
    case fixed(UInt8)
    /// Per row, the type whose output has the smallest sum of absolute values when the bytes are
    /// read as signed: the classic heuristic from the PNG specification.
    case minimumSum

    static let none = FilterStrategy.fixed(0)
    /// Every whole-image strategy, in the order `.max` effort tries them.
    static let all: [FilterStrategy] = [.fixed(0), .minimumSum, .fixed(1), .fixed(2), .fixed(3), .fixed(4)]

    var description: String {
        switch self {
        case .fixed(let t): ["none", "sub", "up", "average", "paeth"][Int(min(t, 4))]
        case .minimumSum: "min-sum"
        }
    }
}

/// PNG scanline filtering (filter method 0): turns a `Raster` into the byte stream deflate
/// compresses, each row prefixed by its filter type.
enum ScanlineFilter {
    /// The filtered stream of `raster`: `height × (1 + rowBytes)` bytes.
    static func filter(_ raster: Raster, strategy: FilterStrategy) -> [UInt8] {
        let rowBytes = raster.rowBytes
        let height = raster.height
        let unit = raster.filterUnit
        var out = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        // Row -1 is all zeros for Up, Average and Paeth.
        let zeroRow = [UInt8](repeating: 0, count: rowBytes)
        // Five candidate rows for the heuristic.
        var scratch = [UInt8](repeating: 0, count: 5 * rowBytes)
        raster.data.withUnsafeBufferPointer { src in
            zeroRow.withUnsafeBufferPointer { zero in
                out.withUnsafeMutableBufferPointer { dst in
                    scratch.withUnsafeMutableBufferPointer { s in
                        guard rowBytes > 0, let src = src.baseAddress, let dst = dst.baseAddress else { return }
                        for y in 0..<height {
                            let cur = src + y * rowBytes
                            let prev = y == 0 ? zero.baseAddress! : cur - rowBytes
                            let o = dst + y * (rowBytes + 1)
                            switch strategy {
                            case .fixed(let type):
                                o[0] = type
                                filterRow(type: Int(type), cur: cur, prev: prev, count: rowBytes, unit: unit, out: o + 1)
                            case .minimumSum:
                                o[0] = minimumSumRow(cur: cur, prev: prev, count: rowBytes, unit: unit, scratch: s.baseAddress!, out: o + 1)
                            }
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
                              scratch: UnsafeMutablePointer<UInt8>, out: UnsafeMutablePointer<UInt8>) -> UInt8 {
        var best = 0
        var bestSum = Int.max
        for type in 0..<5 {
            let row = scratch + type * count
            filterRow(type: type, cur: cur, prev: prev, count: count, unit: unit, out: row)
            let sum = signedAbsoluteSum(row, count: count)
            if sum < bestSum { bestSum = sum; best = type }
        }
        out.update(from: scratch + best * count, count: count)
        return UInt8(best)
    }

    /// Σ |b| with each byte read as a signed 8-bit value.
    @inline(never)
    static func signedAbsoluteSum(_ p: UnsafePointer<UInt8>, count: Int) -> Int {
        var sum = 0
        var i = 0
        while i < count {
            let v = Int(p[i])
            sum &+= v < 128 ? v : 256 - v
            i += 1
        }
        return sum
    }

    /// One row through one filter type. `prev` is the unfiltered row above (zeros for row 0).
    @inline(never)
    static func filterRow(type: Int, cur: UnsafePointer<UInt8>, prev: UnsafePointer<UInt8>, count: Int, unit: Int,
                          out: UnsafeMutablePointer<UInt8>) {
        let head = min(unit, count)
        switch type {
        case 1:
            var i = 0
            while i < head { out[i] = cur[i]; i += 1 }
            while i < count { out[i] = cur[i] &- cur[i - unit]; i += 1 }
        case 2:
            var i = 0
            while i < count { out[i] = cur[i] &- prev[i]; i += 1 }
        case 3:
            var i = 0
            while i < head { out[i] = cur[i] &- (prev[i] >> 1); i += 1 }
            while i < count {
                let avg = (UInt16(cur[i - unit]) + UInt16(prev[i])) >> 1
                out[i] = cur[i] &- UInt8(truncatingIfNeeded: avg)
                i += 1
            }
        case 4:
            var i = 0
            // With no left neighbour the Paeth predictor is the byte above.
            while i < head { out[i] = cur[i] &- prev[i]; i += 1 }
            while i < count {
                let a = Int(cur[i - unit]), b = Int(prev[i]), c = Int(prev[i - unit])
                let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                let pred = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                out[i] = cur[i] &- UInt8(truncatingIfNeeded: pred)
                i += 1
            }
        default:
            out.update(from: cur, count: count)
        }
    }
}
