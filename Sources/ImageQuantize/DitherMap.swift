import ImageCore

/// Where error diffusion may act, one byte per pixel, from the local contrast of the image.
///
/// Contrast is the largest 3×3 range (max − min) over the channels of the colour seen over
/// mid-grey, and alpha. A range of 0 means a flat area: such pixels are marked `flat` and the
/// remapper keeps them undithered when their colour has an (almost) exact palette entry, so flat
/// regions stay clean even next to dithered gradients. Small ranges (smooth gradients, where
/// banding shows) get full strength; the strength falls linearly to 0 between `fullBelow` and
/// `noneAbove` so hard edges and strong texture (which hide banding anyway) stay crisp.
enum DitherMap {
    /// Marker of a pixel whose 3×3 neighbourhood is one colour.
    static let flat: UInt8 = 255
    /// Full strength (weights are `value / full`).
    static let full: UInt8 = 254
    static let fullBelow = 20
    static let noneAbove = 96

    static let table: [UInt8] = (0..<256).map { r in
        if r == 0 { return flat }
        if r <= fullBelow { return full }
        if r >= noneAbove { return 0 }
        return UInt8(Double(full) * Double(noneAbove - r) / Double(noneAbove - fullBelow))
    }

    /// The map of one image.
    static func make(_ image: Image) -> [UInt8] {
        let w = image.width, h = image.height
        let n = w * h
        guard n > 0 else { return [] }
        var grey = [UInt8](repeating: 0, count: n * 4)
        var hmax = [UInt8](repeating: 0, count: n * 4)
        var hmin = [UInt8](repeating: 0, count: n * 4)
        var out = [UInt8](repeating: 0, count: n)
        image.pixels.withUnsafeBufferPointer { px in
            grey.withUnsafeMutableBufferPointer { g in
                hmax.withUnsafeMutableBufferPointer { mx in
                    hmin.withUnsafeMutableBufferPointer { mn in
                        out.withUnsafeMutableBufferPointer { o in
                            table.withUnsafeBufferPointer { t in
                                overGrey(px.baseAddress!, g.baseAddress!, n)
                                horizontalRange(g.baseAddress!, mx.baseAddress!, mn.baseAddress!, w, h)
                                verticalRange(mx.baseAddress!, mn.baseAddress!, o.baseAddress!, t.baseAddress!, w, h)
                            }
                        }
                    }
                }
            }
        }
        return out
    }

    /// Colour over mid-grey `(c·a + 128·(255 − a)) / 255` with alpha kept, so invisible colour
    /// under low alpha does not count as contrast.
    static func overGrey(_ px: UnsafePointer<UInt8>, _ g: UnsafeMutablePointer<UInt8>, _ n: Int) {
        for i in 0..<n {
            let a = UInt32(px[i * 4 + 3])
            let bg = 128 * (255 - a) + 127
            g[i * 4] = UInt8(truncatingIfNeeded: (UInt32(px[i * 4]) * a + bg) / 255)
            g[i * 4 + 1] = UInt8(truncatingIfNeeded: (UInt32(px[i * 4 + 1]) * a + bg) / 255)
            g[i * 4 + 2] = UInt8(truncatingIfNeeded: (UInt32(px[i * 4 + 2]) * a + bg) / 255)
            g[i * 4 + 3] = UInt8(truncatingIfNeeded: a)
        }
    }

    /// Per byte, max and min over the pixel and its left and right neighbours (edges clamp).
    static func horizontalRange(_ g: UnsafePointer<UInt8>, _ mx: UnsafeMutablePointer<UInt8>,
                                _ mn: UnsafeMutablePointer<UInt8>, _ w: Int, _ h: Int) {
        let rowBytes = w * 4
        for y in 0..<h {
            let r = g + y * rowBytes, ox = mx + y * rowBytes, on = mn + y * rowBytes
            if w == 1 {
                for c in 0..<4 { ox[c] = r[c]; on[c] = r[c] }
                continue
            }
            for c in 0..<4 {
                ox[c] = max(r[c], r[c + 4]); on[c] = min(r[c], r[c + 4])
                let l = rowBytes - 4 + c
                ox[l] = max(r[l], r[l - 4]); on[l] = min(r[l], r[l - 4])
            }
            var i = 4
            while i < rowBytes - 4 {
                let a = r[i - 4], b = r[i], c = r[i + 4]
                ox[i] = max(max(a, b), c)
                on[i] = min(min(a, b), c)
                i &+= 1
            }
        }
    }

    /// Per pixel, the largest channel range over the 3×3 neighbourhood, through `table`.
    static func verticalRange(_ mx: UnsafePointer<UInt8>, _ mn: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>,
                              _ table: UnsafePointer<UInt8>, _ w: Int, _ h: Int) {
        let rowBytes = w * 4
        for y in 0..<h {
            let up = max(y - 1, 0) * rowBytes, mid = y * rowBytes, down = min(y + 1, h - 1) * rowBytes
            let o = out + y * w
            for x in 0..<w {
                var range: UInt8 = 0
                for c in 0..<4 {
                    let i = x * 4 + c
                    let hi = max(max(mx[up + i], mx[mid + i]), mx[down + i])
                    let lo = min(min(mn[up + i], mn[mid + i]), mn[down + i])
                    range = max(range, hi &- lo)
                }
                o[x] = table[Int(range)]
            }
        }
    }
}
