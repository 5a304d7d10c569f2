import ImageCore

/// The plain, obviously correct resampler the fast kernel is tested against: Double arithmetic,
/// every output pixel the weighted sum of its source rectangle, in premultiplied alpha.
enum ReferenceResampler {
    /// Resamples `image` to `x.outputCount × y.outputCount` with the given axis weights. Source
    /// indices in the tables are absolute (a trim origin is already added). With a `background`
    /// (sRGB only) every pixel is composited over it: opaque output.
    static func resample(_ image: Image, x: AxisWeights, y: AxisWeights, linear: Bool, over background: RGBA? = nil) -> Image {
        let ow = x.outputCount, oh = y.outputCount
        var out = Image(width: ow, height: oh)
        for oy in 0..<oh {
            for ox in 0..<ow {
                var r = 0.0, g = 0.0, b = 0.0, a = 0.0
                for ty in 0..<y.counts[oy] {
                    let wy = y.weights[oy * y.stride + ty]
                    let sy = y.starts[oy] + ty
                    for tx in 0..<x.counts[ox] {
                        let w = wy * x.weights[ox * x.stride + tx]
                        let p = image[x.starts[ox] + tx, sy]
                        let alpha = Double(p.a) / 255
                        r += w * alpha * channel(p.r, linear)
                        g += w * alpha * channel(p.g, linear)
                        b += w * alpha * channel(p.b, linear)
                        a += w * alpha
                    }
                }
                if let bg = background {
                    let keep = 1 - min(a, 1)
                    out[ox, oy] = RGBA(code(r + Double(bg.r) / 255 * keep, false), code(g + Double(bg.g) / 255 * keep, false),
                                       code(b + Double(bg.b) / 255 * keep, false), 255)
                    continue
                }
                let a8 = (min(a, 1) * 255).rounded()
                guard a8 > 0 else { continue }
                out[ox, oy] = RGBA(code(r / a, linear), code(g / a, linear), code(b / a, linear), UInt8(a8))
            }
        }
        return out
    }

    private static func channel(_ v: UInt8, _ linear: Bool) -> Double {
        linear ? SRGB.decode(Double(v) / 255) : Double(v) / 255
    }

    private static func code(_ v: Double, _ linear: Bool) -> UInt8 {
        let c = min(max(v, 0), 1)
        return UInt8(((linear ? SRGB.encode(c) : c) * 255).rounded())
    }
}
