import ImageCore

/// The logical screen of an animated GIF, on which frames are drawn with browser rules:
/// it starts transparent, frames are clipped to it, transparent indices leave it unchanged and
/// disposal 2/3 restore the frame's rectangle to transparent / to what was there before.
///
/// Only `regions` — the frames' rectangles gathered by `CanvasLayout` from the file's structure —
/// are held: the rest of the screen is transparent in every frame. Each frame lies in one
/// region, so drawing, disposal and the restore copy touch that region alone. A frame found
/// outside every region (a file the structure walk read differently) grows them to the whole
/// screen. Every pixel that changes is marked in `damage`, so consumers redo only what changed.
struct GIFCanvas {
    let width: Int
    let height: Int
    /// The parts of the screen held, disjoint, each with its RGBA bytes as currently shown.
    private(set) var regions: [PixelRect]
    private(set) var planes: [[UInt8]]
    /// Pixels changed since `takeDamage` was last called (screen coordinates).
    private(set) var damage: RowDamage
    /// The region of the frame being drawn (`hold`).
    private var current = 0
    /// The rectangle under the current frame and what it held before, kept only for disposal 3.
    private var saved: (rect: PixelRect, pixels: [UInt8])?

    init(width: Int, height: Int, regions: [PixelRect]) {
        self.width = width
        self.height = height
        let screen = PixelRect(x: 0, y: 0, width: width, height: height)
        let held = regions.map { $0.clipped(to: screen) }.filter { !$0.isEmpty }
        self.regions = held.isEmpty ? [PixelRect(x: 0, y: 0, width: min(1, width), height: min(1, height))] : held
        planes = self.regions.map { [UInt8](repeating: 0, count: $0.area * 4) }
        damage = RowDamage(rows: height)
    }

    /// The screen as shown now: each region with its pixels (sharing the canvas's storage).
    var shown: [CanvasRegion] {
        zip(regions, planes).map { CanvasRegion(rect: $0, pixels: Image(width: $0.width, height: $0.height, pixels: $1)) }
    }

    /// The damage so far, cleared.
    mutating func takeDamage() -> RowDamage {
        let d = damage
        damage.clear()
        return d
    }

    /// Makes sure `rect` (already clipped to the screen) is held and makes its region the one
    /// drawn on: a rectangle outside every region grows them to the whole screen, keeping what
    /// they held.
    mutating func hold(_ rect: PixelRect) {
        if let i = regions.firstIndex(where: { $0.contains(rect) }) { current = i; return }
        let screen = PixelRect(x: 0, y: 0, width: width, height: height)
        var grown = [UInt8](repeating: 0, count: screen.area * 4)
        for (box, pixels) in zip(regions, planes) {
            let rowBytes = box.width * 4
            pixels.withUnsafeBufferPointer { src in
                grown.withUnsafeMutableBufferPointer { dst in
                    for r in 0..<box.height {
                        (dst.baseAddress! + ((box.y + r) * width + box.x) * 4).update(from: src.baseAddress! + r * rowBytes, count: rowBytes)
                    }
                }
            }
        }
        regions = [screen]
        planes = [grown]
        current = 0
    }

    /// Call before drawing a frame whose disposal is 3 (restore previous), after `hold`: keeps
    /// what lies under `rect` (clipped to the screen).
    mutating func savePrevious(_ rect: PixelRect) {
        let box = regions[current]
        let r = rect.clipped(to: box)
        var copy = [UInt8](repeating: 0, count: r.area * 4)
        if !r.isEmpty {
            let rowBytes = r.width * 4
            let boxRowBytes = box.width * 4
            let (bx, by) = (box.x, box.y)
            planes[current].withUnsafeBufferPointer { src in
                copy.withUnsafeMutableBufferPointer { dst in
                    for row in 0..<r.height {
                        (dst.baseAddress! + row * rowBytes)
                            .update(from: src.baseAddress! + (r.y - by + row) * boxRowBytes + (r.x - bx) * 4, count: rowBytes)
                    }
                }
            }
        }
        saved = (r, copy)
    }

    /// Draws one row of frame indices at screen row `y`, starting at screen column `left`.
    /// `table` holds 256 RGBA words (indices beyond the colour map are opaque black);
    /// `transparent` is the transparent index or -1. Returns the largest index seen.
    mutating func drawRow(_ indices: UnsafePointer<UInt8>, count: Int, left: Int, y: Int,
                          table: UnsafePointer<UInt32>, transparent: Int) -> UInt8 {
        guard y >= 0, y < height else { return 0 }
        let start = max(0, -left)
        let end = min(count, width - left)
        guard start < end else { return 0 }
        let box = regions[current]
        let (bx, by, bw) = (box.x, box.y, box.width)
        let result: (maxIndex: UInt8, lo: Int, hi: Int) = planes[current].withUnsafeMutableBytes { raw in
            // The region holds every clipped frame row (`hold`): `left + start ≥ bx`, `left + end ≤ bx + bw`.
            let row = raw.baseAddress!.assumingMemoryBound(to: UInt32.self) + (y - by) * bw + (left - bx)
            return GIFCanvas.blit(indices, row, from: start, to: end, table: table, transparent: transparent)
        }
        if result.lo < result.hi { damage.mark(row: y, from: left + result.lo, to: left + result.hi) }
        return result.maxIndex
    }

    /// Writes the frame's pixels `start ..< end` of one row and returns the largest index and the
    /// columns that really changed (`lo >= hi` when none did).
    private static func blit(_ indices: UnsafePointer<UInt8>, _ row: UnsafeMutablePointer<UInt32>,
                             from start: Int, to end: Int, table: UnsafePointer<UInt32>,
                             transparent: Int) -> (UInt8, Int, Int) {
        var maxIndex: UInt8 = 0
        var lo = Int.max, hi = 0
        var x = start
        while x < end {
            let index = indices[x]
            if index > maxIndex { maxIndex = index }
            if Int(index) != transparent {
                let v = table[Int(index)]
                if row[x] != v {
                    row[x] = v
                    if x < lo { lo = x }
                    hi = x &+ 1
                }
            }
            x &+= 1
        }
        return (maxIndex, lo, hi)
    }

    /// Applies a frame's disposal after it has been shown, clipped to the screen (the frame's
    /// region, from `hold`).
    mutating func dispose(_ mode: Int, left: Int, top: Int, width w: Int, height h: Int) {
        let box = regions[current]
        switch mode {
        case 2:
            let r = PixelRect(x: left, y: top, width: w, height: h).clipped(to: box)
            guard !r.isEmpty else { break }
            let (bx, by, bw) = (box.x, box.y, box.width)
            planes[current].withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for y in r.y..<(r.y + r.height) {
                    let row = base + (y - by) * bw + (r.x - bx)
                    var lo = Int.max, hi = 0
                    for x in 0..<r.width where row[x] != 0 {
                        if x < lo { lo = x }
                        hi = x + 1
                    }
                    if lo < hi {
                        (row + lo).update(repeating: 0, count: hi - lo)
                        damage.mark(row: y, from: r.x + lo, to: r.x + hi)
                    }
                }
            }
        case 3:
            if let (r, copy) = saved, !r.isEmpty {
                let (bx, by, bw) = (box.x, box.y, box.width)
                copy.withUnsafeBytes { src in
                    planes[current].withUnsafeMutableBytes { raw in
                        let base = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                        let old = src.baseAddress!.assumingMemoryBound(to: UInt32.self)
                        for y in 0..<r.height {
                            let row = base + (r.y + y - by) * bw + (r.x - bx)
                            let back = old + y * r.width
                            var lo = Int.max, hi = 0
                            for x in 0..<r.width where row[x] != back[x] {
                                if x < lo { lo = x }
                                hi = x + 1
                            }
                            if lo < hi {
                                row.update(from: back, count: r.width)
                                damage.mark(row: r.y + y, from: r.x + lo, to: r.x + hi)
                            }
                        }
                    }
                }
            }
        default:
            break
        }
        saved = nil
    }
}
