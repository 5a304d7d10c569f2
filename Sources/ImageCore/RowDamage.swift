import Foundation

/// What may have changed in an image since the one before it: per row, the columns
/// `lo[row] ..< hi[row]` (none when `lo >= hi`). A superset is always allowed — a stage that gets
/// more damage than there was does more work, never wrong work — so a producer may mark whole
/// rectangles; the decoders and `FrameFitter` mark exactly the pixels they changed.
///
/// Stages that see one frame after another (decoders, the fit, the frame store, the remap, the
/// APNG encoder) pass it along so that each redoes only what changed: the work of an animation
/// whose frames change a little follows what changes, not frames × pixels.
package struct RowDamage: Sendable, Equatable {
    /// Per row: first changed column, and one past the last.
    package private(set) var lo: [Int32]
    package private(set) var hi: [Int32]
    /// Rows `firstRow ..< endRow` hold every change (`firstRow >= endRow` when nothing changed).
    package private(set) var firstRow: Int
    package private(set) var endRow: Int

    /// Nothing changed in `rows` rows.
    package init(rows: Int) {
        lo = [Int32](repeating: Int32.max, count: rows)
        hi = [Int32](repeating: 0, count: rows)
        firstRow = rows
        endRow = 0
    }

    /// Every pixel of a `width × rows` image changed.
    package static func all(width: Int, rows: Int) -> RowDamage {
        var d = RowDamage(rows: rows)
        if width > 0 { d.mark(PixelRect(x: 0, y: 0, width: width, height: rows)) }
        return d
    }

    package var rows: Int { lo.count }
    /// True when nothing changed.
    package var isEmpty: Bool { firstRow >= endRow }

    /// The columns of `row` that may have changed, or nil when none did.
    @inline(__always)
    package func span(_ row: Int) -> Range<Int>? {
        let a = Int(lo[row]), b = Int(hi[row])
        return a < b ? a..<b : nil
    }

    /// Marks columns `from ..< to` of `row` (nothing when `from >= to`).
    @inline(__always)
    package mutating func mark(row: Int, from: Int, to: Int) {
        guard from < to else { return }
        let a = Int32(truncatingIfNeeded: from), b = Int32(truncatingIfNeeded: to)
        if a < lo[row] { lo[row] = a }
        if b > hi[row] { hi[row] = b }
        if row < firstRow { firstRow = row }
        if row >= endRow { endRow = row + 1 }
    }

    /// Marks every pixel of `rect` (which must lie inside the rows).
    package mutating func mark(_ rect: PixelRect) {
        guard !rect.isEmpty else { return }
        for r in rect.y..<(rect.y + rect.height) { mark(row: r, from: rect.x, to: rect.x + rect.width) }
    }

    /// Adds every change of `other` (same row count): what changed over two steps.
    package mutating func formUnion(_ other: RowDamage) {
        guard !other.isEmpty else { return }
        for r in other.firstRow..<other.endRow {
            mark(row: r, from: Int(other.lo[r]), to: Int(other.hi[r]))
        }
    }

    /// Back to "nothing changed", keeping the storage.
    package mutating func clear() {
        guard !isEmpty else { return }
        for r in firstRow..<endRow { lo[r] = Int32.max; hi[r] = 0 }
        firstRow = rows
        endRow = 0
    }

    /// Exactly the pixels that differ between two images of one size (RGBA).
    package static func between(_ a: Image, _ b: Image) -> RowDamage {
        var d = RowDamage(rows: a.height)
        let w = a.width
        a.pixels.withUnsafeBytes { pa in
            b.pixels.withUnsafeBytes { pb in
                for y in 0..<a.height {
                    let ra = pa.baseAddress! + y * w * 4, rb = pb.baseAddress! + y * w * 4
                    // Most rows of an animation's frame are as they were: one memcmp settles them
                    // (a pixel-by-pixel scan of every row took a tenth of a 5,000-frame WhatsApp
                    // conversion).
                    if memcmp(ra, rb, w * 4) == 0 { continue }
                    var lo = 0
                    while lo < w && ra.loadUnaligned(fromByteOffset: lo * 4, as: UInt32.self) == rb.loadUnaligned(fromByteOffset: lo * 4, as: UInt32.self) { lo += 1 }
                    guard lo < w else { continue }
                    var hi = w
                    while ra.loadUnaligned(fromByteOffset: (hi - 1) * 4, as: UInt32.self) == rb.loadUnaligned(fromByteOffset: (hi - 1) * 4, as: UInt32.self) { hi -= 1 }
                    d.mark(row: y, from: lo, to: hi)
                }
            }
        }
        return d
    }

    /// Pixels marked (an upper bound of what changed).
    package var area: Int {
        guard !isEmpty else { return 0 }
        var n = 0
        for r in firstRow..<endRow where lo[r] < hi[r] { n += Int(hi[r] - lo[r]) }
        return n
    }
}
