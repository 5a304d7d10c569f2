import ImageCore

/// The IHDR chunk, validated: dimensions, colour type and bit depth, methods.
struct PNGHeader {
    let width: Int
    let height: Int
    let bitDepth: Int
    let colorType: PNGColorType
    let interlaced: Bool

    /// Samples per pixel.
    var channels: Int { colorType.channels }

    var bitsPerPixel: Int { channels * bitDepth }
    /// Distance in bytes to the corresponding byte of the previous pixel, as the filters use it.
    var filterStride: Int { max(1, bitsPerPixel / 8) }

    /// Parses and validates the 13 bytes of IHDR.
    init(_ d: ArraySlice<UInt8>) throws {
        func fail(_ reason: PNGError) -> ImageError { ImageError(.png, reason) }
        guard d.count == 13 else { throw fail(.headerLength(d.count)) }
        let b = Array(d)
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        width = be32(0)
        height = be32(4)
        bitDepth = Int(b[8])
        if width > 0x7FFF_FFFF || height > 0x7FFF_FFFF {
            throw fail(.sizeOverPNGMaximum(width: width, height: height))
        }
        guard let colorType = PNGColorType(rawValue: b[9]) else { throw fail(.invalidColorType(b[9])) }
        self.colorType = colorType
        if !colorType.allowedBitDepths.contains(bitDepth) {
            throw fail(.invalidBitDepth(bitDepth, colorType: colorType))
        }
        if b[10] != 0 { throw fail(.unknownCompressionMethod(b[10])) }
        if b[11] != 0 { throw fail(.unknownFilterMethod(b[11])) }
        if b[12] > 1 { throw fail(.unknownInterlaceMethod(b[12])) }
        interlaced = b[12] == 1
    }

    /// Bytes in one scanline of `width` pixels, without the filter byte; nil on overflow.
    func rowBytes(width: Int) -> Int? {
        let (bits, o) = width.multipliedReportingOverflow(by: bitsPerPixel)
        if o { return nil }
        return bits / 8 + (bits % 8 == 0 ? 0 : 1)
    }

    /// The Adam7 passes of a `width × height` image that hold pixels, with their geometry.
    static func passes(width: Int, height: Int, interlaced: Bool) -> [PNGPass] {
        if !interlaced { return [PNGPass(x0: 0, y0: 0, dx: 1, dy: 1, width: width, height: height)] }
        let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out: [PNGPass] = []
        for (x0, y0, dx, dy) in adam7 {
            let w = width > x0 ? (width - x0 + dx - 1) / dx : 0
            let h = height > y0 ? (height - y0 + dy - 1) / dy : 0
            if w > 0 && h > 0 { out.append(PNGPass(x0: x0, y0: y0, dx: dx, dy: dy, width: w, height: h)) }
        }
        return out
    }

    /// Decompressed size of a `width × height` image: every row of every pass plus its filter
    /// byte. Nil on overflow.
    func scanlineBytes(width: Int, height: Int) -> Int? {
        var total = 0
        for pass in PNGHeader.passes(width: width, height: height, interlaced: interlaced) {
            guard let rb = rowBytes(width: pass.width) else { return nil }
            let (perPass, o1) = (rb + 1).multipliedReportingOverflow(by: pass.height)
            let (sum, o2) = total.addingReportingOverflow(perPass)
            if o1 || o2 { return nil }
            total = sum
        }
        return total
    }
}
