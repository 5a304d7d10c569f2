import ImageCore

/// The canvas of an animated WebP, composited as the container specification describes: it
/// starts transparent black (the ANIM background colour is a hint the specification lets
/// decoders ignore, and browsers and libwebp's own animation decoder do), each frame is drawn at
/// its offset either alpha-blended over the canvas or replacing it, and a frame that disposes to
/// the background clears its rectangle to transparent before the next frame is drawn.
///
/// Only regions are held (`CanvasPlanes`: the frames' rectangles gathered by `CanvasLayout`, or
/// their union when the caller asks for one box), each frame lying in one of them; every pixel
/// that changes is marked in the damage. Alpha blending is the specification's formula computed exactly in
/// integers, as APNG's OVER is (`APNGCompositor.over`).
struct WebPCompositor {
    let width: Int
    let height: Int
    private var canvas: CanvasPlanes
    /// The rectangle of the frame just shown when it disposes to the background.
    private var pendingClear: PixelRect?

    init(width: Int, height: Int, regions: [PixelRect]) {
        self.width = width
        self.height = height
        canvas = CanvasPlanes(height: height, regions: regions)
    }

    /// True when `rect` lies in a region (a frame the compositor can draw).
    func holds(_ rect: PixelRect) -> Bool { canvas.holds(rect) }

    /// The damage so far, cleared.
    mutating func takeDamage() -> RowDamage { canvas.takeDamage() }

    /// Draws a decoded frame (`rect.width × rect.height` RGBA, `rect` held: `holds`) after applying
    /// the previous frame's disposal. `blend`: alpha-blend over the canvas; otherwise replace it.
    mutating func draw(_ frame: UnsafePointer<UInt8>, rect: PixelRect, blend: Bool, disposeAfter: Bool) {
        if let clear = pendingClear { canvas.clear(clear) }
        canvas.draw(frame, rect: rect, rows: rect.height, blend: blend)
        pendingClear = disposeAfter ? rect : nil
    }

    /// The canvas as shown now: each region with its pixels (sharing the compositor's storage).
    var snapshot: [CanvasRegion] { canvas.snapshot }
}
