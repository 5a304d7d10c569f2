/// One frame of an animation as a decoder composites it, for stages that follow the frames one
/// at a time: only `box` of the `canvasWidth × canvasHeight` canvas is ever drawn (the union of
/// every frame's rectangle), so only `box` is held; the rest is transparent black in every frame.
/// A 10000×10000 canvas whose frames are 20×20 costs a 20×20 box, not 400 MB.
///
/// `damage` says which pixels changed since the frame delivered before (canvas coordinates,
/// `canvasHeight` rows), nil for the first frame. `box` may grow from one frame to the next
/// (never shrinks); pixels it gains were transparent.
package struct CanvasFrame: Sendable {
    package var canvasWidth: Int
    package var canvasHeight: Int
    /// Where `pixels` lies on the canvas.
    package var box: PixelRect
    /// `box.width × box.height` straight-alpha RGBA: the canvas inside `box`.
    package var pixels: Image
    /// What changed since the previous frame; nil for the first (everything).
    package var damage: RowDamage?
    /// How long the frame is shown (see `ImageDecoder.decodeCanvas` for which rule applies).
    package var delay: Delay

    package init(canvasWidth: Int, canvasHeight: Int, box: PixelRect, pixels: Image, damage: RowDamage?, delay: Delay) {
        precondition(pixels.width == box.width && pixels.height == box.height, "CanvasFrame: pixels do not fill the box")
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.box = box
        self.pixels = pixels
        self.damage = damage
        self.delay = delay
    }

    /// The whole canvas: `pixels` itself when the box is the canvas, else a transparent canvas
    /// with the box copied in.
    package var wholeCanvas: Image {
        if box.x == 0 && box.y == 0 && box.width == canvasWidth && box.height == canvasHeight { return pixels }
        var out = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
        let rowBytes = box.width * 4
        if rowBytes > 0 {
            pixels.pixels.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { dst in
                    for r in 0..<box.height {
                        (dst.baseAddress! + ((box.y + r) * canvasWidth + box.x) * 4)
                            .update(from: src.baseAddress! + r * rowBytes, count: rowBytes)
                    }
                }
            }
        }
        return Image(width: canvasWidth, height: canvasHeight, pixels: out)
    }
}
