// Hand-made sticker files for the check/pack/icons tests: written here, independently of the code
// under test, so the tests can fail.

/// A minimal PNG/APNG writer: filter 0 scanlines in stored (uncompressed) deflate blocks.
enum TestPNG {
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let td = Array(type.utf8) + data
        return be32(data.count) + td + be32(Int(crc(td)))
    }

    /// zlib stream of stored blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var i = 0
        repeat {
            let n = min(65535, data.count - i)
            let final: UInt8 = i + n == data.count ? 1 : 0
            out += [final, UInt8(n & 255), UInt8(n >> 8), UInt8(~n & 255), UInt8(~n >> 8 & 255)]
            out += data[i..<(i + n)]
            i += n
        } while i < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for x in data { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        return out + be32(Int(b << 16 | a))
    }

    /// Channels per colour type (0 gray, 2 RGB, 4 gray+alpha, 6 RGBA).
    static func channels(_ colorType: Int) -> Int { [0: 1, 2: 3, 4: 2, 6: 4][colorType]! }

    static func scanlines(width: Int, height: Int, colorType: Int, pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * channels(colorType) + 1) * height)
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width { raw += pixel(x, y).prefix(channels(colorType)) }
        }
        return raw
    }

    static func ihdr(_ w: Int, _ h: Int, _ colorType: Int) -> [UInt8] {
        chunk("IHDR", be32(w) + be32(h) + [8, UInt8(colorType), 0, 0, 0])
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A still PNG; `pixel(x, y)` gives RGBA (or fewer channels, per colour type).
    static func still(_ w: Int, _ h: Int, colorType: Int = 6, extra: [UInt8] = [],
                      pixel: (Int, Int) -> [UInt8] = TestPNG.disc) -> [UInt8] {
        let raw = scanlines(width: w, height: h, colorType: colorType, pixel: pixel)
        return signature + ihdr(w, h, colorType) + extra + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// An interlaced (Adam7) RGBA still; `pixel(x, y)` gives RGBA.
    static func interlaced(_ w: Int, _ h: Int, pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] {
            guard x0 < w, y0 < h else { continue }
            for y in stride(from: y0, to: h, by: dy) {
                raw.append(0)
                for x in stride(from: x0, to: w, by: dx) { raw += pixel(x, y).prefix(4) }
            }
        }
        let header = chunk("IHDR", be32(w) + be32(h) + [8, 6, 0, 0, 1])
        return signature + header + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// Default artwork: an opaque red disc on transparency (RGBA).
    static func disc(_ x: Int, _ y: Int) -> [UInt8] { discOf(size: 408)(x, y) }

    static func discOf(size: Int) -> (Int, Int) -> [UInt8] {
        { x, y in
            let c = Double(size) / 2, r = Double(size) * 0.4
            let d = ((Double(x) + 0.5 - c) * (Double(x) + 0.5 - c) + (Double(y) + 0.5 - c) * (Double(y) + 0.5 - c)).squareRoot()
            return d < r ? [220, 30, 40, 255] : [0, 0, 0, 0]
        }
    }

    /// An APNG whose every frame covers the canvas; `delays` as (numerator, denominator).
    static func apng(_ w: Int, _ h: Int, delays: [(Int, Int)], declaredFrames: Int? = nil, plays: Int = 0,
                     pixel: ((Int, Int, Int) -> [UInt8])? = nil) -> [UInt8] {
        var out = signature + ihdr(w, h, 6)
        out += chunk("acTL", be32(declaredFrames ?? delays.count) + be32(plays))
        var seq = 0
        for (i, d) in delays.enumerated() {
            let fctl = be32(seq) + be32(w) + be32(h) + be32(0) + be32(0) + be16(d.0) + be16(d.1) + [0, 0]
            out += chunk("fcTL", fctl); seq += 1
            let raw = scanlines(width: w, height: h, colorType: 6) { x, y in
                if let pixel { return pixel(i, x, y) }
                return (x + i) % 7 == 0 ? [0, 0, 255, 255] : disc(x, y)
            }
            if i == 0 {
                out += chunk("IDAT", zlibStored(raw))
            } else {
                out += chunk("fdAT", be32(seq) + zlibStored(raw)); seq += 1
            }
        }
        return out + chunk("IEND", [])
    }
}

/// Header-level GIF and JPEG files (their image data is filler: `check` reads headers only).
enum TestFiles {
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 255), UInt8(v >> 8 & 255)] }

    static func gif(_ w: Int, _ h: Int, delaysCs: [Int], transparent: Bool) -> [UInt8] {
        var out = Array("GIF89a".utf8) + le16(w) + le16(h) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        if delaysCs.count > 1 {
            out += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        }
        for d in delaysCs {
            out += [0x21, 0xF9, 4, transparent ? 1 : 0] + le16(d) + [0, 0]
            out += [0x2C] + le16(0) + le16(0) + le16(w) + le16(h) + [0]
            out += [2, 2, 0x4C, 0x01, 0]
        }
        return out + [0x3B]
    }

    static func jpeg(_ w: Int, _ h: Int) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += [0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        out += [0xFF, 0xC0, 0, 11, 8] + TestPNG.be16(h) + TestPNG.be16(w) + [1, 1, 0x11, 0]
        out += [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 63, 0, 0x12, 0x34]
        return out + [0xFF, 0xD9]
    }
}
