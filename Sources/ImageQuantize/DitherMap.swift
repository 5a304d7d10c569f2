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
        var out = [UInt8](repeating: 0, count: n)
        image.pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { o in
                rows(px.baseAddress!, o.baseAddress!, w, h, from: 0, to: h)
            }
        }
        return out
    }

    /// Rows `y0..<y1` of the map of a `w`×`h` image (the same bytes as those rows of `make`), so
    /// that bands of one frame can be mapped on different threads.
    static func rows(_ px: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ w: Int, _ h: Int,
                     from y0: Int, to y1: Int) {
        table.withUnsafeBufferPointer { t in
            overGreyTable.withUnsafeBufferPointer { g in
                rows(px, out, t.baseAddress!, g.baseAddress!, w, h, y0, y1)
            }
        }
    }

    /// Streams the image through three-row rings of horizontal max/min, so the scratch memory is
    /// a few rows (cache-resident, no page faults) instead of three image-sized buffers.
    static func rows(_ px: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ table: UnsafePointer<UInt8>,
                     _ greyTable: UnsafePointer<UInt8>, _ w: Int, _ h: Int, _ y0: Int, _ y1: Int) {
        guard y0 < y1 else { return }
        let rowBytes = w * 4
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 8)
        defer { scratch.deallocate() }
        let grey = scratch, range = scratch + rowBytes
        let hmax = scratch + 2 * rowBytes, hmin = scratch + 5 * rowBytes
        func prepare(_ y: Int) {
            let slot = (y % 3) * rowBytes
            overGrey(px + y * rowBytes, grey, w, greyTable)
            horizontalRange(grey, hmax + slot, hmin + slot, w, 1)
        }
        if y0 > 0 { prepare(y0 - 1) }
        prepare(y0)
        for y in y0..<y1 {
            if y + 1 < h { prepare(y + 1) }
            let up = (max(y - 1, 0) % 3) * rowBytes, mid = (y % 3) * rowBytes, down = (min(y + 1, h - 1) % 3) * rowBytes
            byteRange(hmax + up, hmax + mid, hmax + down, hmin + up, hmin + mid, hmin + down, range, rowBytes)
            let o = out + y * w
            for x in 0..<w {
                let r = max(max(range[x &* 4], range[x &* 4 &+ 1]), max(range[x &* 4 &+ 2], range[x &* 4 &+ 3]))
                o[x] = table[Int(r)]
            }
        }
    }

    /// `overGreyTable[a << 8 | c]` = `(c·a + 128·(255 − a) + 127) / 255`: colour over mid-grey, so
    /// invisible colour under low alpha does not count as contrast.
    static let overGreyTable: [UInt8] = (0..<65536).map { i in
        let a = i >> 8, c = i & 255
        return UInt8((c * a + 128 * (255 - a) + 127) / 255)
    }

    static func overGrey(_ px: UnsafePointer<UInt8>, _ g: UnsafeMutablePointer<UInt8>, _ n: Int,
                         _ t: UnsafePointer<UInt8>) {
        for i in 0..<n {
            let a = Int(px[i &* 4 &+ 3])
            let row = t + (a << 8)
            g[i &* 4] = row[Int(px[i &* 4])]
            g[i &* 4 &+ 1] = row[Int(px[i &* 4 &+ 1])]
            g[i &* 4 &+ 2] = row[Int(px[i &* 4 &+ 2])]
            g[i &* 4 &+ 3] = UInt8(truncatingIfNeeded: a)
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

    /// Per byte, max of three rows minus min of three rows (a loop the compiler vectorises).
    static func byteRange(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ c: UnsafePointer<UInt8>,
                          _ d: UnsafePointer<UInt8>, _ e: UnsafePointer<UInt8>, _ f: UnsafePointer<UInt8>,
                          _ out: UnsafeMutablePointer<UInt8>, _ n: Int) {
        for i in 0..<n {
            out[i] = max(max(a[i], b[i]), c[i]) &- min(min(d[i], e[i]), f[i])
        }
    }
}
