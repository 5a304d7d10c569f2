/// How a frame's pixels are put on the canvas (fcTL `blend_op`).
enum APNGBlendOp: UInt8, Sendable {
    /// Replace the region's pixels, alpha included.
    case source = 0
    /// Composite over the canvas: fully transparent pixels leave it as it is.
    case over = 1
}
