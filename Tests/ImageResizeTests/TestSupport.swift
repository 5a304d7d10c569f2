import ImageCore
@testable import ImageResize

/// SplitMix64: a tiny deterministic generator so random tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A random image whose alpha is often 0 or 255 (the edge cases) and otherwise anything,
/// with random colour even under alpha 0 (which must not leak).
func randomImage(_ w: Int, _ h: Int, _ rng: inout SeededGenerator) -> Image {
    var img = Image(width: w, height: h)
    for y in 0..<h {
        for x in 0..<w {
            let pick = rng.next() % 4
            let a: UInt8 = pick == 0 ? 0 : pick == 1 ? 255 : UInt8.random(in: 0...255, using: &rng)
            img[x, y] = RGBA(.random(in: 0...255, using: &rng), .random(in: 0...255, using: &rng),
                             .random(in: 0...255, using: &rng), a)
        }
    }
    return img
}

func solidImage(_ w: Int, _ h: Int, _ c: RGBA) -> Image {
    var img = Image(width: w, height: h)
    for y in 0..<h { for x in 0..<w { img[x, y] = c } }
    return img
}

/// Premultiplied mean colour and alpha in 0…255 units.
func premultipliedMean(_ img: Image) -> SIMD4<Double> {
    var s = SIMD4<Double>()
    for y in 0..<img.height {
        for x in 0..<img.width {
            let p = img[x, y]
            let a = Double(p.a) / 255
            s += SIMD4(Double(p.r) * a, Double(p.g) * a, Double(p.b) * a, Double(p.a))
        }
    }
    return s / Double(img.width * img.height)
}

func fitStill(_ img: Image, _ options: FitOptions) -> Image {
    Resizer.fit(Animation(still: img), options: options).animation.frames[0].image
}
