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

    private static func pack(_ src: UnsafePointer<UInt8>, count: Int, bitDepth: Int, into dst: UnsafeMutablePointer<UInt8>) {
        let perByte = 8 / bitDepth
        let mask = UInt8((1 << bitDepth) - 1)
        var i = 0
        var o = 0
        while i < count {
            var byte: UInt8 = 0
            var shift = 8 - bitDepth
            var k = 0
            while k < perByte && i < count {
                byte |= (src[i] & mask) << UInt8(shift)
                shift -= bitDepth
                k &+= 1
                i &+= 1
            }
            dst[o] = byte
            o &+= 1
        }
    }
}
