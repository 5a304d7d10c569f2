import ImageCore

/// How one file's samples become RGBA: the row layout plus the palette/grey lookup table and
/// tRNS colour key, built once per file.
struct PNGPixelFormat {
    enum Layout { case lookup, gray16, rgb8, rgb16, grayAlpha8, grayAlpha16, rgba8, rgba16 }

    let header: PNGHeader
    let layout: Layout
    /// 256 RGBA pixels (native-endian UInt32) for palette indices and grey of ≤ 8 bits. Palette
    /// entries past the end of PLTE are opaque black (what lenient mode shows).
    let table: [UInt32]
    /// Entries in PLTE; indices at or past it are errors in strict mode.
    let paletteCount: Int
    /// tRNS colour key for 16-bit grey and RGB (see `PNGPixelExpander`), or -1.
    let key: Int

    init(header: PNGHeader, palette: [UInt8]?, transparency: [UInt8]?) {
        self.header = header
        let depth = header.bitDepth
        var table = [UInt32](repeating: PNGPixelFormat.pack(0, 0, 0, 255), count: 256)
        var key = -1
        var paletteCount = 256
        let trns = transparency ?? []
        switch header.colorType {
        case .indexed:
            let pal = palette ?? []
            paletteCount = pal.count / 3
            for i in 0..<paletteCount {
                table[i] = PNGPixelFormat.pack(pal[3 * i], pal[3 * i + 1], pal[3 * i + 2], i < trns.count ? trns[i] : 255)
            }
            layout = .lookup
        case .grayscale:
            if trns.count == 2 { key = Int(trns[0]) << 8 | Int(trns[1]) }
            if depth <= 8 {
                let maxValue = (1 << depth) - 1
                for v in 0...maxValue {
                    let g = UInt8(v * 255 / maxValue)
                    table[v] = PNGPixelFormat.pack(g, g, g, v == key ? 0 : 255)
                }
                layout = .lookup
            } else {
                layout = .gray16
            }
        case .truecolor:
            if trns.count == 6 {
                if depth == 8 {
                    // An 8-bit image's key samples are 16-bit fields; only values ≤ 255 can match.
                    if trns[0] == 0 && trns[2] == 0 && trns[4] == 0 {
                        key = Int(trns[1]) << 16 | Int(trns[3]) << 8 | Int(trns[5])
                    }
                } else {
                    key = trns.reduce(0) { $0 << 8 | Int($1) }
                }
            }
            layout = depth == 8 ? .rgb8 : .rgb16
        case .grayscaleAlpha:
            layout = depth == 8 ? .grayAlpha8 : .grayAlpha16
        case .truecolorAlpha:
            layout = depth == 8 ? .rgba8 : .rgba16
        }
        self.table = table
        self.key = key
        self.paletteCount = paletteCount
    }

    /// A pixel whose bytes in memory are r, g, b, a on any endianness.
    static func pack(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> UInt32 {
        UInt32(littleEndian: UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24)
    }
}
