/// Visible colours merged by their high bits into at most `limit` groups, each group's pixels
/// summed exactly: what median cut and k-means work on once there are more colours than they
/// can take as points (`PaletteBuilder.defaultPointLimit`).
///
/// The groups are those of the fewest dropped low bits (from one: one low bit of R, G and B,
/// alpha one bit behind) that leaves at most `limit` of them, in the order of their first
/// colour. A histogram switches to groups as soon as its visible colours pass the limit
/// (`Histogram`): from then on each pixel adds to its group, whose table stays within the
/// processor's caches, where a table of every exact colour (a million on a video, 32 MB)
/// misses on most pixels. Groups are made coarser (one more bit) the moment a new one would
/// pass the limit, so the groups counted pixel by pixel are the groups of all the colours
/// merged at the end: more colours only ever add groups.
///
/// A group's point is the weighted mean of its pixels in `ErrorSpace`, from integer sums
/// (premultiplied channels and alpha, times the pixel count), so it depends on the pixels
/// alone, not on the order they were counted in.
struct ColorGroups: Sendable {
    let limit: Int
    /// Low bits dropped from R, G and B (alpha one fewer).
    private(set) var bits: Int
    /// Group key, and group index + 1 in the high 32 bits; 0 is an empty slot.
    private var slots: [UInt64]
    private var shift: UInt32
    /// Per group (the first `count` entries of `limit`), in the order of their first colour:
    /// the key, the sums of R·A, G·A, B·A and A over its pixels, and the pixel count.
    private var keys: [UInt32]
    private var sums: [SIMD4<UInt64>]
    private var weights: [UInt64]
    /// Number of groups.
    private(set) var count = 0

    /// Bytes the groups hold (outside `coarsen`).
    var heldBytes: Int { slots.count * 8 + limit * (4 + 32 + 8) }

    /// Bytes the groups hold at most: their table (two slots a group), the per-group arrays,
    /// and while they are made coarser a copy of the arrays.
    static func maxBytes(limit: Int) -> Int {
        tableSlots(limit) * 8 + 2 * limit * (4 + 32 + 8)
    }

    static func tableSlots(_ limit: Int) -> Int {
        var slots = 1
        while slots < 2 * limit { slots <<= 1 }
        return slots
    }

    /// The key mask that drops `bits` low bits of R, G and B and `bits − 1` of alpha.
    static func mask(bits: Int) -> UInt32 {
        let rgbLow = UInt32((1 << bits) - 1)
        let aLow = UInt32((1 << max(bits - 1, 0)) - 1)
        return ~(rgbLow | rgbLow << 8 | rgbLow << 16 | aLow << 24)
    }

    /// The visible colours of `colors` (memory order; 0, fully transparent, is left out) with
    /// their `counts`, grouped at the fewest dropped bits (at least one) that leaves at most
    /// `limit` groups.
    init(colors: [UInt32], counts: [UInt32], limit: Int) {
        self.limit = max(2, limit)
        bits = 1
        let slotCount = ColorGroups.tableSlots(self.limit)
        slots = [UInt64](repeating: 0, count: slotCount)
        shift = 32
        while (1 << (32 - shift)) < slotCount { shift -= 1 }
        keys = [UInt32](repeating: 0, count: self.limit)
        sums = [SIMD4<UInt64>](repeating: .zero, count: self.limit)
        weights = [UInt64](repeating: 0, count: self.limit)
        while !fill(colors, counts) { bits += 1 }
    }

    /// Groups `colors` at the current `bits` from empty; false (the groups left partial) when
    /// they would pass the limit.
    private mutating func fill(_ colors: [UInt32], _ counts: [UInt32]) -> Bool {
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        count = 0
        return withSink { sink in
            for i in 0..<colors.count where colors[i] != 0 {
                guard sink.add(colors[i], UInt64(counts[i])) else { return false }
            }
            return true
        }
    }

    /// The premultiplied sums of one pixel of colour `v` (memory order).
    @inline(__always)
    static func terms(_ v: UInt32) -> SIMD4<UInt64> {
        let a = UInt64(v >> 24)
        return SIMD4<UInt64>(UInt64(v & 0xFF) &* a, UInt64((v >> 8) & 0xFF) &* a, UInt64((v >> 16) & 0xFF) &* a, a)
    }

    /// The group key of visible colour `v` under `mask`.
    @inline(__always)
    static func key(_ v: UInt32, _ mask: UInt32) -> UInt32 {
        let k = v & mask
        return k == 0 ? 0xFFFF_FFFF : k
    }

    /// The groups as raw pointers, for the counting loops (valid inside `withSink` only).
    struct Sink {
        let table: UnsafeMutablePointer<UInt64>
        let slotMask: Int
        let shift: UInt32
        let mask: UInt32
        let keys: UnsafeMutablePointer<UInt32>
        let sums: UnsafeMutablePointer<SIMD4<UInt64>>
        let weights: UnsafeMutablePointer<UInt64>
        let limit: Int
        var count: Int

        /// Adds `weight` pixels of visible colour `v`; false (nothing added) when that needs a
        /// group past the limit.
        @inline(__always)
        mutating func add(_ v: UInt32, _ weight: UInt64) -> Bool {
            add(key: ColorGroups.key(v, mask), sums: ColorGroups.terms(v) &* weight, weight: weight)
        }

        /// Adds `sums` and `weight` to the group of `key`, made when new; false (nothing added)
        /// when that needs a group past the limit.
        @inline(__always)
        mutating func add(key: UInt32, sums more: SIMD4<UInt64>, weight: UInt64) -> Bool {
            var s = PaletteBuilder.groupSlot(key, shift)
            while true {
                let e = table[s]
                if e == 0 { break }
                if UInt32(truncatingIfNeeded: e) == key {
                    let g = Int(truncatingIfNeeded: e >> 32) &- 1
                    sums[g] &+= more
                    weights[g] &+= weight
                    return true
                }
                s = (s &+ 1) & slotMask
            }
            if count == limit { return false }
            table[s] = UInt64(count &+ 1) << 32 | UInt64(key)
            keys[count] = key
            sums[count] = more
            weights[count] = weight
            count &+= 1
            return true
        }
    }

    /// Runs `body` on the groups as a `Sink`, keeping the groups it adds.
    @inline(__always)
    mutating func withSink<R>(_ body: (inout Sink) -> R) -> R {
        let mask = ColorGroups.mask(bits: bits)
        let sh = shift, limit = self.limit
        var n = count
        let r = slots.withUnsafeMutableBufferPointer { sp in
            keys.withUnsafeMutableBufferPointer { kp in
                sums.withUnsafeMutableBufferPointer { su in
                    weights.withUnsafeMutableBufferPointer { wp in
                        var sink = Sink(table: sp.baseAddress!, slotMask: sp.count - 1, shift: sh, mask: mask,
                                        keys: kp.baseAddress!, sums: su.baseAddress!, weights: wp.baseAddress!,
                                        limit: limit, count: n)
                        let r = body(&sink)
                        n = sink.count
                        return r
                    }
                }
            }
        }
        count = n
        return r
    }

    /// One more bit dropped: groups whose keys then coincide are merged (sums added), in the
    /// order of their first colour.
    mutating func coarsen() {
        let n = count
        let oldKeys = Array(keys[0..<n]), oldSums = Array(sums[0..<n]), oldWeights = Array(weights[0..<n])
        bits += 1
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        count = 0
        withSink { sink in
            for g in 0..<n {
                // The old key is a colour of the group: under the coarser mask it gives the new key
                // (0xFFFF_FFFF stands for the masked key 0, never a real key: bit 0 is dropped).
                // Never more groups than before, so none is refused.
                let key = ColorGroups.key(oldKeys[g] == 0xFFFF_FFFF ? 0 : oldKeys[g], sink.mask)
                _ = sink.add(key: key, sums: oldSums[g], weight: oldWeights[g])
            }
        }
    }

    /// Counts the runs of equal pixels of `px[from ..< end]`: every pixel into `alpha` by its
    /// alpha value, the visible ones into their groups. Stops before a colour that needs a group
    /// past the limit and returns where it stopped (`end` when done).
    private mutating func addSomeRuns(_ px: UnsafePointer<UInt32>, from: Int, end: Int, alpha: UnsafeMutablePointer<UInt64>) -> Int {
        withSink { sink in
            var i = from
            while i < end {
                let raw = px[i]
                var j = i &+ 1
                while j < end && px[j] == raw { j &+= 1 }
                let w = UInt64(j &- i)
                let v = UInt32(littleEndian: raw)
                if v >> 24 != 0 && !sink.add(v, w) { return i }
                alpha[Int(v >> 24)] &+= w
                i = j
            }
            return end
        }
    }

    /// Counts the runs of equal pixels of `px[from ..< end]` (see `addSomeRuns`), making the
    /// groups coarser whenever a new one would pass the limit.
    mutating func addRuns(_ px: UnsafePointer<UInt32>, from: Int, end: Int, alpha: UnsafeMutablePointer<UInt64>) {
        var start = from
        while start < end {
            start = addSomeRuns(px, from: start, end: end, alpha: alpha)
            if start < end { coarsen() }
        }
    }

    /// Each group's weighted mean in `ErrorSpace` and its pixel count, in group order.
    func points() -> [WeightedPoint] {
        var out = [WeightedPoint]()
        out.reserveCapacity(count)
        let scale = Double(ErrorSpace.alphaScale)
        for g in 0..<count {
            let w = Double(weights[g])
            let s = sums[g]
            let a = Double(s.w)
            let x = SIMD4<Double>((Double(s.x) / 255 - a * 0.5) / w, (Double(s.y) / 255 - a * 0.5) / w,
                                  (Double(s.z) / 255 - a * 0.5) / w, a * scale / w)
            out.append(WeightedPoint(x: SIMD4<Float>(Float(x.x), Float(x.y), Float(x.z), Float(x.w)), w: Float(w)))
        }
        return out
    }
}
