import ImageCore

/// What the APNG and WebP compositors hold of a canvas: one RGBA plane per region (the frames'
/// rectangles gathered by `CanvasLayout`, or one box), each frame lying in one of them, and the
/// damage — every pixel that changed since `takeDamage`, in canvas coordinates. The rest of the
/// canvas is never drawn, so it stays transparent.
struct CanvasPlanes {
    let regions: [PixelRect]
    private(set) var planes: [[UInt8]]
    private(set) var damage: RowDamage

    /// Transparent black regions of a canvas `height` rows tall.
    init(height: Int, regions: [PixelRect]) {
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

    /// The canvas as shown now: each region with its pixels (sharing the planes' storage).
    var snapshot: [CanvasRegion] {
        zip(regions, planes).map { CanvasRegion(rect: $0, pixels: Image(width: $0.width, height: $0.height, pixels: $1)) }
    }

    /// Draws the first `rows` rows of `pixels` (`rect.width × rect.height` RGBA, `rect` held:
    /// `holds`) at `rect`: alpha-blended over the canvas (`APNGCompositor.over`) when `blend`,
    /// otherwise replacing it.
    mutating func draw(_ pixels: UnsafePointer<UInt8>, rect: PixelRect, rows: Int, blend: Bool) {
        let i = index(of: rect)
        let box = regions[i]
        let rowBytes = rect.width * 4
        let boxRowBytes = box.width * 4
        let (bx, by) = (box.x, box.y)
        planes[i].withUnsafeMutableBufferPointer { dst in
            for r in 0..<rows {
                let s = pixels + r * rowBytes
                let d = dst.baseAddress! + (rect.y + r - by) * boxRowBytes + (rect.x - bx) * 4
                let changed = blend ? APNGCompositor.over(s, d, count: rect.width) : APNGCompositor.copy(s, d, count: rect.width)
                damage.mark(row: rect.y + r, from: rect.x + changed.lowerBound, to: rect.x + changed.upperBound)
            }
        }
    }

    /// Clears `rect` (held) to transparent black.
    mutating func clear(_ rect: PixelRect) {
        let i = index(of: rect)
        BoxClearing.clear(rect, in: &planes[i], box: regions[i], damage: &damage)
    }

    /// A copy of the pixels under `rect` (held), `rect.width × rect.height` RGBA.
    func pixels(under rect: PixelRect) -> [UInt8] {
        let i = index(of: rect)
        let box = regions[i]
        let rowBytes = rect.width * 4
        let boxRowBytes = box.width * 4
        var out = [UInt8](repeating: 0, count: rowBytes * rect.height)
        planes[i].withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for r in 0..<rect.height {
                    (dst.baseAddress! + r * rowBytes).update(from: src.baseAddress! + (rect.y + r - box.y) * boxRowBytes + (rect.x - box.x) * 4,
                                                             count: rowBytes)
                }
            }
        }
        return out
    }

    private func index(of rect: PixelRect) -> Int { regions.firstIndex { $0.contains(rect) }! }
}
