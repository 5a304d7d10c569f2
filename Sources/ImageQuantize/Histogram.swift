import ImageCore

/// Counts of the RGBA colours of any number of frames, so that one palette can serve a whole
/// animation. Fully transparent pixels all count as one colour, (0,0,0,0).
///
/// While there are at most `groupingLimit` visible colours (every colour a palette of 256 or
/// fewer entries can keep, and the most median cut takes as points one by one), each is counted
/// exactly: open addressing with linear probing on the colour packed in memory order
/// (`r | g<<8 | b<<16 | a<<24`), runs of equal pixels counted before they are hashed. Past
/// that, the colours go into `ColorGroups` (merged by their high bits, exact sums kept), which
/// is what a palette would have made of them: from then on the histogram is no longer exact
/// (`isExact`), its table stays in the processor's caches, and its memory stays within
/// `maxBytes` however many colours come.
public struct Histogram: Sendable {
    /// One slot per `UInt64`: colour in the low 32 bits, count in the high 32 bits, so a probe
    /// touches one cache line; 0 is an empty slot (a stored colour always has a count ≥ 1).
    var slots: [UInt64]
    /// Number of occupied slots.
    var used = 0
    /// Hash shift: capacity is `1 << (32 - shift)`.
    var shift: UInt32
    /// The visible colours, grouped, once there are more than `groupingLimit` (nil before).
    var groups: ColorGroups?
    /// Once grouped: pixels by alpha value (transparent ones at 0).
    var alphaCounts: [UInt64] = []
    /// Pixels added, over all frames.
    public internal(set) var pixelCount = 0

    /// The most visible colours counted one by one: median cut's point limit.
    static let groupingLimit = PaletteBuilder.defaultPointLimit

    /// Bytes a histogram holds at most, however many colours it counts: its exact table at the
    /// grouping limit (grown four-fold at half load: 65,536 slots) beside the one before it,
    /// then the colours handed to the groups, and the groups (with the copy they make while
    /// growing coarser): about 2.5 MB.
    public static let maxBytes: Int = {
        let slots = exactSlots(groupingLimit)
        return slots * 8 + slots / 4 * 8 + (groupingLimit + 2) * 8 + ColorGroups.maxBytes(limit: groupingLimit)
    }()

    /// The table size an exact histogram of `colors` colours grows to (four-fold at half load, from 4,096).
    static func exactSlots(_ colors: Int) -> Int {
        var slots = 1 << 12
        while colors + 2 > slots / 2 { slots *= 4 }
        return slots
    }

    /// An empty histogram.
    public init() {
        let bits: UInt32 = 12
        shift = 32 - bits
        slots = [UInt64](repeating: 0, count: 1 << bits)
    }

    /// Distinct colours counted so far while `isExact`; once grouped, the number of groups (plus
    /// one when transparent pixels were counted), fewer than the colours.
    public var distinctColors: Int {
        if let g = groups { return g.count + (alphaCounts[0] > 0 ? 1 : 0) }
        return used
    }

    /// True while every colour is counted on its own (at most `groupingLimit` visible colours).
    public var isExact: Bool { groups == nil }

    var capacity: Int { slots.count }

    /// Bytes the histogram holds now (its table, or its groups and alpha counts).
    var heldBytes: Int { slots.count * 8 + alphaCounts.count * 8 + (groups?.heldBytes ?? 0) }

    /// Counts every pixel of `image`.
    public mutating func add(_ image: Image) {
        let n = image.width * image.height
        guard n > 0 else { return }
        pixelCount += n
        image.pixels.withUnsafeBytes { raw in
            insert(raw.bindMemory(to: UInt32.self).baseAddress!, from: 0, end: n)
        }
    }

    /// Counts `px[from ..< end]` once each: exactly while it can, then in groups.
    mutating func insert(_ px: UnsafePointer<UInt32>, from: Int, end: Int) {
        var start = from
        while start < end {
            if groups != nil {
                alphaCounts.withUnsafeMutableBufferPointer { a in
                    groups!.addRuns(px, from: start, end: end, alpha: a.baseAddress!)
                }
                return
            }
            let hasTransparent = transparentCount > 0
            // Stops once one more visible colour than the grouping limit is in (or the table is half full).
            let limit = min(capacity / 2, Histogram.groupingLimit + 1 + (hasTransparent ? 1 : 0))
            let sh = shift
            var u = used
            start = slots.withUnsafeMutableBufferPointer { t in
                Histogram.insertRuns(px, from: start, count: end, slots: t.baseAddress!,
                                     slotMask: t.count - 1, shift: sh, used: &u, limit: limit)
            }
            used = u
            guard used >= limit else { continue }
            if used - (transparentCount > 0 ? 1 : 0) > Histogram.groupingLimit {
                startGroups()
            } else if used >= capacity / 2 {
                rehash(capacity * 4)
            }
        }
    }

    /// Hands the exact colours to `groups` and frees the table.
    mutating func startGroups() {
        let (colors, counts) = entries()
        alphaCounts = pixelsByAlpha
        slots = []
        used = 0
        groups = ColorGroups(colors: colors, counts: counts, limit: Histogram.groupingLimit)
    }

    /// Pixels counted by alpha value (256 counts; fully transparent ones at 0).
    var pixelsByAlpha: [UInt64] {
        if groups != nil { return alphaCounts }
        var alpha = [UInt64](repeating: 0, count: 256)
        for v in slots where v != 0 { alpha[Int(UInt32(truncatingIfNeeded: v) >> 24)] += v >> 32 }
        return alpha
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
                _ = insertRuns(raw.bindMemory(to: UInt32.self).baseAddress!, from: 0, count: n,
                               slots: t.baseAddress!, slotMask: t.count - 1, shift: 32 - bits, used: &used, limit: stop)
            }
        }
        return used <= limit
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
    static func insertRuns(_ px: UnsafePointer<UInt32>, from: Int, count n: Int, slots: UnsafeMutablePointer<UInt64>, slotMask: Int, shift: UInt32,
                           used: inout Int, limit: Int) -> Int {
        var i = from
        var u = used
        while i < n {
            let raw = px[i]
            var j = i &+ 1
            while j < n && px[j] == raw { j &+= 1 }
            let run = UInt32(truncatingIfNeeded: min(j &- i, Int(UInt32.max)))
            let v = UInt32(littleEndian: raw)
            let key: UInt32 = v >> 24 == 0 ? 0 : v
            if insert(key, run, slots, slotMask, shift) { u &+= 1 }
            i = j
            if u >= limit { break }
        }
        used = u
        return i
    }

    /// Reinserts every colour into a table of `newCapacity` slots (a power of two).
    mutating func rehash(_ newCapacity: Int) {
        var bits: UInt32 = 0
        while (1 << bits) < newCapacity { bits += 1 }
        let old = slots
        slots = [UInt64](repeating: 0, count: 1 << bits)
        shift = 32 - bits
        let sh = shift
        slots.withUnsafeMutableBufferPointer { t in
            let sm = t.count - 1
            for v in old where v != 0 {
                _ = Histogram.insert(UInt32(truncatingIfNeeded: v), UInt32(truncatingIfNeeded: v >> 32), t.baseAddress!, sm, sh)
            }
        }
    }

    /// Every counted colour with its count, in table order (deterministic for a given input);
    /// empty once grouped.
    func entries() -> (colors: [UInt32], counts: [UInt32]) {
        var cs = [UInt32](), ns = [UInt32]()
        cs.reserveCapacity(used); ns.reserveCapacity(used)
        for v in slots where v != 0 {
            cs.append(UInt32(truncatingIfNeeded: v)); ns.append(UInt32(truncatingIfNeeded: v >> 32))
        }
        return (cs, ns)
    }

    /// How many fully transparent pixels were counted (at most `UInt32.max` while exact).
    var transparentCount: UInt64 {
        if groups != nil { return alphaCounts[0] }
        guard !slots.isEmpty else { return 0 }
        var s = Histogram.slot(0, shift)
        while slots[s] != 0 {
            if UInt32(truncatingIfNeeded: slots[s]) == 0 { return slots[s] >> 32 }
            s = (s + 1) & (slots.count - 1)
        }
        return 0
    }
}
