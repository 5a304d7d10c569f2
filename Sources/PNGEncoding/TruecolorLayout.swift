import ImageCore

/// The smallest lossless truecolour PNG form of some RGBA pixels: gray, RGB, gray+alpha or
/// RGBA, always 8 bits per sample; for a still whose pixels are all opaque or fully transparent,
/// gray or RGB with a colour key (tRNS) instead of an alpha sample.
struct TruecolorLayout {
    /// `.gray`, `.rgb`, `.grayAlpha` or `.rgba`.
    let colorType: PNGColorType
    /// With `.gray` or `.rgb`: the colour fully transparent pixels are written as, which no
    /// visible pixel has (tRNS). Its gray level is `r` for `.gray`.
    let key: RGBA?

    /// A layout of the given form; `colorType` must not be `.palette`.
    init(colorType: PNGColorType, key: RGBA? = nil) {
        precondition(colorType != .palette, "a truecolour layout cannot be a palette")
        precondition(key == nil || !colorType.hasAlpha, "a colour key replaces the alpha sample")
        self.colorType = colorType
        self.key = key
    }

    /// The form that holds every one of `images` exactly (no colour key: APNG frames are
    /// cropped and blended against transparent black, which a key would have to match); RGB or
    /// RGBA, never gray, unless `allowsGray`.
    init(fitting images: [Image], allowsGray: Bool = true) {
        let opaque = images.allSatisfy(\.isOpaque)
        let gray = allowsGray && images.allSatisfy(\.isGray)
        self.init(colorType: gray ? (opaque ? .gray : .grayAlpha) : (opaque ? .rgb : .rgba))
    }

    /// The form for a still: as `init(fitting:)`, except that when every pixel is opaque or fully
    /// transparent (a photo padded to a square, clip art with hard edges) the alpha sample is
    /// replaced by a colour key, a quarter (RGB) or half (gray) less data to filter and deflate.
    /// The key is the colour the transparent pixels share when no visible pixel has it, so the
    /// file decodes to exactly these pixels; otherwise an unused colour, and fully transparent
    /// pixels come back in that colour (they are invisible either way).
    init(fittingStill image: Image, allowsGray: Bool = true) {
        let scan = image.pixels.withUnsafeBufferPointer { TruecolorLayout.scan($0.baseAddress, pixels: $0.count / 4) }
        if scan.opaque || !scan.binaryAlpha || scan.visibleCount == 0 {
            self.init(fitting: [image], allowsGray: allowsGray)
            return
        }
        let gray = allowsGray && scan.visibleGray
        let t = scan.transparentColor
        let used = image.pixels.withUnsafeBufferPointer {
            TruecolorLayout.usedKeys($0.baseAddress, pixels: $0.count / 4, gray: gray, transparent: t)
        }
        let keepsTransparent = scan.uniformTransparent && (!gray || (t.r == t.g && t.g == t.b)) && !used.transparentVisible
        if keepsTransparent {
            self.init(colorType: gray ? .gray : .rgb, key: RGBA(t.r, t.g, t.b, 0))
        } else if let free = used.usedLow.firstIndex(of: false) {
            // Gray: an unused level; RGB: an unused (0, 0, b).
            let v = UInt8(free)
            self.init(colorType: gray ? .gray : .rgb, key: gray ? RGBA(v, v, v, 0) : RGBA(0, 0, v, 0))
        } else {
            self.init(fitting: [image], allowsGray: allowsGray)
        }
    }

    /// The form that holds every frame of `frames` (RGBA), walking them once and, after the
    /// first, only the rows that changed.
    init(fitting frames: any FrameSequence, allowsGray: Bool = true) throws {
        var opaque = true, gray = allowsGray
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
        self.init(colorType: gray ? (opaque ? .gray : .grayAlpha) : (opaque ? .rgb : .rgba))
    }

    /// IHDR of a `width × height` image in this form.
    func header(width: Int, height: Int) -> PNGHeader {
        PNGHeader(width: width, height: height, bitDepth: 8, colorType: colorType)
    }

    /// tRNS data for the key: a 16-bit gray level, or 16-bit red, green and blue.
    var transparency: [UInt8]? {
        guard let key else { return nil }
        return colorType == .gray ? [0, key.r] : [0, key.r, 0, key.g, 0, key.b]
    }

    /// The raster of `rgba` (`width × height` pixels, 4 bytes each) in this form.
    func raster(_ rgba: [UInt8], width: Int, height: Int) -> Raster {
        let ch = colorType.channels
        var out = [UInt8](repeating: 0, count: width * height * ch)
        rgba.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                TruecolorLayout.convert(s.baseAddress, pixels: width * height, colorType: colorType, into: o.baseAddress)
                if let key { TruecolorLayout.writeKey(key, s.baseAddress, pixels: width * height, channels: ch, into: o.baseAddress) }
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

    /// Writes the key over every fully transparent pixel of a converted gray or RGB raster.
    @inline(never)
    private static func writeKey(_ key: RGBA, _ s: UnsafePointer<UInt8>?, pixels n: Int, channels: Int, into o: UnsafeMutablePointer<UInt8>?) {
        guard let s, let o else { return }
        var i = 0
        while i < n {
            if s[4 &* i &+ 3] == 0 {
                o[channels &* i] = key.r
                if channels == 3 { o[3 &* i &+ 1] = key.g; o[3 &* i &+ 2] = key.b }
            }
            i &+= 1
        }
    }

    /// What decides a still's form, in one pass.
    struct Scan {
        var opaque = true
        /// Every alpha is 0 or 255.
        var binaryAlpha = true
        /// Every pixel with alpha > 0 has r == g == b.
        var visibleGray = true
        var visibleCount = 0
        /// The colour of the first fully transparent pixel, and whether all share it.
        var transparentColor = RGBA(0, 0, 0, 0)
        var uniformTransparent = true
    }

    @inline(never)
    static func scan(_ p: UnsafePointer<UInt8>?, pixels n: Int) -> Scan {
        var s = Scan()
        guard let p else { return s }
        var seenTransparent = false
        var i = 0
        while i < n {
            let q = p + 4 &* i
            let a = q[3]
            if a == 0 {
                s.opaque = false
                if !seenTransparent {
                    s.transparentColor = RGBA(q[0], q[1], q[2], 0)
                    seenTransparent = true
                } else if q[0] != s.transparentColor.r || q[1] != s.transparentColor.g || q[2] != s.transparentColor.b {
                    s.uniformTransparent = false
                }
            } else {
                if a != 255 { s.opaque = false; s.binaryAlpha = false }
                if q[0] != q[1] || q[1] != q[2] { s.visibleGray = false }
                s.visibleCount &+= 1
            }
            i &+= 1
        }
        return s
    }

    /// Which key candidates visible pixels use: gray levels (for a gray image), or the colours
    /// (0, 0, b); and whether some visible pixel has the colour `transparent`.
    struct UsedKeys {
        var usedLow = [Bool](repeating: false, count: 256)
        var transparentVisible = false
    }

    @inline(never)
    static func usedKeys(_ p: UnsafePointer<UInt8>?, pixels n: Int, gray: Bool, transparent t: RGBA) -> UsedKeys {
        var u = UsedKeys()
        guard let p else { return u }
        var low = [UInt8](repeating: 0, count: 256)
        var visible = false
        low.withUnsafeMutableBufferPointer { l in
            var i = 0
            while i < n {
                let q = p + 4 &* i
                if q[3] != 0 {
                    if q[0] == t.r && q[1] == t.g && q[2] == t.b { visible = true }
                    if gray {
                        l[Int(q[0])] = 1
                    } else if q[0] == 0 && q[1] == 0 {
                        l[Int(q[2])] = 1
                    }
                }
                i &+= 1
            }
        }
        u.usedLow = low.map { $0 != 0 }
        u.transparentVisible = visible
        return u
    }
}
