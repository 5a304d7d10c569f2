/// An 8-bit sRGB image with straight (non-premultiplied) alpha.
///
/// `pixels` holds `width * height * 4` bytes, RGBA order, rows top to bottom with no padding.
/// This is the one public pixel format every stage speaks; premultiplied or float forms stay
/// internal to the stage that needs them.
public struct Image: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// An image over the given bytes. `pixels.count` must be `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "Image: \(pixels.count) bytes for \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A fully transparent image (every byte zero).
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// Bytes per row (`width * 4`).
    @inlinable public var bytesPerRow: Int { width * 4 }

    /// The pixel at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> RGBA {
        get {
            let i = (y * width + x) * 4
            return RGBA(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
        }
        set {
            let i = (y * width + x) * 4
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g
            pixels[i + 2] = newValue.b; pixels[i + 3] = newValue.a
        }
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBytes { Image.isOpaque(rgba: $0) }
    }

    /// True when every pixel of the RGBA bytes `rgba` has alpha 255.
    public static func isOpaque(rgba p: UnsafeRawBufferPointer) -> Bool {
        // Eight pixels at a time: four 8-byte words ANDed, then their alpha bytes (bytes 3 and
        // 7 of a little-endian word) masked; then the rest one by one.
        let alpha: UInt64 = 0xFF00_0000_FF00_0000
        func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        var i = 0
        while i + 32 <= p.count {
            if word(i) & word(i + 8) & word(i + 16) & word(i + 24) & alpha != alpha { return false }
            i += 32
        }
        i += 3
        while i < p.count { if p[i] != 255 { return false }; i += 4 }
        return true
    }

    /// True when every pixel has r == g == b.
    public var isGray: Bool {
        pixels.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i] != p[i + 1] || p[i] != p[i + 2] { return false }
                i += 4
            }
            return true
        }
    }

    /// Sets the colour of every fully transparent pixel to zero, so that invisible colour neither
    /// costs bytes nor leaks into averages.
    public mutating func zeroTransparentColor() {
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                if p[i + 3] == 0 { p[i] = 0; p[i + 1] = 0; p[i + 2] = 0 }
                i += 4
            }
        }
    }
}
