import Foundation
import ImageCore

/// The canvas a decoder holds during an APNG encode, as comparison keys, and the frame being
/// laid out over it.
///
/// Most frames of a screen recording change a few rows, so nothing here passes over the whole
/// canvas per frame: a frame is compared with the one before it row by row on its source
/// samples (memcmp), only differing rows get keys (`target`), and those rows alone are copied into
/// the canvas when the frame is committed. The canvas after a disposal to BACKGROUND is never
/// built: inside the disposed rectangle it is `clearKey`, elsewhere it is `previous`.
struct APNGCanvas {
    let width: Int
    let height: Int
    let clearKey: UInt32
    /// Keys of the last frame loaded and committed: the canvas before its disposal.
    var previous: [UInt32]
    /// Keys of the frame being laid out, valid in rows whose `changed` flag is set; every other
    /// row equals `previous`.
    var target: [UInt32]
    /// 1 for each row where some key of the loaded frame differs from `previous`.
    var changed: [UInt8]
    /// First and last differing column of each changed row.
    var left: [Int]
    var right: [Int]

    init(width: Int, height: Int, clearKey: UInt32) {
        self.width = width
        self.height = height
        self.clearKey = clearKey
        previous = [UInt32](repeating: 0, count: width * height)
        target = [UInt32](repeating: 0, count: width * height)
        changed = [UInt8](repeating: 0, count: height)
        left = [Int](repeating: 0, count: height)
        right = [Int](repeating: 0, count: height)
    }

    /// Whether the loaded frame differs from the canvas anywhere.
    var anyChanged: Bool { changed.contains(1) }

    /// Copies the loaded frame's changed rows into the canvas: it becomes `previous`.
    mutating func commit() {
        if !changed.contains(0) {
            // Every row changed (video): `target` is the whole frame.
            swap(&previous, &target)
            for y in 0..<height { changed[y] = 0 }
            return
        }
        let w = width
        for y in 0..<height where changed[y] != 0 {
            target.withUnsafeBufferPointer { t in
                previous.withUnsafeMutableBufferPointer { p in
                    (p.baseAddress! + y * w).update(from: t.baseAddress! + y * w, count: w)
                }
            }
            changed[y] = 0
        }
    }

    /// The smallest rectangle holding every pixel where the loaded frame differs from the canvas
    /// left as it is (dispose NONE); nil when none does.
    func noneBounds() -> CanvasRect? {
        var top = -1, bottom = -1, l = width, r = -1
        for y in 0..<height where changed[y] != 0 {
            if top < 0 { top = y }
            bottom = y
            l = min(l, left[y])
            r = max(r, right[y])
        }
        return top < 0 ? nil : CanvasRect(x: l, y: top, width: r - l + 1, height: bottom - top + 1)
    }

    /// The same against the canvas with `disposed` cleared (dispose BACKGROUND): outside it the
    /// differing pixels are NONE's, inside it every pixel that is not clear.
    func backgroundBounds(disposed d: CanvasRect) -> CanvasRect? {
        var top = -1, bottom = -1, l = width, r = -1
        let dx0 = d.x, dx1 = d.x + d.width
        target.withUnsafeBufferPointer { tb in
            previous.withUnsafeBufferPointer { pb in
                for y in 0..<height {
                    let isChanged = changed[y] != 0
                    var rowLeft = width, rowRight = -1
                    if y < d.y || y >= d.y + d.height {
                        if isChanged { rowLeft = left[y]; rowRight = right[y] }
                    } else {
                        let p = pb.baseAddress! + y * width
                        let t = isChanged ? tb.baseAddress! + y * width : p
                        if isChanged && left[y] < dx0 {
                            rowLeft = left[y]
                        } else if let x = APNGCanvas.firstNot(clearKey, t + dx0, count: d.width) {
                            rowLeft = dx0 + x
                        } else if isChanged && right[y] >= dx1 {
                            rowLeft = dx1 + APNGCanvas.firstDiffering(t + dx1, p + dx1, count: width - dx1)!
                        }
                        if isChanged && right[y] >= dx1 {
                            rowRight = right[y]
                        } else if let x = APNGCanvas.lastNot(clearKey, t + dx0, count: d.width) {
                            rowRight = dx0 + x
                        } else if isChanged && left[y] < dx0 {
                            rowRight = APNGCanvas.lastDiffering(t, p, count: dx0)!
                        }
                    }
                    if rowRight >= 0 {
                        if top < 0 { top = y }
                        bottom = y
                        l = min(l, rowLeft)
                        r = max(r, rowRight)
                    }
                }
            }
        }
        return top < 0 ? nil : CanvasRect(x: l, y: top, width: r - l + 1, height: bottom - top + 1)
    }

    /// The loaded frame's keys inside `rect`, row by row.
    func crop(_ rect: CanvasRect) -> [UInt32] {
        let n = rect.width * rect.height
        return [UInt32](unsafeUninitializedCapacity: n) { ob, count in
            target.withUnsafeBufferPointer { tb in
                previous.withUnsafeBufferPointer { pb in
                    for row in 0..<rect.height {
                        let y = rect.y + row
                        let src = (changed[y] != 0 ? tb.baseAddress! : pb.baseAddress!) + y * width + rect.x
                        (ob.baseAddress! + row * rect.width).initialize(from: src, count: rect.width)
                    }
                }
            }
            count = n
        }
    }

    /// The loaded frame inside `rect` as an OVER frame: pixels equal to the canvas (after
    /// `disposed` is cleared, when given) become `keep`. Nil when a changed pixel is not opaque
    /// (`alpha` maps palette keys to alpha; nil means keys are RGBA bytes); otherwise the keys
    /// and how many pixels were kept.
    func cropOver(_ rect: CanvasRect, disposed: CanvasRect?, alpha: UnsafePointer<UInt8>?, keep: UInt32) -> (keys: [UInt32], kept: Int)? {
        // Every element is written unless a pixel is refused, and then the array is dropped.
        var out = [UInt32](unsafeUninitializedCapacity: rect.width * rect.height) { _, count in count = rect.width * rect.height }
        var kept = 0
        // The base inside the disposed rectangle: clear keys.
        let clearRow = disposed == nil ? [] : [UInt32](repeating: clearKey, count: width)
        let opaque = APNGCanvas.opaqueKeys(alpha)
        let ok = clearRow.withUnsafeBufferPointer { cb in target.withUnsafeBufferPointer { tb in
            previous.withUnsafeBufferPointer { pb in
                out.withUnsafeMutableBufferPointer { ob in
                    for row in 0..<rect.height {
                        let y = rect.y + row
                        let p = pb.baseAddress! + y * width
                        let t = changed[y] != 0 ? tb.baseAddress! + y * width : p
                        let o = ob.baseAddress! + row * rect.width - rect.x
                        // Spans of the row with one kind of base: the canvas, or clear inside the
                        // disposed rectangle.
                        var x = rect.x
                        let end = rect.x + rect.width
                        while x < end {
                            var spanEnd = end
                            var clear = false
                            if let d = disposed, y >= d.y, y < d.y + d.height {
                                if x < d.x { spanEnd = min(end, d.x) } else if x < d.x + d.width {
                                    spanEnd = min(end, d.x + d.width)
                                    clear = true
                                }
                            }
                            let base = clear ? cb.baseAddress! + x : p + x
                            let n = APNGCanvas.overSpan(t + x, base: base, count: spanEnd - x, alpha: alpha, opaque: opaque,
                                                        keep: keep, into: o + x)
                            if n < 0 { return false }
                            kept += n
                            x = spanEnd
                        }
                    }
                    return true
                }
            }
        } }
        return ok ? (out, kept) : nil
    }

    /// Loads a frame whose samples (`rowBytes` per row: palette indices through `table`, or
    /// RGBA keys when `table` is nil) follow those of `prev`, the frame the canvas holds;
    /// returns the number of rows whose keys differ.
    mutating func load(_ cur: UnsafeRawPointer, _ prev: UnsafeRawPointer, rowBytes: Int, table: UnsafePointer<UInt32>?,
                       damage: RowDamage? = nil) -> Int {
        let w = width, h = height
        // Rows the damage leaves out are equal to the frame before: not compared.
        let rowsToCompare: (Int, Int) = damage.map { ($0.firstRow, max($0.firstRow, $0.endRow)) } ?? (0, h)
        let rowFlags = damage.map { d in (0..<h).map { d.span($0) != nil } }
        return previous.withUnsafeBufferPointer { p in
            target.withUnsafeMutableBufferPointer { t in
                changed.withUnsafeMutableBufferPointer { c in
                    left.withUnsafeMutableBufferPointer { l in
                        right.withUnsafeMutableBufferPointer { r in
                            APNGCanvas.loadRows(cur, prev, rowBytes: rowBytes, width: w, height: h, table: table,
                                                previous: p.baseAddress!, target: t.baseAddress!, changed: c.baseAddress!,
                                                left: l.baseAddress!, right: r.baseAddress!, rows: rowsToCompare, only: rowFlags)
                        }
                    }
                }
            }
        }
    }

    // MARK: Kernels

    @inline(never)
    static func firstNot(_ key: UInt32, _ p: UnsafePointer<UInt32>, count: Int) -> Int? {
        var x = 0
        while x < count { if p[x] != key { return x }; x &+= 1 }
        return nil
    }

    @inline(never)
    static func lastNot(_ key: UInt32, _ p: UnsafePointer<UInt32>, count: Int) -> Int? {
        var x = count - 1
        while x >= 0 { if p[x] != key { return x }; x &-= 1 }
        return nil
    }

    @inline(never)
    static func firstDiffering(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, count: Int) -> Int? {
        var x = 0
        while x < count { if a[x] != b[x] { return x }; x &+= 1 }
        return nil
    }

    @inline(never)
    static func lastDiffering(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, count: Int) -> Int? {
        var x = count - 1
        while x >= 0 { if a[x] != b[x] { return x }; x &-= 1 }
        return nil
    }

    /// Writes `t`, or `keep` where it equals `base`; returns how many pixels were kept, or -1 when
    /// a changed pixel is not opaque. With `opaque`, the opaque keys are exactly those `k` with
    /// `k &- opaque.from < opaque.count` (wrapping): runs of 64 pixels are then written and
    /// checked without branches or table loads (the loop vectorises). Otherwise each changed
    /// pixel's alpha is read (`alpha`: palette key → alpha; nil: RGBA keys).
    @inline(never)
    static func overSpan(_ t: UnsafePointer<UInt32>, base: UnsafePointer<UInt32>, count: Int, alpha: UnsafePointer<UInt8>?,
                         opaque: (from: UInt32, count: UInt32)?, keep: UInt32, into o: UnsafeMutablePointer<UInt32>) -> Int {
        var kept = 0
        var x = 0
        if let opaque {
            while x < count {
                let end = min(count, x &+ 64)
                var n: UInt32 = 0
                var refused: UInt32 = 0
                while x < end {
                    let k = t[x]
                    let same: UInt32 = k == base[x] ? 1 : 0
                    o[x] = same != 0 ? keep : k
                    n &+= same
                    refused |= (k &- opaque.from >= opaque.count ? 1 : 0) & (same ^ 1)
                    x &+= 1
                }
                if refused != 0 { return -1 }
                kept &+= Int(n)
            }
            return kept
        }
        while x < count {
            let k = t[x]
            if k == base[x] {
                o[x] = keep
                kept &+= 1
            } else {
                if !isOpaque(k, alpha) { return -1 }
                o[x] = k
            }
            x &+= 1
        }
        return kept
    }

    @inline(__always)
    private static func isOpaque(_ k: UInt32, _ alpha: UnsafePointer<UInt8>?) -> Bool {
        if let alpha { return alpha[Int(k)] == 255 }
        return UInt8(truncatingIfNeeded: UInt32(littleEndian: k) >> 24) == 255
    }

    /// The keys `alpha` (258 palette keys → alpha; nil: RGBA keys, alpha in the last byte) calls
    /// opaque, as one wrapping range `k &- from < count`; nil when they are not one range (or
    /// RGBA keys on a big-endian machine).
    static func opaqueKeys(_ alpha: UnsafePointer<UInt8>?) -> (from: UInt32, count: UInt32)? {
        guard let alpha else {
            // Alpha is the key's most significant byte: opaque keys are 0xFF000000 and above.
            return UInt32(littleEndian: 1) == 1 ? (0xFF00_0000, 0x0100_0000) : nil
        }
        var first = -1, end = -1
        for k in 0..<258 where alpha[k] == 255 {
            if first < 0 { first = k } else if k != end { return nil }
            end = k + 1
        }
        return first < 0 ? (0, 0) : (UInt32(first), UInt32(end - first))
    }

    /// Compares the rows of a frame's samples with the previous frame's (`rowBytes` each; equal
    /// samples mean equal keys) and, in rows that differ, writes the frame's keys into `target`
    /// (`keyOf` 0: samples are palette indices through `table`; 1: samples are the RGBA keys)
    /// and the first and last column whose key differs from `previous`. Returns the number of
    /// rows whose keys differ.
    @inline(never)
    static func loadRows(_ cur: UnsafeRawPointer, _ prev: UnsafeRawPointer, rowBytes: Int, width: Int, height: Int,
                         table: UnsafePointer<UInt32>?, previous: UnsafePointer<UInt32>, target: UnsafeMutablePointer<UInt32>,
                         changed: UnsafeMutablePointer<UInt8>, left: UnsafeMutablePointer<Int>, right: UnsafeMutablePointer<Int>,
                         rows range: (Int, Int), only: [Bool]?) -> Int {
        var rows = 0
        var y = 0
        while y < height {
            changed[y] = 0
            let c = cur + y * rowBytes
            if y >= range.0 && y < range.1 && (only?[y] ?? true) && memcmp(c, prev + y * rowBytes, rowBytes) != 0 {
                let t = target + y * width
                let p = previous + y * width
                if let table {
                    let s = c.assumingMemoryBound(to: UInt8.self)
                    var x = 0
                    while x < width { t[x] = table[Int(s[x])]; x &+= 1 }
                } else {
                    t.update(from: c.assumingMemoryBound(to: UInt32.self), count: width)
                }
                // Samples can differ where keys do not (duplicate palette entries).
                if memcmp(t, p, width &* 4) != 0 {
                    var l = 0
                    while t[l] == p[l] { l &+= 1 }
                    var r = width - 1
                    while t[r] == p[r] { r &-= 1 }
                    changed[y] = 1
                    left[y] = l
                    right[y] = r
                    rows &+= 1
                }
            }
            y &+= 1
        }
        return rows
    }
}
