import ImageCore

/// Lossy truecolour: rounds every colour channel to a multiple of a step, keeping full RGBA.
///
/// After PNG's prediction filters the residuals of such an image take far fewer values, so it
/// deflates much smaller, while the picture keeps millions of colours: at the byte budgets of
/// stickers this beats a 256-colour palette on photos and soft gradients. Alpha 0 and 255 are
/// kept exactly (so opaque stays opaque and transparent stays transparent); other alpha values
/// are rounded to a finer step than colour, because alpha errors show over every background.
package enum Posterizer {
    /// `image` with colour channels rounded to multiples of `step` (1…64; 1 = unchanged) and
    /// partial alpha to multiples of `max(1, step / 2)`. Colour under alpha 0 becomes zero.
    package static func posterize(_ image: Image, step: Int) -> Image {
        precondition(step >= 1 && step <= 64)
        if step == 1 { return image }
        var colourLUT = [UInt8](repeating: 0, count: 256)
        var alphaLUT = [UInt8](repeating: 0, count: 256)
        let alphaStep = max(1, step / 2)
        for v in 0..<256 {
            colourLUT[v] = roundToStep(v, step)
            alphaLUT[v] = (v == 0 || v == 255) ? UInt8(v) : max(1, min(254, roundToStep(v, alphaStep)))
        }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { p in
            colourLUT.withUnsafeBufferPointer { c in
                alphaLUT.withUnsafeBufferPointer { a in
                    apply(p.baseAddress!, p.count / 4, c.baseAddress!, a.baseAddress!)
                }
            }
        }
        return out
    }

    /// Nearest multiple of `step`, where 255 counts as a multiple (so white stays white).
    private static func roundToStep(_ v: Int, _ step: Int) -> UInt8 {
        let down = v / step * step
        let up = min(255, down + step)
        let r = (v - down) * 2 < (up - down) ? down : up
        return UInt8(r)
    }

    private static func apply(_ p: UnsafeMutablePointer<UInt8>, _ count: Int,
                              _ c: UnsafePointer<UInt8>, _ a: UnsafePointer<UInt8>) {
        var i = 0
        while i < count {
            let q = p + i * 4
            if q[3] == 0 {
                q[0] = 0; q[1] = 0; q[2] = 0
            } else {
                q[0] = c[Int(q[0])]; q[1] = c[Int(q[1])]; q[2] = c[Int(q[2])]; q[3] = a[Int(q[3])]
            }
            i += 1
        }
    }
}

extension Posterizer {
    /// Mean error of `result` against `original` in the quantizer's error space (premultiplied
    /// colour over black and white, per-channel MSE scale) and the 0…100 quality it maps to, so
    /// that lossy truecolour and palette results are scored on one scale.
    package static func measure(_ result: Image, against original: Image) -> (meanSquaredError: Double, quality: Int) {
        precondition(result.width == original.width && result.height == original.height)
        let n = original.width * original.height
        if n == 0 { return (0, 100) }
        var total = 0.0
        original.pixels.withUnsafeBufferPointer { o in
            result.pixels.withUnsafeBufferPointer { r in
                var row = 0.0
                for i in 0..<n {
                    let j = i * 4
                    let a = ErrorSpace.point(o[j], o[j + 1], o[j + 2], o[j + 3])
                    let b = ErrorSpace.point(r[j], r[j + 1], r[j + 2], r[j + 3])
                    row += Double(ErrorSpace.distance2(a, b))
                    if i & 4095 == 4095 { total += row; row = 0 }
                }
                total += row
            }
        }
        let mse = total / 3 / Double(n)
        return (mse, Quality.quality(meanSquaredError: mse))
    }
}
