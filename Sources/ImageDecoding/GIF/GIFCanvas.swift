import ImageCore

/// The logical screen of an animated GIF, on which frames are drawn with browser rules:
/// it starts transparent, frames are clipped to it, transparent indices leave it unchanged and
/// disposal 2/3 restore the frame's rectangle to transparent / to what was there before.
struct GIFCanvas {
    let width: Int
    let height: Int
    /// RGBA bytes of the screen as currently shown.
    var pixels: [UInt8]
    /// The screen before the current frame was drawn, kept only for disposal 3.
    private var saved: [UInt8]?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Call before drawing a frame whose disposal is 3 (restore previous).
    mutating func savePrevious() { saved = pixels }

    /// Draws one row of frame indices at screen row `y`, starting at screen column `left`.
    /// `table` holds 256 RGBA words (indices beyond the colour map are opaque black);
    /// `transparent` is the transparent index or -1. Returns the largest index seen.
    mutating func drawRow(_ indices: UnsafePointer<UInt8>, count: Int, left: Int, y: Int,
                          table: UnsafePointer<UInt32>, transparent: Int) -> UInt8 {
        guard y >= 0, y < height else { return 0 }
        let start = max(0, -left)
        let end = min(count, width - left)
        guard start < end else { return 0 }
        let width = self.width
        return pixels.withUnsafeMutableBytes { raw in
            let row = raw.baseAddress!.assumingMemoryBound(to: UInt32.self) + y * width + left
            return GIFCanvas.blit(indices, row, from: start, to: end, table: table, transparent: transparent)
        }
    }

    private static func blit(_ indices: UnsafePointer<UInt8>, _ row: UnsafeMutablePointer<UInt32>,
                             from start: Int, to end: Int, table: UnsafePointer<UInt32>, transparent: Int) -> UInt8 {
        var maxIndex: UInt8 = 0
        var x = start
        while x < end {
            let index = indices[x]
            if index > maxIndex { maxIndex = index }
            if Int(index) != transparent { row[x] = table[Int(index)] }
            x += 1
        }
        return maxIndex
    }

    /// Applies a frame's disposal after it has been shown, clipped to the screen.
    mutating func dispose(_ mode: Int, left: Int, top: Int, width w: Int, height h: Int) {
        switch mode {
        case 2:
            let x0 = max(0, left), x1 = min(width, left + w)
            let y0 = max(0, top), y1 = min(height, top + h)
            guard x0 < x1, y0 < y1 else { return }
            let width = self.width
            pixels.withUnsafeMutableBytes { raw in
                let base = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
                for y in y0..<y1 {
                    (base + y * width + x0).update(repeating: 0, count: x1 - x0)
                }
            }
        case 3:
            if let saved { pixels = saved }
        default:
            break
        }
        saved = nil
    }
}
