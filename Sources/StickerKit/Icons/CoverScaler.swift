/// Scales a region of an image to an exact rectangle, for icons and contact sheets: area
/// average when shrinking (exact fractional coverage), bilinear when enlarging, on premultiplied
/// colour so transparent pixels never bleed. Separable: a horizontal pass over only the rows the
/// vertical pass needs, then a vertical pass.
enum CoverScaler {
    /// Per-output taps along one axis: `count[i]` source indices from `start[i]`, with weights
    /// at `weights[i * maxTaps ..< i * maxTaps + count[i]]` summing to 1.
    struct Taps {
        var start: [Int]
        var count: [Int]
        var weights: [Float]
        var maxTaps: Int

        /// Taps mapping the source interval `[origin, origin + length)` of a `sourceLength`-pixel
        /// axis onto `outLength` pixels.
        init(sourceLength: Int, origin: Double, length: Double, outLength: Int) {
            let scale = length / Double(outLength)
            maxTaps = scale > 1 ? Int(scale.rounded(.up)) + 2 : 2
            start = [Int](repeating: 0, count: outLength)
            count = [Int](repeating: 0, count: outLength)
            weights = [Float](repeating: 0, count: outLength * maxTaps)
            for i in 0..<outLength {
                var taps: [(Int, Double)] = []
                if scale > 1 {
                    let a = max(0, origin + Double(i) * scale), b = min(Double(sourceLength), origin + Double(i + 1) * scale)
                    var j = Int(a.rounded(.down))
                    while Double(j) < b && j < sourceLength {
                        let w = min(b, Double(j + 1)) - max(a, Double(j))
                        if w > 0 { taps.append((j, w)) }
                        j += 1
                    }
                } else {
                    let c = origin + (Double(i) + 0.5) * scale - 0.5
                    let j0 = Int(c.rounded(.down)), t = c - Double(j0)
                    let lo = min(max(j0, 0), sourceLength - 1), hi = min(max(j0 + 1, 0), sourceLength - 1)
                    if lo == hi { taps = [(lo, 1)] } else { taps = [(lo, 1 - t), (hi, t)] }
                }
                if taps.isEmpty { taps = [(min(max(Int(origin), 0), sourceLength - 1), 1)] }
                taps = Array(taps.prefix(maxTaps))
                let total = taps.reduce(0) { $0 + $1.1 }
                start[i] = taps[0].0
                count[i] = taps.count
                for (k, tap) in taps.enumerated() { weights[i * maxTaps + k] = Float(tap.1 / total) }
            }
        }
    }

    /// `image`'s region `(x, y, w, h)` (source pixels, fractional) scaled to `width × height`,
    /// as premultiplied RGBA floats in 0…255.
    static func scale(_ image: Image, x: Double, y: Double, w: Double, h: Double, width: Int, height: Int) -> [Float] {
        let hx = Taps(sourceLength: image.width, origin: x, length: w, outLength: width)
        let vy = Taps(sourceLength: image.height, origin: y, length: h, outLength: height)
        // Rows the vertical pass reads.
        var firstRow = image.height, lastRow = -1
        for i in 0..<height {
            firstRow = min(firstRow, vy.start[i])
            lastRow = max(lastRow, vy.start[i] + vy.count[i] - 1)
        }
        let rows = lastRow - firstRow + 1
        var mid = [Float](repeating: 0, count: rows * width * 4)
        var out = [Float](repeating: 0, count: width * height * 4)
        image.pixels.withUnsafeBufferPointer { src in
            mid.withUnsafeMutableBufferPointer { m in
                hx.start.withUnsafeBufferPointer { st in
                    hx.count.withUnsafeBufferPointer { ct in
                        hx.weights.withUnsafeBufferPointer { wt in
                            for r in 0..<rows {
                                horizontal(src.baseAddress! + (firstRow + r) * image.width * 4, m.baseAddress! + r * width * 4,
                                           width, st.baseAddress!, ct.baseAddress!, wt.baseAddress!, hx.maxTaps)
                            }
                        }
                    }
                }
            }
        }
        mid.withUnsafeBufferPointer { m in
            out.withUnsafeMutableBufferPointer { o in
                vy.weights.withUnsafeBufferPointer { wt in
                    for i in 0..<height {
                        vertical(m.baseAddress! + (vy.start[i] - firstRow) * width * 4, width * 4, vy.count[i],
                                 wt.baseAddress! + i * vy.maxTaps, o.baseAddress! + i * width * 4, width)
                    }
                }
            }
        }
        return out
    }

    /// The centred region of `image` with the aspect ratio of `width × height`, scaled to
    /// exactly that size (cover fit): nothing is letterboxed, the overflow is cropped evenly.
    static func cover(_ image: Image, width: Int, height: Int) -> [Float] {
        let sw = Double(image.width), sh = Double(image.height)
        let s = max(Double(width) / sw, Double(height) / sh)
        let cw = min(sw, Double(width) / s), ch = min(sh, Double(height) / s)
        return scale(image, x: (sw - cw) / 2, y: (sh - ch) / 2, w: cw, h: ch, width: width, height: height)
    }

    /// Premultiplied pixels composited over an opaque colour: an opaque image.
    static func flatten(_ premultiplied: [Float], width: Int, height: Int, over background: RGBA) -> Image {
        var px = [UInt8](repeating: 255, count: width * height * 4)
        premultiplied.withUnsafeBufferPointer { p in
            px.withUnsafeMutableBufferPointer { o in
                flattenLoop(p.baseAddress!, o.baseAddress!, width * height,
                            Float(background.r), Float(background.g), Float(background.b))
            }
        }
        return Image(width: width, height: height, pixels: px)
    }

    /// Premultiplied pixels back to straight alpha.
    static func unpremultiply(_ premultiplied: [Float], width: Int, height: Int) -> Image {
        var px = [UInt8](repeating: 0, count: width * height * 4)
        premultiplied.withUnsafeBufferPointer { p in
            px.withUnsafeMutableBufferPointer { o in unpremultiplyLoop(p.baseAddress!, o.baseAddress!, width * height) }
        }
        return Image(width: width, height: height, pixels: px)
    }

    private static func horizontal(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<Float>, _ width: Int,
                                   _ start: UnsafePointer<Int>, _ count: UnsafePointer<Int>, _ weights: UnsafePointer<Float>, _ maxTaps: Int) {
        var i = 0
        while i < width {
            var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
            var k = 0
            let n = count[i]
            var s = src + start[i] * 4
            let w = weights + i * maxTaps
            while k < n {
                let alpha = Float(s[3])
                let wa = w[k] * alpha * (1.0 / 255.0)
                r += Float(s[0]) * wa; g += Float(s[1]) * wa; b += Float(s[2]) * wa; a += alpha * w[k]
                s += 4
                k += 1
            }
            dst[i * 4] = r; dst[i * 4 + 1] = g; dst[i * 4 + 2] = b; dst[i * 4 + 3] = a
            i += 1
        }
    }

    private static func vertical(_ src: UnsafePointer<Float>, _ rowStride: Int, _ n: Int, _ w: UnsafePointer<Float>,
                                 _ dst: UnsafeMutablePointer<Float>, _ width: Int) {
        var x = 0
        let m = width * 4
        while x < m {
            var acc: Float = 0
            var k = 0
            while k < n { acc += src[k * rowStride + x] * w[k]; k += 1 }
            dst[x] = acc
            x += 1
        }
    }

    private static func flattenLoop(_ p: UnsafePointer<Float>, _ o: UnsafeMutablePointer<UInt8>, _ n: Int,
                                    _ br: Float, _ bg: Float, _ bb: Float) {
        var i = 0
        while i < n {
            let keep = 1 - p[i * 4 + 3] * (1.0 / 255.0)
            o[i * 4] = clamp8(p[i * 4] + br * keep)
            o[i * 4 + 1] = clamp8(p[i * 4 + 1] + bg * keep)
            o[i * 4 + 2] = clamp8(p[i * 4 + 2] + bb * keep)
            o[i * 4 + 3] = 255
            i += 1
        }
    }

    private static func unpremultiplyLoop(_ p: UnsafePointer<Float>, _ o: UnsafeMutablePointer<UInt8>, _ n: Int) {
        var i = 0
        while i < n {
            let a = p[i * 4 + 3]
            if a >= 0.5 {
                let f = 255 / a
                o[i * 4] = clamp8(p[i * 4] * f)
                o[i * 4 + 1] = clamp8(p[i * 4 + 1] * f)
                o[i * 4 + 2] = clamp8(p[i * 4 + 2] * f)
                o[i * 4 + 3] = clamp8(a)
            }
            i += 1
        }
    }

    @inline(__always) static func clamp8(_ v: Float) -> UInt8 {
        v <= 0 ? 0 : v >= 255 ? 255 : UInt8(v + 0.5)
    }
}
