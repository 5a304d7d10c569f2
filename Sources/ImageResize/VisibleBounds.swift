import ImageCore

/// The union of the non-transparent pixels of every frame fed to it: what `trim` crops to.
///
/// `Resizer.fit` takes this union over a whole animation before it resizes any frame, so every
/// frame keeps the same geometry. A caller that streams frames (decoding them one at a time)
/// feeds each frame here in a first pass, then hands the result to `FrameFitter`.
public struct VisibleBounds: Sendable, Equatable {
    private var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1

    /// Nothing seen yet.
    public init() {}

    /// Grows the union by the non-transparent pixels of `image` (all images fed must share one
    /// canvas size for the result to mean anything).
    public mutating func add(_ image: Image) {
        let width = image.width, height = image.height, bytesPerRow = image.bytesPerRow
        image.pixels.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for y in 0..<height {
                let row = base + y * bytesPerRow
                guard let first = VisibleBounds.firstVisible(row, width) else { continue }
                let last = VisibleBounds.lastVisible(row, width)
                y0 = min(y0, y); y1 = max(y1, y)
                x0 = min(x0, first); x1 = max(x1, last)
            }
        }
    }

    /// Grows the union by the non-transparent pixels of a canvas decode's frame: the damaged
    /// part only (the rest was seen in an earlier frame), every region for the first frame.
    package mutating func add(_ frame: CanvasFrame) {
        for region in frame.regions { add(region, damage: frame.damage) }
    }

    private mutating func add(_ region: CanvasRegion, damage: RowDamage?) {
        let box = region.rect
        guard !box.isEmpty else { return }
        let bytesPerRow = box.width * 4
        region.pixels.pixels.withUnsafeBufferPointer { p in
            guard let base = p.baseAddress else { return }
            for y in box.y..<(box.y + box.height) {
                var a = box.x, b = box.x + box.width
                if let damage {
                    guard let s = damage.span(y) else { continue }
                    a = max(a, s.lowerBound); b = min(b, s.upperBound)
                    guard a < b else { continue }
                }
                let row = base + (y - box.y) * bytesPerRow + (a - box.x) * 4
                guard let first = VisibleBounds.firstVisible(row, b - a) else { continue }
                let last = VisibleBounds.lastVisible(row, b - a)
                y0 = min(y0, y); y1 = max(y1, y)
                x0 = min(x0, a + first); x1 = max(x1, a + last)
            }
        }
    }

    /// Grows the union by the non-transparent pixels of row `y` of a still (`width` RGBA pixels),
    /// for a decode that delivers rows one by one (`RowFitter`).
    package mutating func add(row: UnsafeRawPointer, y: Int, width: Int) {
        let p = row.assumingMemoryBound(to: UInt8.self)
        guard let first = VisibleBounds.firstVisible(p, width) else { return }
        let last = VisibleBounds.lastVisible(p, width)
        y0 = min(y0, y); y1 = max(y1, y)
        x0 = min(x0, first); x1 = max(x1, last)
    }

    /// The smallest rectangle holding every non-transparent pixel seen, or nil when every pixel
    /// of every frame was fully transparent (or nothing was fed).
    var rectangle: TrimBounds? {
        guard x1 >= 0 else { return nil }
        return TrimBounds(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    /// Width and height of `rectangle` (what `trim` keeps), for callers that size a canvas to
    /// the artwork's shape before fitting; nil when nothing visible was seen.
    package var visibleSize: (width: Int, height: Int)? {
        rectangle.map { ($0.width, $0.height) }
    }

    private static func firstVisible(_ row: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var i = 0
        while i < n { if row[i &* 4 &+ 3] != 0 { return i }; i += 1 }
        return nil
    }

    private static func lastVisible(_ row: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var i = n - 1
        while i > 0 { if row[i &* 4 &+ 3] != 0 { return i }; i -= 1 }
        return i
    }
}
