import TestSupport
import ImageCore

/// Seeded draws for test images (the generator is `TestSupport.SplitMix64`).
struct SeededRandom {
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func next() -> UInt64 { generator.next() }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next() >> 56) }
    /// Uniform in 0..<n.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    /// Uniform in -amplitude...amplitude.
    mutating func jitter(_ amplitude: Int) -> Int { below(2 * amplitude + 1) - amplitude }
}

enum TestImages {
    static func clamp(_ v: Int) -> UInt8 { UInt8(max(0, min(255, v))) }

    /// A smooth diagonal colour gradient with a little seeded noise (many distinct colours).
    static func noisyGradient(width: Int, height: Int, seed: UInt64, noise: Int = 3) -> Image {
        var rng = SeededRandom(seed: seed)
        var img = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let r = x * 255 / max(width - 1, 1), g = y * 255 / max(height - 1, 1)
                let b = (x + y) * 255 / max(width + height - 2, 1)
                img[x, y] = RGBA(clamp(r + rng.jitter(noise)), clamp(g + rng.jitter(noise)), clamp(255 - b + rng.jitter(noise)))
            }
        }
        return img
    }

    /// A clean horizontal grey ramp from `from` to `to`, opaque.
    static func greyRamp(width: Int, height: Int, from: Int = 0, to: Int = 255) -> Image {
        var img = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let v = clamp(from + (to - from) * x / max(width - 1, 1))
                img[x, y] = RGBA(v, v, v)
            }
        }
        return img
    }

    /// Seeded random colours with random alpha; every tenth pixel fully transparent with junk colour.
    static func randomTranslucent(width: Int, height: Int, seed: UInt64) -> Image {
        var rng = SeededRandom(seed: seed)
        var img = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let a: UInt8 = rng.below(10) == 0 ? 0 : rng.byte()
                img[x, y] = RGBA(rng.byte(), rng.byte(), rng.byte(), a)
            }
        }
        return img
    }

    /// Pixels drawn from `colors` at seeded random.
    static func fromColors(_ colors: [RGBA], width: Int, height: Int, seed: UInt64) -> Image {
        var rng = SeededRandom(seed: seed)
        var img = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { img[x, y] = colors[rng.below(colors.count)] }
        }
        return img
    }
}

/// The error metric written out directly from its definition, independently of `ErrorSpace`:
/// squared differences of the composites over black and over white, averaged over the two
/// backgrounds and summed over the three channels.
enum DirectMetric {
    static func error(_ p: RGBA, _ q: RGBA) -> Double {
        func over(_ c: UInt8, _ a: UInt8, background: Double) -> Double {
            let al = Double(a) / 255
            return Double(c) * al + background * (1 - al)
        }
        var e = 0.0
        for (cp, cq) in [(p.r, q.r), (p.g, q.g), (p.b, q.b)] {
            let black = over(cp, p.a, background: 0) - over(cq, q.a, background: 0)
            let white = over(cp, p.a, background: 255) - over(cq, q.a, background: 255)
            e += (black * black + white * white) / 2
        }
        return e
    }

    /// Mean per-channel error (`E / 3`) of `output` against `input`.
    static func meanSquaredError(_ input: Image, _ output: Image) -> Double {
        var sum = 0.0
        for y in 0..<input.height {
            for x in 0..<input.width { sum += error(input[x, y], output[x, y]) }
        }
        return sum / 3 / Double(input.width * input.height)
    }

    /// The same error after a (2r+1)² box blur of both images' black and white composites: what
    /// an eye sees from a distance, where dithering should help.
    static func blurredError(_ input: Image, _ output: Image, radius r: Int) -> Double {
        func composites(_ img: Image) -> [[Double]] {
            var planes = [[Double]](repeating: [Double](repeating: 0, count: img.width * img.height), count: 6)
            for y in 0..<img.height {
                for x in 0..<img.width {
                    let p = img[x, y]
                    let a = Double(p.a) / 255
                    for (c, v) in [p.r, p.g, p.b].enumerated() {
                        planes[c][y * img.width + x] = Double(v) * a
                        planes[3 + c][y * img.width + x] = Double(v) * a + 255 * (1 - a)
                    }
                }
            }
            return planes
        }
        let a = composites(input), b = composites(output)
        let w = input.width, h = input.height
        var sum = 0.0, n = 0
        for y in r..<(h - r) {
            for x in r..<(w - r) {
                for plane in 0..<6 {
                    var da = 0.0
                    for dy in -r...r { for dx in -r...r { da += a[plane][(y + dy) * w + x + dx] - b[plane][(y + dy) * w + x + dx] } }
                    da /= Double((2 * r + 1) * (2 * r + 1))
                    sum += da * da
                }
                n += 1
            }
        }
        return sum / 2 / 3 / Double(n)
    }
}
