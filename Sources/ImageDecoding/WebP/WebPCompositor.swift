import ImageCore

/// The canvas of an animated WebP, composited as the container specification describes: it
/// starts transparent black (the ANIM background colour is a hint the specification lets
/// decoders ignore, and browsers and libwebp's own animation decoder do), each frame is drawn at
/// its offset either alpha-blended over the canvas or replacing it, and a frame that disposes to
/// the background clears its rectangle to transparent before the next frame is drawn.
///
/// Only `box` — the union of the frames' rectangles — is held; every pixel that changes is
/// marked in `damage`. Alpha blending is the specification's formula computed exactly in
/// integers, as APNG's OVER is (`APNGCompositor.over`).
struct WebPCompositor {
    let width: Int
    let height: Int
    let box: PixelRect
    private(set) var canvas: [UInt8]
    private(set) var damage: RowDamage
    /// The rectangle of the frame just shown when it disposes to the background.
    private var pendingClear: PixelRect?

    init(width: Int, height: Int, box: PixelRect) {
        self.width = width
        self.height = height
        self.box = box
        canvas = [UInt8](repeating: 0, count: box.area * 4)
        damage = RowDamage(rows: height)
    }

    /// The damage so far, cleared.
    mutating func takeDamage() -> RowDamage {
        let d = damage
        damage.clear()
        return d
    }

    /// Draws a decoded frame (`rect.width × rect.height` RGBA) after applying the previous
    /// frame's disposal. `blend`: alpha-blend over the canvas; otherwise replace it.
    mutating func draw(_ frame: UnsafePointer<UInt8>, rect: PixelRect, blend: Bool, disposeAfter: Bool) {
        if let clear = pendingClear { self.clear(clear) }
        let rowBytes = rect.width * 4
        let boxRowBytes = box.width * 4
        let (bx, by) = (box.x, box.y)
        canvas.withUnsafeMutableBufferPointer { dst in
            for r in 0..<rect.height {
                let s = frame + r * rowBytes
                let d = dst.baseAddress! + (rect.y + r - by) * boxRowBytes + (rect.x - bx) * 4
                let changed = blend ? APNGCompositor.over(s, d, count: rect.width) : APNGCompositor.copy(s, d, count: rect.width)
                damage.mark(row: rect.y + r, from: rect.x + changed.lowerBound, to: rect.x + changed.upperBound)
            }
        }
        pendingClear = disposeAfter ? rect : nil
    }

    /// The box as shown now.
    var snapshot: Image { Image(width: box.width, height: box.height, pixels: canvas) }

    private mutating func clear(_ rect: PixelRect) {
        BoxClearing.clear(rect, in: &canvas, box: box, damage: &damage)
        pendingClear = nil
    }
}
