/// Reverses PNG's per-row filters in place. Pointer loops over one row at a time: the rows sit
/// back to back in the inflated buffer, each after its filter-type byte.
enum PNGUnfilter {
    /// Unfilters `row` (`count` bytes, the filter byte excluded) against `prior`, the already
    /// unfiltered previous row (all zeros for a pass's first row). `stride` is bytes per pixel,
    /// at least 1. Returns false for an unknown filter type.
    static func unfilterRow(type: UInt8, row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, stride: Int) -> Bool {
        switch type {
        case 0:
            return true
        case 1:
            var i = stride
            while i < count {
                row[i] &+= row[i - stride]
                i += 1
            }
        case 2:
            var i = 0
            while i < count {
                row[i] &+= prior[i]
                i += 1
            }
        case 3:
            var i = 0
            let head = min(stride, count)
            while i < head {
                row[i] &+= prior[i] >> 1
                i += 1
            }
            while i < count {
                row[i] &+= UInt8(truncatingIfNeeded: (UInt16(row[i - stride]) + UInt16(prior[i])) >> 1)
                i += 1
            }
        case 4:
            if stride == 4 {
                paeth4(row: row, prior: prior, count: count)
                return true
            }
            var i = 0
            let head = min(stride, count)
            while i < head {
                row[i] &+= prior[i]
                i += 1
            }
            while i < count {
                row[i] &+= paethPredictor(row[i - stride], prior[i], prior[i - stride])
                i += 1
            }
        default:
            return false
        }
        return true
    }

    /// The Paeth predictor: whichever of left, up, upper-left is closest to left + up − upper-left.
    @inline(__always)
    static func paethPredictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int16(a), ib = Int16(b), ic = Int16(c)
        let pa = abs(ib - ic)
        let pb = abs(ia - ic)
        let pc = abs(ia + ib - 2 * ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Paeth for 4-byte pixels (RGBA8, the common case), keeping the left and upper-left pixel
    /// in registers.
    static func paeth4(row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int) {
        guard count >= 4 else { return }
        var a0 = row[0] &+ prior[0], a1 = row[1] &+ prior[1], a2 = row[2] &+ prior[2], a3 = row[3] &+ prior[3]
        row[0] = a0; row[1] = a1; row[2] = a2; row[3] = a3
        var c0 = prior[0], c1 = prior[1], c2 = prior[2], c3 = prior[3]
        var i = 4
        while i + 4 <= count {
            let b0 = prior[i], b1 = prior[i + 1], b2 = prior[i + 2], b3 = prior[i + 3]
            a0 = row[i] &+ paethPredictor(a0, b0, c0)
            a1 = row[i + 1] &+ paethPredictor(a1, b1, c1)
            a2 = row[i + 2] &+ paethPredictor(a2, b2, c2)
            a3 = row[i + 3] &+ paethPredictor(a3, b3, c3)
            row[i] = a0; row[i + 1] = a1; row[i + 2] = a2; row[i + 3] = a3
            c0 = b0; c1 = b1; c2 = b2; c3 = b3
            i += 4
        }
    }
}
