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
            if stride == 4 || stride == 3 {
                paethVector(row: row, prior: prior, count: count, stride: stride)
                return true
            }
            if stride == 8 || stride == 6 {
                paethWide(row: row, prior: prior, count: count, stride: stride)
                return true
            }
            paethBytes(row: row, prior: prior, from: 0, count: count, stride: stride)
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

    /// Paeth for 3- and 4-byte pixels (RGB8, RGBA8: the common cases), a pixel at a time with
    /// its channels in the lanes of one vector and the choice made by lane masks, not branches
    /// (which mispredict on photos and gradients). Each pixel depends on the one to its left, so
    /// this is as parallel as Paeth gets. The same bytes as `paethPredictor` per byte.
    static func paethVector(row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, stride: Int) {
        guard count >= stride else { return }
        @inline(__always) func load(_ p: UnsafePointer<UInt8>) -> SIMD4<Int16> {
            SIMD4(Int16(p[0]), Int16(p[1]), Int16(p[2]), stride == 4 ? Int16(p[3]) : 0)
        }
        // The first pixel has no left neighbour: Paeth of (0, up, 0) is up.
        var a = (load(row) &+ load(prior)) & 0xFF
        var c = load(prior)
        store(a, row, stride)
        var i = stride
        while i + stride <= count {
            let b = load(prior + i)
            let pa = magnitude(b &- c), pb = magnitude(a &- c), pc = magnitude(a &+ b &- c &- c)
            var predictor = c.replacing(with: b, where: pb .<= pc)
            predictor.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
            a = (load(UnsafePointer(row + i)) &+ predictor) & 0xFF
            store(a, row + i, stride)
            c = b
            i += stride
        }
    }

    /// Paeth for 6- and 8-byte pixels (RGB16, RGBA16) as `paethVector` does it, the pixel's
    /// bytes in the lanes of one 8-lane vector loaded whole (16-bit samples are unfiltered byte
    /// by byte too); the bytes a last 6-byte pixel leaves short of a whole load go through the
    /// byte loop. Before, these strides all did: a 10000² interlaced RGBA16 image of Paeth rows
    /// (`scripts/check-bombs`) spent 38 % of its icon set's CPU there.
    static func paethWide(row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, stride: Int) {
        @inline(__always) func load(_ p: UnsafeRawPointer) -> SIMD8<Int16> {
            SIMD8<Int16>(truncatingIfNeeded: p.loadUnaligned(as: SIMD8<UInt8>.self))
        }
        // Lane masks by sign shifts (all ones where negative): the comparison operators on
        // 8-lane vectors compiled to a loop over the lanes, three times slower than bytes.
        @inline(__always) func negative(_ v: SIMD8<Int16>) -> SIMD8<Int16> { v &>> 15 }
        @inline(__always) func magnitude(_ v: SIMD8<Int16>) -> SIMD8<Int16> { (v ^ negative(v)) &- negative(v) }
        @inline(__always) func store(_ v: SIMD8<Int16>, _ p: UnsafeMutablePointer<UInt8>) {
            let bytes = SIMD8<UInt8>(truncatingIfNeeded: v)
            if stride == 8 {
                UnsafeMutableRawPointer(p).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
            } else {
                UnsafeMutableRawPointer(p).storeBytes(of: bytes.lowHalf, as: SIMD4<UInt8>.self)
                p[4] = bytes[4]
                p[5] = bytes[5]
            }
        }
        var i = 0
        if count >= 8 {
            // The first pixel has no left neighbour: Paeth of (0, up, 0) is up.
            var a = (load(row) &+ load(prior)) & 0xFF
            var c = load(prior)
            store(a, row)
            i = stride
            while i + 8 <= count {
                let b = load(prior + i)
                let pa = magnitude(b &- c), pb = magnitude(a &- c), pc = magnitude(a &+ b &- c &- c)
                // c where pc < pb, else b; then a where pa <= pb and pa <= pc.
                let takesC = negative(pc &- pb)
                let takesA = ~negative((pb &- pa) | (pc &- pa))
                let predictor = (a & takesA) | (((c & takesC) | (b & ~takesC)) & ~takesA)
                a = (load(row + i) &+ predictor) & 0xFF
                store(a, row + i)
                c = b
                i += stride
            }
        }
        paethBytes(row: row, prior: prior, from: i, count: count, stride: stride)
    }

    /// Paeth byte by byte from byte `start` of the row (the bytes before it already unfiltered):
    /// the first pixel's bytes take up (no left neighbour), the others `paethPredictor`.
    private static func paethBytes(row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, from start: Int, count: Int,
                                   stride: Int) {
        var i = start
        while i < min(stride, count) {
            row[i] &+= prior[i]
            i += 1
        }
        while i < count {
            row[i] &+= paethPredictor(row[i - stride], prior[i], prior[i - stride])
            i += 1
        }
    }

    @inline(__always)
    private static func magnitude(_ v: SIMD4<Int16>) -> SIMD4<Int16> { v.replacing(with: 0 &- v, where: v .< 0) }

    @inline(__always)
    private static func store(_ v: SIMD4<Int16>, _ p: UnsafeMutablePointer<UInt8>, _ stride: Int) {
        p[0] = UInt8(truncatingIfNeeded: v[0])
        p[1] = UInt8(truncatingIfNeeded: v[1])
        p[2] = UInt8(truncatingIfNeeded: v[2])
        if stride == 4 { p[3] = UInt8(truncatingIfNeeded: v[3]) }
    }
}
