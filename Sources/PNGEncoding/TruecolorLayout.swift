import ImageCore

/// The smallest lossless truecolour PNG form of some RGBA pixels: gray, RGB, gray+alpha or
/// RGBA, always 8 bits per sample.
struct TruecolorLayout {
    /// `.gray`, `.rgb`, `.grayAlpha` or `.rgba`.
    let colorType: PNGColorType

    /// A layout of the given form; `colorType` must not be `.palette`.
    init(colorType: PNGColorType) {
        precondition(colorType != .palette, "a truecolour layout cannot be a palette")
        self.colorType = colorType
    }

    /// The form that holds every one of `images` exactly.
    init(fitting images: [Image]) {
        let opaque = images.allSatisfy(\.isOpaque)
        let gray = images.allSatisfy(\.isGray)
        colorType = gray ? (opaque ? .gray : .grayAlpha) : (opaque ? .rgb : .rgba)
    }

    /// The form that holds every frame of `frames` (RGBA), walking them once and, after the
    /// first, only the rows that changed.
    init(fitting frames: any FrameSequence) throws {
        var opaque = true, gray = true
        let rowBytes = frames.width * 4
        try frames.forEach { _, samples, damage in
            guard opaque || gray, let base = samples.baseAddress else { return }
            let rows: Range<Int> = damage.map { $0.firstRow..<max($0.firstRow, $0.endRow) } ?? 0..<frames.height
            for y in rows where damage?.span(y) != nil || damage == nil {
                let row = base + y * rowBytes
                for x in 0..<frames.width {
                    let p = row + x * 4
                    let r = p.load(fromByteOffset: 0, as: UInt8.self), g = p.load(fromByteOffset: 1, as: UInt8.self)
                    let b = p.load(fromByteOffset: 2, as: UInt8.self), a = p.load(fromByteOffset: 3, as: UInt8.self)
                    if a != 255 { opaque = false }
                    if r != g || g != b { gray = false }
                }
            }
        }
        colorType = gray ? (opaque ? .gray : .grayAlpha) : (opaque ? .rgb : .rgba)
    }

    /// IHDR of a `width × height` image in this form.
    func header(width: Int, height: Int) -> PNGHeader {
        PNGHeader(width: width, height: height, bitDepth: 8, colorType: colorType)
    }

    /// The raster of `rgba` (`width × height` pixels, 4 bytes each) in this form.
    func raster(_ rgba: [UInt8], width: Int, height: Int) -> Raster {
        let ch = colorType.channels
        var out = [UInt8](repeating: 0, count: width * height * ch)
        rgba.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                TruecolorLayout.convert(s.baseAddress, pixels: width * height, colorType: colorType, into: o.baseAddress)
            }
        }
        return Raster(width: width, height: height, bitsPerPixel: ch * 8, data: out)
    }

    @inline(never)
    private static func convert(_ s: UnsafePointer<UInt8>?, pixels n: Int, colorType: PNGColorType, into o: UnsafeMutablePointer<UInt8>?) {
        guard let s, let o else { return }
        var i = 0
        switch colorType {
        case .gray:
            while i < n { o[i] = s[4 * i]; i &+= 1 }
        case .grayAlpha:
            while i < n { o[2 * i] = s[4 * i]; o[2 * i + 1] = s[4 * i + 3]; i &+= 1 }
        case .rgb:
            while i < n { o[3 * i] = s[4 * i]; o[3 * i + 1] = s[4 * i + 1]; o[3 * i + 2] = s[4 * i + 2]; i &+= 1 }
        case .rgba:
            o.update(from: s, count: 4 * n)
        case .palette:
            preconditionFailure("a truecolour layout is never a palette (init checks it)")
        }
    }
}
