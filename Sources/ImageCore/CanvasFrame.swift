/// One frame of an animation as a decoder composites it, for stages that follow the frames one
/// at a time: only `regions` of the `canvasWidth × canvasHeight` canvas are ever drawn (disjoint
/// rectangles holding every frame's rectangle), so only they are held; the rest is transparent
/// black in every frame. A 10000×10000 canvas whose frames are 20×20 costs a 20×20 region, not
/// 400 MB, and two 1×1 frames in opposite corners cost two 1×1 regions.
///
/// `damage` says which pixels changed since the frame delivered before (canvas coordinates,
/// `canvasHeight` rows), nil for the first frame. Regions may grow from one frame to the next
/// (never shrink); pixels they gain were transparent.
package struct CanvasFrame: Sendable {
    package var canvasWidth: Int
    package var canvasHeight: Int
    /// The parts of the canvas held, disjoint; everything else is transparent.
    package var regions: [CanvasRegion]
    /// What changed since the previous frame; nil for the first (everything).
    package var damage: RowDamage?
    /// How long the frame is shown (see `ImageDecoder.decodeCanvas` for which rule applies).
    package var delay: Delay

    package init(canvasWidth: Int, canvasHeight: Int, regions: [CanvasRegion], damage: RowDamage?, delay: Delay) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.regions = regions
        self.damage = damage
        self.delay = delay
    }

    /// A frame held as one box: `pixels` (`box.width × box.height`) at `box`.
    package init(canvasWidth: Int, canvasHeight: Int, box: PixelRect, pixels: Image, damage: RowDamage?, delay: Delay) {
        self.init(canvasWidth: canvasWidth, canvasHeight: canvasHeight, regions: [CanvasRegion(rect: box, pixels: pixels)],
                  damage: damage, delay: delay)
    }

    /// The smallest rectangle holding every region.
    package var box: PixelRect {
        regions.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.rect) }
    }

    /// Pixels held (the regions' areas together).
    package var heldArea: Int { regions.reduce(0) { $0 + $1.rect.area } }

    /// The whole canvas: the one region's pixels when it is the canvas, else a transparent
    /// canvas with the regions copied in.
    package var wholeCanvas: Image {
        if regions.count == 1, regions[0].rect == PixelRect(x: 0, y: 0, width: canvasWidth, height: canvasHeight) {
            return regions[0].pixels
        }
        var out = [UInt8](repeating: 0, count: canvasWidth * canvasHeight * 4)
        for region in regions {
            let box = region.rect
            let rowBytes = box.width * 4
            guard rowBytes > 0 else { continue }
            region.pixels.pixels.withUnsafeBufferPointer { src in
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
