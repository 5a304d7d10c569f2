extension APNGEncoder {
    /// One way of writing a frame: the previous frame's dispose op, this frame's blend op, and
    /// the cropped raster with its filtered bytes at the comparison strategy.
    struct Candidate {
        var dispose: APNGDisposeOp
        var blend: APNGBlendOp
        var rect: CanvasRect
        var raster: Raster
        var filtered: [UInt8]
    }
}
