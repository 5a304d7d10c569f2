import ImageCore

/// The smallest lossless truecolour PNG form of some RGBA pixels: gray (0), RGB (2),
/// gray+alpha (4) or RGBA (6), always 8 bits per sample.
struct TruecolorLayout {
    /// PNG colour type: 0, 2, 4 or 6.
    let colorType: Int

    var channels: Int { [0: 1, 2: 3, 4: 2, 6: 4][colorType]! }
    var hasAlpha: Bool { colorType == 4 || colorType == 6 }

    init(colorType: Int) { self.colorType = colorType }

    /// The form that holds every one of `images` exactly.
    init(fitting images: [Image]) {
        let opaque = images.allSatisfy(\.isOpaque)
        let gray = images.allSatisfy(\.isGray)
        colorType = gray ? (opaque ? 0 : 4) : (opaque ? 2 : 6)
    }

    /// The raster of `rgba` (`width × height` pixels, 4 bytes each) in this form.
    func raster(_ rgba: [UInt8], width: Int, height: Int) -> Raster {
        let ch = channels
        var out = [UInt8](repeating: 0, count: width * height * ch)
        rgba.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                TruecolorLayout.convert(s.baseAddress, pixels: width * height, colorType: colorType, into: o.baseAddress)
            }
        }
        return Raster(width: width, height: height, bitsPerPixel: ch * 8, data: out)
    }

    @inline(never)
    private static func convert(_ s: UnsafePointer<UInt8>?, pixels n: Int, colorType: Int, into o: UnsafeMutablePointer<UInt8>?) {
        guard let s, let o else { return }
        var i = 0
        switch colorType {
        case 0:
            while i < n { o[i] = s[4 * i]; i &+= 1 }
        case 4:
            while i < n { o[2 * i] = s[4 * i]; o[2 * i + 1] = s[4 * i + 3]; i &+= 1 }
        case 2:
            while i < n { o[3 * i] = s[4 * i]; o[3 * i + 1] = s[4 * i + 1]; o[3 * i + 2] = s[4 * i + 2]; i &+= 1 }
        default:
            o.update(from: s, count: 4 * n)
        }
    }
}
