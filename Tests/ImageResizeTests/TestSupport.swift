import TestSupport
import ImageCore
@testable import ImageResize

/// The seeded generator of random tests (`TestSupport.SplitMix64`).
typealias SeededGenerator = SplitMix64

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
