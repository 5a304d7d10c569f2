import ImageCore

/// The canvas of an animated WebP, composited as the container specification describes: it
/// starts transparent black (the ANIM background colour is a hint the specification lets
/// decoders ignore, and browsers and libwebp's own animation decoder do), each frame is drawn at
/// its offset either alpha-blended over the canvas or replacing it, and a frame that disposes to
/// the background clears its rectangle to transparent before the next frame is drawn.
///
/// Only `regions` are held — the frames' rectangles gathered by `CanvasLayout` (or their union
/// when the caller asks for one box) — each frame lying in one of them; every pixel that changes
/// is marked in `damage`. Alpha blending is the specification's formula computed exactly in
/// integers, as APNG's OVER is (`APNGCompositor.over`).
struct WebPCompositor {
    let width: Int
    let height: Int
    let regions: [PixelRect]
    private(set) var planes: [[UInt8]]
    private(set) var damage: RowDamage
    /// The rectangle of the frame just shown when it disposes to the background.
    private var pendingClear: PixelRect?

    init(width: Int, height: Int, regions: [PixelRect]) {
        self.width = width
        self.height = height
        self.regions = regions
        planes = regions.map { [UInt8](repeating: 0, count: $0.area * 4) }
        damage = RowDamage(rows: height)
    }

    /// True when `rect` lies in a region (a frame the compositor can draw).
    func holds(_ rect: PixelRect) -> Bool { regions.contains { $0.contains(rect) } }

    /// The damage so far, cleared.
    mutating func takeDamage() -> RowDamage {
        let d = damage
        damage.clear()
        return d
    }

    /// Draws a decoded frame (`rect.width × rect.height` RGBA, `rect` held: `holds`) after applying
    /// the previous frame's disposal. `blend`: alpha-blend over the canvas; otherwise replace it.
    mutating func draw(_ frame: UnsafePointer<UInt8>, rect: PixelRect, blend: Bool, disposeAfter: Bool) {
        if let clear = pendingClear { self.clear(clear) }
        let i = regions.firstIndex { $0.contains(rect) }!
        let box = regions[i]
        let rowBytes = rect.width * 4
        let boxRowBytes = box.width * 4
        let (bx, by) = (box.x, box.y)
        planes[i].withUnsafeMutableBufferPointer { dst in
            for r in 0..<rect.height {
                let s = frame + r * rowBytes
                let d = dst.baseAddress! + (rect.y + r - by) * boxRowBytes + (rect.x - bx) * 4
                let changed = blend ? APNGCompositor.over(s, d, count: rect.width) : APNGCompositor.copy(s, d, count: rect.width)
                damage.mark(row: rect.y + r, from: rect.x + changed.lowerBound, to: rect.x + changed.upperBound)
            }
        }
        pendingClear = disposeAfter ? rect : nil
    }

    /// The canvas as shown now: each region with its pixels (sharing the compositor's storage).
    var snapshot: [CanvasRegion] {
        zip(regions, planes).map { CanvasRegion(rect: $0, pixels: Image(width: $0.width, height: $0.height, pixels: $1)) }
    }

    private mutating func clear(_ rect: PixelRect) {
        let i = regions.firstIndex { $0.contains(rect) }!
        BoxClearing.clear(rect, in: &planes[i], box: regions[i], damage: &damage)
        pendingClear = nil
    }
}
