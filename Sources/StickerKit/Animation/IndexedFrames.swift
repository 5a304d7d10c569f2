import ImageCore
import ImageQuantize

/// One setting's frames remapped to its palette: the kept frames of the fitted animation,
/// undithered, as the APNG encoder reads them (one byte per pixel), with which palette entries
/// occur and the mean error. Filled by one remap walk — at once, or (`lazy`) by the first walk
/// a reader makes, so that a reader that stops early remaps only the frames it read. The
/// indices are kept in a `FrameStore` (spans deflated past half of `budget`) while it stays
/// within `budget`, otherwise every later walk remaps the frames again.
final class IndexedFrames: FrameSequence {
    let width: Int
    let height: Int
    let bytesPerPixel = 1
    let count: Int
    let palette: Palette
    /// `used[i]`: index `i` occurs in some frame (once `isFilled`).
    private(set) var used = [Bool](repeating: false, count: 256)
    /// Mean over the frames of each frame's mean squared error (`PaletteMapper.remap`'s scale;
    /// once `isFilled`).
    private(set) var meanSquaredError = 0.0
    /// Whether one walk has remapped every frame: `used` and `meanSquaredError` are known.
    private(set) var isFilled = false
    private var store: FrameStore?
    private let source: KeptFrames
    private let mapper: PaletteMapper
    private let budget: Int

    /// False when walking the source failed (replaying a source that decoded once does not
    /// fail; if it did, the setting has no frames and its encode fails).
    private(set) var isComplete = true

    /// Remaps `source` with `mapper`, keeping the indices if they fit `budget` bytes; with
    /// `lazy`, on the first walk instead of now.
    init(_ source: KeptFrames, mapper: PaletteMapper, budget: Int, lazy: Bool = false) {
        width = source.width
        height = source.height
        count = source.count
        palette = mapper.palette
        self.source = source
        self.mapper = mapper
        self.budget = budget
        if !lazy {
            do { try fill { _, _, _ in } } catch { isComplete = false }
        }
    }

    /// The remap walk: every frame remapped, its indices marked, kept and given to `body`.
    /// When the walk ends, the frames are filled; when `body` or the source throws, nothing
    /// is kept.
    private func fill(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        // Indices deflate well (long runs of one index): past half the budget, spans are kept
        // deflated, which costs far less to walk than remapping every frame again.
        var store: FrameStore? = FrameStore(width: width, height: height, bytesPerPixel: 1, uncompressed: budget / 2)
        var mseSum = 0.0
        let pixels = Double(width * height)
        var seen = [UInt8](repeating: 0, count: 256)
        let remap = FrameRemap(mapper: mapper, width: width, height: height)
        let budget = self.budget, width = self.width
        try source.forEach { i, samples, damage in
            try remap.next(samples, damage: damage) { indices, total, changed in
                mseSum += pixels > 0 ? total / 3 / pixels : 0
                IndexedFrames.mark(indices, changed: changed, width: width, into: &seen)
                if let s = store {
                    s.append(UnsafeRawBufferPointer(indices), damage: changed)
                    if s.bytes > budget { store = nil }
                }
                try body(i, UnsafeRawBufferPointer(indices), changed)
            }
        }
        self.store = store
        meanSquaredError = mseSum / Double(max(1, count))
        for i in 0..<256 where seen[i] != 0 { used[i] = true }
        isFilled = true
    }

    /// Bytes held.
    var bytes: Int { store?.bytes ?? 0 }

    func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        if !isFilled { return try fill(body) }
        if let store { return try store.forEach(body) }
        let remap = FrameRemap(mapper: mapper, width: width, height: height)
        try source.forEach { i, samples, damage in
            try remap.next(samples, damage: damage) { indices, _, changed in try body(i, UnsafeRawBufferPointer(indices), changed) }
        }
    }

    /// Marks the indices of the rows `changed` says changed (every row without it).
    private static func mark(_ indices: UnsafeBufferPointer<UInt8>, changed: RowDamage?, width: Int, into seen: inout [UInt8]) {
        seen.withUnsafeMutableBufferPointer { s in
            let base = indices.baseAddress!
            guard let changed else {
                for i in 0..<indices.count { s[Int(base[i])] = 1 }
                return
            }
            guard !changed.isEmpty else { return }
            for y in changed.firstRow..<changed.endRow {
                guard let span = changed.span(y) else { continue }
                let row = base + y * width
                for x in span { s[Int(row[x])] = 1 }
            }
        }
    }
}
