import ImageCore

/// The eight EXIF orientations: how the stored pixels must be turned to be shown upright.
enum EXIFOrientation: Int {
    case up = 1, mirrored = 2, upsideDown = 3, flipped = 4
    case transposed = 5, rotatedClockwise = 6, transverse = 7, rotatedCounterClockwise = 8

    /// True for 5…8, whose result has width and height exchanged.
    var swapsAxes: Bool { rawValue >= 5 }

    /// Words for the user's warning.
    var summary: String {
        switch self {
        case .up: "no change"
        case .mirrored: "mirror horizontally"
        case .upsideDown: "rotate 180°"
        case .flipped: "mirror vertically"
        case .transposed: "mirror horizontally and rotate 90° CCW"
        case .rotatedClockwise: "rotate 90° CW"
        case .transverse: "mirror horizontally and rotate 90° CW"
        case .rotatedCounterClockwise: "rotate 90° CCW"
        }
    }

    /// The upright image. Each output pixel (x, y) is read from source index
    /// `start + x * stepX + y * stepY` (in pixels), one affine walk per orientation.
    func apply(to image: Image) -> Image {
        let w = image.width, h = image.height
        if self == .up || w == 0 || h == 0 { return image }
        let (outW, outH) = swapsAxes ? (h, w) : (w, h)
        let start: Int, stepX: Int, stepY: Int
        switch self {
        case .up: (start, stepX, stepY) = (0, 1, w)
        case .mirrored: (start, stepX, stepY) = (w - 1, -1, w)
        case .upsideDown: (start, stepX, stepY) = ((h - 1) * w + w - 1, -1, -w)
        case .flipped: (start, stepX, stepY) = ((h - 1) * w, 1, -w)
        case .transposed: (start, stepX, stepY) = (0, w, 1)
        case .rotatedClockwise: (start, stepX, stepY) = ((h - 1) * w, -w, 1)
        case .transverse: (start, stepX, stepY) = ((h - 1) * w + w - 1, -w, -1)
        case .rotatedCounterClockwise: (start, stepX, stepY) = (w - 1, w, -1)
        }
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                EXIFOrientation.remap(src.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                      dst.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                      width: outW, height: outH, start: start, stepX: stepX, stepY: stepY)
            }
        }
        return Image(width: outW, height: outH, pixels: out)
    }

    /// Copies whole RGBA pixels as 32-bit words along the affine walk.
    private static func remap(_ src: UnsafePointer<UInt32>, _ dst: UnsafeMutablePointer<UInt32>,
                              width: Int, height: Int, start: Int, stepX: Int, stepY: Int) {
        var d = dst
        var rowStart = start
        for _ in 0..<height {
            var s = rowStart
            for x in 0..<width {
                d[x] = src[s]
                s += stepX
            }
            d += width
            rowStart += stepY
        }
    }
}
