import ImageCore

/// An APNG fcTL chunk, validated against the canvas.
struct APNGFrameControl {
    enum Dispose: Int { case none = 0, background = 1, previous = 2 }
    enum Blend: Int { case source = 0, over = 1 }

    let sequence: UInt32
    let width: Int
    let height: Int
    let x: Int
    let y: Int
    let delayNumerator: Int
    let delayDenominator: Int
    let dispose: Dispose
    let blend: Blend

    /// Parses fcTL number `index` (0-based); its region must lie inside the canvas.
    init(_ d: ArraySlice<UInt8>, index: Int, canvasWidth: Int, canvasHeight: Int) throws {
        guard d.count == 26 else {
            throw ImageError(.apng, PNGError.frameControlLength(frame: index, bytes: d.count))
        }
        let b = Array(d)
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        sequence = UInt32(be32(0))
        width = be32(4)
        height = be32(8)
        x = be32(12)
        y = be32(16)
        delayNumerator = Int(b[20]) << 8 | Int(b[21])
        delayDenominator = Int(b[22]) << 8 | Int(b[23])
        guard width > 0 && height > 0 else {
            throw ImageError(.apng, PNGError.frameZeroSize(frame: index, width: width, height: height))
        }
        // Each term is < 2^32, so the sums cannot overflow Int.
        guard x + width <= canvasWidth && y + height <= canvasHeight else {
            throw ImageError(.apng, PNGError.frameOutsideCanvas(frame: index, width: width, height: height, x: x, y: y,
                                                                 canvasWidth: canvasWidth, canvasHeight: canvasHeight))
        }
        guard let dispose = Dispose(rawValue: Int(b[24])) else {
            throw ImageError(.apng, PNGError.invalidDisposeOp(frame: index, b[24]))
        }
        guard let blend = Blend(rawValue: Int(b[25])) else {
            throw ImageError(.apng, PNGError.invalidBlendOp(frame: index, b[25]))
        }
        self.dispose = dispose
        self.blend = blend
    }

    var delay: Delay { Delay(numerator: delayNumerator, denominator: delayDenominator) }

    /// The frame's rectangle on the canvas.
    var rect: PixelRect { PixelRect(x: x, y: y, width: width, height: height) }
}
