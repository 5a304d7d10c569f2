import ImageCore

/// Where a compositor holds pixels on a canvas: the frames' rectangles (from the file's
/// structure) gathered into disjoint regions; the rest of the canvas is transparent in every
/// frame. Two rectangles share a region when they overlap or when the box holding both is small
/// (at most `smallArea` pixels, or at most twice what they cover apart), so ordinary animations
/// get one box and frames scattered over a huge canvas (a 1×1 frame in each corner of 10000²)
/// get one small region each. The decoder composites on these regions and the outline's memory
/// estimate counts them: one rule for both.
enum CanvasLayout {
    /// A merged box of at most this many pixels (256²) is always taken.
    static let smallArea = 65_536

    /// Disjoint regions holding every rectangle of `rects` clipped to `canvas`; the whole canvas
    /// when none is left. Each clipped rectangle lies inside exactly one region.
    static func regions(_ rects: [PixelRect], in canvas: PixelRect) -> [PixelRect] {
        var regions: [PixelRect] = []
        var last = PixelRect(x: 0, y: 0, width: 0, height: 0)
        for rect in rects {
            var r = rect.clipped(to: canvas)
            // Most files repeat one rectangle, or draw inside the region before.
            if r.isEmpty || last.contains(r) { continue }
            if let held = regions.first(where: { $0.contains(r) }) { last = held; continue }
            // Merge with every region it should join until none is left to join.
            var merged = true
            while merged {
                merged = false
                for i in regions.indices where joins(regions[i], r) {
                    r = r.union(regions.remove(at: i))
                    merged = true
                    break
                }
            }
            regions.append(r)
            last = r
        }
        return regions.isEmpty ? [canvas] : regions
    }

    /// Pixels the regions of `rects` hold (`regions(_:in:)`), saturating at `Int.max / 4`.
    static func area(_ rects: [PixelRect], in canvas: PixelRect) -> Int {
        regions(rects, in: canvas).reduce(0) { min(Int.max / 4, $0 + $1.area) }
    }

    /// True when `a` and `b` belong in one region.
    private static func joins(_ a: PixelRect, _ b: PixelRect) -> Bool {
        if !a.clipped(to: b).isEmpty { return true }
        let both = a.union(b).area
        return both <= smallArea || both <= 2 * (a.area + b.area)
    }
}
