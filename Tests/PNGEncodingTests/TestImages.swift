import TestSupport
import ImageCore

/// Seeded pseudo-random numbers (`TestSupport.SplitMix64`), so every generated test image is reproducible.
struct SeededRandom {
    var generator: SplitMix64
    init(_ seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 24) }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// Generated test images: smooth gradients with noise, so filters and deflate have real work.
enum TestImages {
    enum Kind { case rgba, rgb, gray, grayAlpha }

    static func truecolor(_ kind: Kind, width: Int, height: Int, seed: UInt64) -> Image {
        var r = SeededRandom(seed)
        var img = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let base = UInt8(truncatingIfNeeded: x * 7 + y * 3) &+ r.byte() % 8
                let g1 = UInt8(truncatingIfNeeded: y * 5) &+ r.byte() % 4
                let b1 = r.byte()
                // Pixel (0, 0) is translucent so that even a 1×1 image needs its alpha channel.
                let a = x == 0 && y == 0 ? 128 : r.below(4) == 0 ? r.byte() : (r.below(2) == 0 ? 0 : 255)
                switch kind {
                case .rgba: img[x, y] = RGBA(base, g1, b1, a)
                case .rgb: img[x, y] = RGBA(base, g1, b1, 255)
                case .gray: img[x, y] = RGBA(base, base, base, 255)
                case .grayAlpha: img[x, y] = RGBA(base, base, base, a)
                }
            }
        }
        return img
    }

    /// A palette of `count` distinct entries; every third entry translucent when `translucent`.
    static func palette(_ count: Int, translucent: Bool, seed: UInt64) -> [RGBA] {
        var r = SeededRandom(seed)
        var seen = Set<UInt32>()
        var out: [RGBA] = []
        while out.count < count {
            let a: UInt8 = translucent && out.count % 3 == 1 ? (out.count % 2 == 0 ? 0 : r.byte() % 255) : 255
            let c = RGBA(r.byte(), r.byte(), r.byte(), a)
            if seen.insert(c.packed).inserted { out.append(c) }
        }
        return out
    }

    /// Indices using every palette entry at least once when the image is large enough.
    static func indexed(width: Int, height: Int, palette: [RGBA], seed: UInt64) -> IndexedImage {
        var r = SeededRandom(seed)
        var idx = [UInt8](repeating: 0, count: width * height)
        for i in 0..<idx.count {
            idx[i] = i < palette.count ? UInt8(i) : (r.below(3) == 0 ? UInt8(r.below(palette.count)) : idx[i - 1])
        }
        // Shuffle the first entries so the used-entry order is not the palette order.
        for i in stride(from: idx.count - 1, to: 0, by: -1) where i < palette.count * 2 {
            idx.swapAt(i, r.below(i + 1))
        }
        return IndexedImage(width: width, height: height, palette: palette, indices: idx)
    }
}
