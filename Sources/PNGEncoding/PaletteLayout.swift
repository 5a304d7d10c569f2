import Foundation
import ImageCore

/// How an indexed image's palette is written: only the entries in use, duplicates merged,
/// translucent entries (alpha < 255) first so that tRNS stops after the last of them, and the
/// smallest bit depth that holds them all.
struct PaletteLayout {
    /// The written palette, translucent entries first.
    let palette: [RGBA]
    /// Number of leading entries with alpha < 255: the length of tRNS.
    let translucentCount: Int
    /// Old index → written index, for all 256 possible old indices.
    let remap: [UInt8]
    /// True when every old index in use is written as itself (the usual case: a palette already
    /// in written order with every entry in use), so indices can be copied, not looked up.
    let keepsIndices: Bool
    /// 1, 2, 4 or 8.
    let bitDepth: Int
    /// A written entry with alpha 0, if any.
    let transparentIndex: UInt8?

    /// `used[i]` says whether old index `i` occurs. Indices past `palette` stand for transparent
    /// black, so malformed input still encodes. With `reserveTransparent`, an entry with alpha 0
    /// is added when none is used, as long as that keeps the bit depth (APNG needs one to blend
    /// unchanged pixels OVER the previous frame).
    init(palette source: [RGBA], used: [Bool], reserveTransparent: Bool = false) {
        // Groups in written order: alpha 0, other translucent, opaque. Fully transparent entries
        // lead so that index 0 is transparent whenever the image has transparency, which is what
        // lenient readers assume when they clear a disposed APNG region.
        var groups: [[RGBA]] = [[], [], []]
        var slotOfColor: [UInt32: (group: Int, position: Int)] = [:]
        var slotOfOld = [(group: Int, position: Int)](repeating: (0, 0), count: 256)
        for old in 0..<256 where used[old] {
            let c = old < source.count ? source[old] : RGBA(0, 0, 0, 0)
            if let slot = slotOfColor[c.packed] {
                slotOfOld[old] = slot
            } else {
                let g = c.a == 0 ? 0 : c.a < 255 ? 1 : 2
                let slot = (group: g, position: groups[g].count)
                groups[g].append(c)
                slotOfColor[c.packed] = slot
                slotOfOld[old] = slot
            }
        }
        let total = groups[0].count + groups[1].count + groups[2].count
        if reserveTransparent, groups[0].isEmpty, total < 256,
           PaletteLayout.bitDepth(forEntries: total + 1) == PaletteLayout.bitDepth(forEntries: max(total, 1)) {
            groups[0].append(RGBA(0, 0, 0, 0))
        }
        let base = [0, groups[0].count, groups[0].count + groups[1].count]
        var remap = [UInt8](repeating: 0, count: 256)
        for old in 0..<256 where used[old] {
            remap[old] = UInt8(base[slotOfOld[old].group] + slotOfOld[old].position)
        }
        self.palette = groups[0] + groups[1] + groups[2]
        self.translucentCount = groups[0].count + groups[1].count
        self.remap = remap
        keepsIndices = (0..<256).allSatisfy { !used[$0] || Int(remap[$0]) == $0 }
        self.bitDepth = PaletteLayout.bitDepth(forEntries: max(palette.count, 1))
        self.transparentIndex = groups[0].isEmpty ? nil : 0
    }

    /// When every entry is an opaque gray on the ramp of some bit depth no larger than
    /// `bitDepth` (at depth d the levels are multiples of 255 / (2^d − 1)), that depth and each
    /// written index's gray level: the image can then be written as gray without PLTE.
    var grayForm: (depth: Int, levels: [UInt8])? {
        guard translucentCount == 0, !palette.isEmpty, palette.allSatisfy({ $0.r == $0.g && $0.g == $0.b }) else { return nil }
        for depth in [1, 2, 4, 8] where depth <= bitDepth {
            let step = 255 / ((1 << depth) - 1)
            if palette.allSatisfy({ Int($0.r) % step == 0 }) {
                return (depth, palette.map { UInt8(Int($0.r) / step) })
            }
        }
        return nil
    }

    /// IHDR of a `width × height` image written with this palette.
    func header(width: Int, height: Int) -> PNGHeader {
        PNGHeader(width: width, height: height, bitDepth: bitDepth, colorType: .palette)
    }

    static func bitDepth(forEntries n: Int) -> Int {
        n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8
    }

    /// PLTE data: RGB triples. An image with no pixels still gets one entry (PLTE may not be empty).
    var plte: [UInt8] {
        if palette.isEmpty { return [0, 0, 0] }
        var d: [UInt8] = []
        d.reserveCapacity(palette.count * 3)
        for c in palette { d += [c.r, c.g, c.b] }
        return d
    }

    /// tRNS data: the alphas of the leading translucent entries; empty when all are opaque.
    var trns: [UInt8] { palette.prefix(translucentCount).map(\.a) }

    /// Marks the indices that occur in `indices`.
    static func markUsed(_ indices: [UInt8], in used: inout [Bool]) {
        var seen = [UInt8](repeating: 0, count: 256)
        indices.withUnsafeBufferPointer { idx in
            seen.withUnsafeMutableBufferPointer { c in
                mark(idx.baseAddress, count: idx.count, into: c.baseAddress!)
            }
        }
        for i in 0..<256 where seen[i] != 0 { used[i] = true }
    }

    /// Marks the indices that occur in `frames` (rows of `rowBytes`): after the first frame, only
    /// rows that differ from the frame before are scanned (a screen recording changes a few rows
    /// per frame; memcmp settles the others at a fraction of a pass of `mark`).
    static func markUsed(_ frames: [[UInt8]], rowBytes: Int, in used: inout [Bool]) {
        guard let first = frames.first else { return }
        markUsed(first, in: &used)
        guard rowBytes > 0 else { return }
        var seen = [UInt8](repeating: 0, count: 256)
        seen.withUnsafeMutableBufferPointer { c in
            for i in frames.indices.dropFirst() {
                frames[i].withUnsafeBufferPointer { cur in
                    frames[i - 1].withUnsafeBufferPointer { prev in
                        markChangedRows(cur.baseAddress, prev.baseAddress, count: min(cur.count, prev.count),
                                        rowBytes: rowBytes, into: c.baseAddress!)
                    }
                }
            }
        }
        for i in 0..<256 where seen[i] != 0 { used[i] = true }
    }

    @inline(never)
    private static func markChangedRows(_ cur: UnsafePointer<UInt8>?, _ prev: UnsafePointer<UInt8>?, count: Int, rowBytes: Int,
                                        into c: UnsafeMutablePointer<UInt8>) {
        guard let cur, let prev else { return }
        var start = 0
        while start < count {
            let n = min(rowBytes, count - start)
            if memcmp(cur + start, prev + start, n) != 0 { mark(cur + start, count: n, into: c) }
            start += n
        }
    }

    /// Stores only, no read-modify-write: a counting histogram stalls on runs of one index (each
    /// increment waits for the previous store), and this ran on every frame of an animation.
    @inline(never)
    private static func mark(_ p: UnsafePointer<UInt8>?, count: Int, into c: UnsafeMutablePointer<UInt8>) {
        guard let p else { return }
        var i = 0
        while i < count { c[Int(p[i])] = 1; i &+= 1 }
    }

    /// `indices` through `remap`.
    func remapped(_ indices: [UInt8]) -> [UInt8] { PaletteLayout.mapped(indices, through: remap) }

    /// `indices` through a 256-entry table.
    static func mapped(_ indices: [UInt8], through table: [UInt8]) -> [UInt8] {
        precondition(table.count == 256)
        var out = [UInt8](repeating: 0, count: indices.count)
        table.withUnsafeBufferPointer { m in
            indices.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { o in
                    lookup(s.baseAddress, count: s.count, table: m.baseAddress!, into: o.baseAddress)
                }
            }
        }
        return out
    }

    @inline(never)
    private static func lookup(_ s: UnsafePointer<UInt8>?, count: Int, table: UnsafePointer<UInt8>, into o: UnsafeMutablePointer<UInt8>?) {
        guard let s, let o else { return }
        var i = 0
        while i < count { o[i] = table[Int(s[i])]; i &+= 1 }
    }
}
