import ImageCore

/// Disposal to the background for the compositors that draw on a box of the canvas (APNG,
/// WebP): a frame's rectangle becomes transparent black, and only the pixels that were not
/// already are marked as changed.
enum BoxClearing {
    /// Clears `rect` (canvas coordinates, inside `box`) in `canvas`, the RGBA pixels of `box`,
    /// marking what changed in `damage`.
    static func clear(_ rect: PixelRect, in canvas: inout [UInt8], box: PixelRect, damage: inout RowDamage) {
        let boxRowBytes = box.width * 4
        canvas.withUnsafeMutableBufferPointer { dst in
            for r in 0..<rect.height {
                let d = dst.baseAddress! + (rect.y + r - box.y) * boxRowBytes + (rect.x - box.x) * 4
                var lo = rect.width, hi = 0
                for i in 0..<rect.width where UnsafeRawPointer(d + i * 4).loadUnaligned(as: UInt32.self) != 0 {
                    if i < lo { lo = i }
                    hi = i + 1
                }
                if lo < hi {
                    (d + lo * 4).update(repeating: 0, count: (hi - lo) * 4)
                    damage.mark(row: rect.y + r, from: rect.x + lo, to: rect.x + hi)
                }
            }
        }
    }
}
