import ImageCore

/// Counts of the exact RGBA colours of any number of frames, so that one palette can serve a
/// whole animation. Fully transparent pixels all count as one colour, (0,0,0,0).
///
/// The table is open addressing with linear probing on the colour packed in memory order
/// (`r | g<<8 | b<<16 | a<<24`); runs of equal pixels are counted before they are hashed. When
/// more than `maxDistinctColors` colours appear, the low bits of R, G and B are dropped (one more
/// bit each time) and colours that then coincide are merged, counts kept; the histogram is then
/// no longer exact (`droppedBits > 0`).
public struct Histogram: Sendable {
    /// One slot per `UInt64`: colour in the low 32 bits, count in the high 32 bits, so a probe
    /// touches one cache line; 0 is an empty slot (a stored colour always has a count ≥ 1).
    var slots: [UInt64]
    /// Number of occupied slots.
    var used = 0
    /// Hash shift: capacity is `1 << (32 - shift)`.
    var shift: UInt32
    /// Low bits dropped from R, G and B (0 = exact colours).
    private(set) var droppedBits = 0
    let maxDistinct: Int
    /// Pixels added, over all frames.
    public internal(set) var pixelCount = 0

    /// The most colours a histogram keeps exactly unless told otherwise.
    public static let defaultMaxDistinctColors = 1 << 20
    /// Bytes a histogram may hold per colour it keeps, at worst: its table grows to at most
    /// four 8-byte slots per colour, and while it grows the table before it (a quarter of
    /// that) is still there: 40 bytes a colour (42 MB at the default million colours).
    public static let bytesPerDistinctColor = 40

    /// An empty histogram. `maxDistinctColors` bounds memory on pathological inputs (at least 4096).
    public init(maxDistinctColors: Int = Histogram.defaultMaxDistinctColors) {
        maxDistinct = max(4096, maxDistinctColors)
        let bits: UInt32 = 12
        shift = 32 - bits
        slots = [UInt64](repeating: 0, count: 1 << bits)
    }

    /// Distinct colours counted so far.
    public var distinctColors: Int { used }

    /// True while every colour is kept exactly (no bits dropped).
    public var isExact: Bool { droppedBits == 0 }

    var capacity: Int { slots.count }

    /// Counts every pixel of `image`.
    public mutating func add(_ image: Image) {
        let n = image.width * image.height
        guard n > 0 else { return }
        pixelCount += n
        image.pixels.withUnsafeBytes { raw in
            let px = raw.bindMemory(to: UInt32.self)
            var start = 0
            while start < n {
                let limit = min(capacity / 2, maxDistinct)
                let mask = Histogram.colorMask(droppedBits)
                let sh = shift
                var u = used
                start = slots.withUnsafeMutableBufferPointer { t in
                    Histogram.insertRuns(px.baseAddress!, from: start, count: n, mask: mask, slots: t.baseAddress!,
                                         slotMask: t.count - 1, shift: sh, used: &u, limit: limit)
                }
                used = u
                if used >= limit {
                    if used >= maxDistinct { dropOneBit() } else { rehash(capacity * 4) }
                }
            }
        }
    }

    /// Whether `image` has at most `limit` distinct colours as a histogram counts them (every
    /// fully transparent pixel as (0,0,0,0)), stopping at the first colour past `limit`.
    static func hasAtMostColors(_ limit: Int, in image: Image) -> Bool {
        let n = image.width * image.height
        guard n > 0 else { return true }
        var bits: UInt32 = 10
        while (1 << bits) < 4 * (limit + 1) { bits += 1 }
        var slots = [UInt64](repeating: 0, count: 1 << bits)
        let stop = max(0, limit) + 1
        var used = 0
        image.pixels.withUnsafeBytes { raw in
            slots.withUnsafeMutableBufferPointer { t in
                _ = insertRuns(raw.bindMemory(to: UInt32.self).baseAddress!, from: 0, count: n, mask: colorMask(0),
                               slots: t.baseAddress!, slotMask: t.count - 1, shift: 32 - bits, used: &used, limit: stop)
            }
        }
        return used <= limit
    }

    /// `(key & mask) | half` keeps the centre of the merged range as the representative.
    static func colorMask(_ bits: Int) -> (mask: UInt32, half: UInt32) {
        if bits == 0 { return (0xFFFF_FFFF, 0) }
        let low = UInt32((1 << bits) - 1)
        let lowAll = low | low << 8 | low << 16
        let h = UInt32(1 << (bits - 1))
        return (~lowAll, h | h << 8 | h << 16)
    }

    @inline(__always)
    static func slot(_ v: UInt32, _ shift: UInt32) -> Int {
        Int(truncatingIfNeeded: (v &* 0x9E37_79B1) >> shift)
    }

    /// Adds `count` to `key`'s slot (saturating); returns true when the key was new.
    @inline(__always)
    static func insert(_ key: UInt32, _ count: UInt32, _ slots: UnsafeMutablePointer<UInt64>, _ slotMask: Int,
                       _ shift: UInt32) -> Bool {
        var s = slot(key, shift)
        while true {
            let v = slots[s]
            if v == 0 {
                slots[s] = UInt64(count) << 32 | UInt64(key)
                return true
            }
            if UInt32(truncatingIfNeeded: v) == key {
                let (sum, o) = UInt32(truncatingIfNeeded: v >> 32).addingReportingOverflow(count)
                slots[s] = UInt64(o ? .max : sum) << 32 | UInt64(key)
                return false
            }
            s = (s &+ 1) & slotMask
        }
    }

    /// The hot loop: counts runs of equal pixels from `from`, returns where it stopped (at `count`,
    /// or earlier once `used` reaches `limit`).
    static func insertRuns(_ px: UnsafePointer<UInt32>, from: Int, count n: Int, mask: (mask: UInt32, half: UInt32),
                           slots: UnsafeMutablePointer<UInt64>, slotMask: Int, shift: UInt32,
                           used: inout Int, limit: Int) -> Int {
        var i = from
        var u = used
        while i < n {
            let raw = px[i]
            var j = i &+ 1
            while j < n && px[j] == raw { j &+= 1 }
            let run = UInt32(truncatingIfNeeded: min(j &- i, Int(UInt32.max)))
            let v = UInt32(littleEndian: raw)
            let key: UInt32 = v >> 24 == 0 ? 0 : (v & mask.mask) | mask.half
            if insert(key, run, slots, slotMask, shift) { u &+= 1 }
            i = j
            if u >= limit { break }
        }
        used = u
        return i
    }

    /// Reinserts every colour into a table of `newCapacity` slots (a power of two), merging
    /// colours that coincide under the current bit mask. At the same capacity (`dropOneBit`)
    /// the table is cleared and refilled in place from a copy of its occupied slots, in table
    /// order: the same table as a fresh one, without faulting in another whole table (32 MB
    /// at a million colours) for a copy of used × 8 bytes.
    mutating func rehash(_ newCapacity: Int) {
        var bits: UInt32 = 0
        while (1 << bits) < newCapacity { bits += 1 }
        let old: [UInt64]
        if 1 << bits == slots.count {
            var kept = [UInt64]()
            kept.reserveCapacity(used)
            for v in slots where v != 0 { kept.append(v) }
            old = kept
            slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        } else {
            old = slots
            slots = [UInt64](repeating: 0, count: 1 << bits)
        }
        shift = 32 - bits
        let mask = Histogram.colorMask(droppedBits)
        let sh = shift
        var u = 0
        slots.withUnsafeMutableBufferPointer { t in
            let sm = t.count - 1
            for v in old where v != 0 {
                var key = UInt32(truncatingIfNeeded: v)
                if key >> 24 != 0 { key = (key & mask.mask) | mask.half }
                if Histogram.insert(key, UInt32(truncatingIfNeeded: v >> 32), t.baseAddress!, sm, sh) { u += 1 }
            }
        }
        used = u
    }

    /// Too many colours: merges colours that differ only in one more low bit of R, G and B.
    mutating func dropOneBit() {
        guard droppedBits < 7 else { rehash(capacity * 2); return }
        droppedBits += 1
        rehash(capacity)
        if used >= capacity / 2 { rehash(capacity * 2) }
    }

    /// Every counted colour with its count, in table order (deterministic for a given input).
    func entries() -> (colors: [UInt32], counts: [UInt32]) {
        var cs = [UInt32](), ns = [UInt32]()
        cs.reserveCapacity(used); ns.reserveCapacity(used)
        for v in slots where v != 0 {
            cs.append(UInt32(truncatingIfNeeded: v)); ns.append(UInt32(truncatingIfNeeded: v >> 32))
        }
        return (cs, ns)
    }

    /// How many fully transparent pixels were counted.
    var transparentCount: UInt32 {
        var s = Histogram.slot(0, shift)
        while slots[s] != 0 {
            if UInt32(truncatingIfNeeded: slots[s]) == 0 { return UInt32(truncatingIfNeeded: slots[s] >> 32) }
            s = (s + 1) & (slots.count - 1)
        }
        return 0
    }
}
