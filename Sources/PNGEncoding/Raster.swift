/// Unfiltered PNG scanlines: `height` rows of `rowBytes` bytes of packed samples, no filter
/// bytes, no padding between rows.
struct Raster {
    let width: Int
    let height: Int
    /// 1, 2, 4 or 8 (palette or gray), 16 (gray+alpha), 24 (RGB) or 32 (RGBA).
    let bitsPerPixel: Int
    let rowBytes: Int
    var data: [UInt8]

    /// The distance in bytes between a byte and the one the Sub/Avg/Paeth filters use as "left":
    /// one pixel, or one byte when pixels are smaller than a byte.
    var filterUnit: Int { max(1, bitsPerPixel / 8) }

    init(width: Int, height: Int, bitsPerPixel: Int, data: [UInt8]) {
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        self.rowBytes = (width * bitsPerPixel + 7) / 8
        precondition(data.count == rowBytes * height)
        self.data = data
    }

    /// Packs one index (or gray sample) per byte into rows of `bitDepth`-bit samples, most
    /// significant bits first as PNG requires; the unused low bits of a row's last byte stay 0.
    static func packing(_ samples: UnsafePointer<UInt8>, width: Int, height: Int, bitDepth: Int) -> Raster {
        let rowBytes = (width * bitDepth + 7) / 8
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        out.withUnsafeMutableBufferPointer { o in
            if bitDepth == 8 {
                o.baseAddress!.update(from: samples, count: width * height)
            } else {
                for y in 0..<height {
                    pack(samples + y * width, count: width, bitDepth: bitDepth, into: o.baseAddress! + y * rowBytes)
                }
            }
        }
        return Raster(width: width, height: height, bitsPerPixel: bitDepth, data: out)
    }

    /// One row's samples packed `8 / bitDepth` to a byte. A loop per depth with its shifts fixed
    /// (whole bytes first, then the row's tail): the general loop, with a shift that varies per
    /// sample, took a fifth of the CPU of a 5,000-frame animation remapped to 13 colours (4-bit).
    static func pack(_ src: UnsafePointer<UInt8>, count: Int, bitDepth: Int, into dst: UnsafeMutablePointer<UInt8>) {
        let perByte = 8 / bitDepth
        let whole = count / perByte
        switch bitDepth {
        case 4:
            var o = 0
            while o < whole {
                let i = o &* 2
                dst[o] = (src[i] & 0xF) << 4 | (src[i &+ 1] & 0xF)
                o &+= 1
            }
        case 2:
            var o = 0
            while o < whole {
                let i = o &* 4
                dst[o] = (src[i] & 3) << 6 | (src[i &+ 1] & 3) << 4 | (src[i &+ 2] & 3) << 2 | (src[i &+ 3] & 3)
                o &+= 1
            }
        case 1:
            var o = 0
            while o < whole {
                let i = o &* 8
                var byte = (src[i] & 1) << 7 | (src[i &+ 1] & 1) << 6 | (src[i &+ 2] & 1) << 5 | (src[i &+ 3] & 1) << 4
                byte |= (src[i &+ 4] & 1) << 3 | (src[i &+ 5] & 1) << 2 | (src[i &+ 6] & 1) << 1 | (src[i &+ 7] & 1)
                dst[o] = byte
                o &+= 1
            }
        default:
            preconditionFailure("bit depth \(bitDepth) is not packed")
        }
        // The tail: fewer samples than a byte holds, from the most significant bits down.
        let rest = count - whole * perByte
        guard rest > 0 else { return }
        let mask = UInt8((1 << bitDepth) - 1)
        var byte: UInt8 = 0
        for k in 0..<rest {
            byte |= (src[whole * perByte + k] & mask) << UInt8(8 - bitDepth * (k + 1))
        }
        dst[whole] = byte
    }
}
