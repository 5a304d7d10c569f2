/// Converts unfiltered scanlines of every colour type and bit depth to 8-bit RGBA. One small
/// pointer loop per layout; 16-bit samples round to 8 bits as (v·255 + 32767) / 65535.
enum PNGPixelExpander {
    /// 16-bit sample to 8 bits, correctly rounded.
    @inline(__always)
    static func to8(_ hi: UInt8, _ lo: UInt8) -> UInt8 {
        let v = UInt32(hi) << 8 | UInt32(lo)
        return UInt8(truncatingIfNeeded: (v * 255 + 32767) / 65535)
    }

    /// Palette indices or grey samples of `depth` 1, 2, 4 or 8 bits, through a 256-entry table
    /// of RGBA pixels (native-endian UInt32).
    static func lookup(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int, depth: Int, table: UnsafePointer<UInt32>) {
        let out = UnsafeMutableRawPointer(dst)
        if depth == 8 {
            var i = 0
            while i < width {
                out.storeBytes(of: table[Int(src[i])], toByteOffset: i &* 4, as: UInt32.self)
                i += 1
            }
            return
        }
        let mask = (1 << depth) - 1
        var x = 0, s = 0
        while x < width {
            let byte = Int(src[s])
            s += 1
            var shift = 8 - depth
            while shift >= 0 && x < width {
                out.storeBytes(of: table[(byte >> shift) & mask], toByteOffset: x &* 4, as: UInt32.self)
                x += 1
                shift -= depth
            }
        }
    }

    /// The largest palette index in a row, to catch indices past the end of PLTE.
    static func maxIndex(_ src: UnsafePointer<UInt8>, width: Int, depth: Int) -> Int {
        var m = 0
        if depth == 8 {
            var i = 0
            while i < width { m = max(m, Int(src[i])); i += 1 }
            return m
        }
        let mask = (1 << depth) - 1
        var x = 0, s = 0
        while x < width {
            let byte = Int(src[s])
            s += 1
            var shift = 8 - depth
            while shift >= 0 && x < width {
                m = max(m, (byte >> shift) & mask)
                x += 1
                shift -= depth
            }
        }
        return m
    }

    /// 16-bit grey; `key` is the tRNS grey value (transparent), or -1.
    static func gray16(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int, key: Int) {
        var i = 0
        while i < width {
            let hi = src[2 &* i], lo = src[2 &* i &+ 1]
            let g = to8(hi, lo)
            let o = 4 &* i
            dst[o] = g; dst[o + 1] = g; dst[o + 2] = g
            dst[o + 3] = (Int(hi) << 8 | Int(lo)) == key ? 0 : 255
            i += 1
        }
    }

    /// 8-bit RGB; `key` is the tRNS colour packed as r<<16|g<<8|b, or -1.
    static func rgb8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int, key: Int) {
        var i = 0
        while i < width {
            let s = 3 &* i, o = 4 &* i
            let r = src[s], g = src[s + 1], b = src[s + 2]
            dst[o] = r; dst[o + 1] = g; dst[o + 2] = b
            dst[o + 3] = (Int(r) << 16 | Int(g) << 8 | Int(b)) == key ? 0 : 255
            i += 1
        }
    }

    /// 16-bit RGB; the key compares the full 16-bit samples (r<<32|g<<16|b), or is -1.
    static func rgb16(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int, key: Int) {
        var i = 0
        while i < width {
            let s = 6 &* i, o = 4 &* i
            dst[o] = to8(src[s], src[s + 1])
            dst[o + 1] = to8(src[s + 2], src[s + 3])
            dst[o + 2] = to8(src[s + 4], src[s + 5])
            let raw = Int(src[s]) << 40 | Int(src[s + 1]) << 32 | Int(src[s + 2]) << 24
                | Int(src[s + 3]) << 16 | Int(src[s + 4]) << 8 | Int(src[s + 5])
            dst[o + 3] = raw == key ? 0 : 255
            i += 1
        }
    }

    static func grayAlpha8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int) {
        var i = 0
        while i < width {
            let g = src[2 &* i], o = 4 &* i
            dst[o] = g; dst[o + 1] = g; dst[o + 2] = g; dst[o + 3] = src[2 &* i &+ 1]
            i += 1
        }
    }

    static func grayAlpha16(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int) {
        var i = 0
        while i < width {
            let s = 4 &* i, o = 4 &* i
            let g = to8(src[s], src[s + 1])
            dst[o] = g; dst[o + 1] = g; dst[o + 2] = g; dst[o + 3] = to8(src[s + 2], src[s + 3])
            i += 1
        }
    }

    static func rgba8(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int) {
        dst.update(from: src, count: width &* 4)
    }

    static func rgba16(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int) {
        var i = 0
        let n = width &* 4
        while i < n {
            dst[i] = to8(src[2 &* i], src[2 &* i &+ 1])
            i += 1
        }
    }

    /// Copies a pass's RGBA row to every `dx`-th pixel of an image row, from column `x0`.
    static func scatter(_ src: UnsafePointer<UInt8>, _ dstRow: UnsafeMutablePointer<UInt8>, width: Int, x0: Int, dx: Int) {
        let s = UnsafeRawPointer(src)
        let d = UnsafeMutableRawPointer(dstRow)
        var i = 0
        while i < width {
            d.storeBytes(of: s.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self),
                         toByteOffset: (x0 &+ i &* dx) &* 4, as: UInt32.self)
            i += 1
        }
    }

    /// Maps the R, G and B bytes of `count` pixels through `table` (256 entries); alpha stays.
    static func mapColor(_ pixels: UnsafeMutablePointer<UInt8>, count: Int, table: UnsafePointer<UInt8>) {
        var i = 0
        let n = count &* 4
        while i < n {
            pixels[i] = table[Int(pixels[i])]
            pixels[i + 1] = table[Int(pixels[i + 1])]
            pixels[i + 2] = table[Int(pixels[i + 2])]
            i += 4
        }
    }
}
