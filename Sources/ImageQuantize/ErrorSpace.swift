import ImageCore

/// The space in which every colour distance of this stage is measured.
///
/// ## Derivation
/// Let a pixel have straight colour `c` (0…255 per channel) and alpha `α = A/255` (A in 0…255), and
/// let `P = c·α` be its premultiplied colour. Composited over black it shows `P`; over white it
/// shows `P + 255·(1 − α) = P + 255 − A`. For a pixel `p` and a palette entry `q`, with
/// `ΔP = P_p − P_q` and `ΔA = A_p − A_q`, the squared differences per channel are
///
///     over black: ΔP²          over white: (ΔP − ΔA)²
///
/// Their mean over the two backgrounds is `½ΔP² + ½(ΔP − ΔA)² = (ΔP − ½ΔA)² + ¼ΔA²`, and summed
/// over the three channels
///
///     E(p, q) = Σ_c (ΔP_c − ½ΔA)² + ¾·ΔA²
///
/// which is a plain squared Euclidean distance between the points
///
///     x = (P_r − A/2, P_g − A/2, P_b − A/2, A·√¾)
///
/// The first three coordinates are the colour seen over mid-grey (minus 127.5), the fourth is the
/// half-difference between the white and black composites (per channel it is ½ΔA, three
/// channels give ¾ΔA²). Because the metric is Euclidean there, means, variances, median cut,
/// k-means and k-d trees all work unchanged on these points. Colour under alpha 0 vanishes
/// (P = 0, A = 0): every fully transparent pixel is the origin.
///
/// `E` ranges over 0…3·255²; the per-pixel figure reported to users is `E / 3` (0…255², the same
/// scale as a per-channel MSE of opaque images).
enum ErrorSpace {
    /// √¾: weight of the alpha axis.
    static let alphaScale: Float = 0.866_025_4

    /// The point of a straight-alpha 8-bit colour.
    @inline(__always)
    static func point(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> SIMD4<Float> {
        let af = Float(a)
        let k = af * (1 / 255 as Float)
        let half = af * 0.5
        return SIMD4<Float>(Float(r) * k - half, Float(g) * k - half, Float(b) * k - half, af * alphaScale)
    }

    @inline(__always)
    static func point(_ c: RGBA) -> SIMD4<Float> { point(c.r, c.g, c.b, c.a) }

    /// The point of a colour packed as `0xRRGGBBAA`.
    @inline(__always)
    static func point(packed v: UInt32) -> SIMD4<Float> {
        point(UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16),
              UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v))
    }

    @inline(__always)
    static func distance2(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
        let d = a - b
        return (d * d).sum()
    }

    /// Moves a point into the set of colours that exist (0 ≤ A ≤ 255, 0 ≤ P ≤ A), so that
    /// diffused error cannot ask for impossible colours and grow without bound.
    @inline(__always)
    static func clampToGamut(_ x: SIMD4<Float>) -> SIMD4<Float> {
        var a = x.w * (1 / alphaScale)
        if a < 0 { a = 0 } else if a > 255 { a = 255 }
        let h = a * 0.5
        var m = SIMD4<Float>(x.x, x.y, x.z, 0)
        let lo = SIMD4<Float>(repeating: -h), hi = SIMD4<Float>(repeating: h)
        m.replace(with: lo, where: m .< lo)
        m.replace(with: hi, where: m .> hi)
        return SIMD4<Float>(m.x, m.y, m.z, a * alphaScale)
    }

    /// The 8-bit straight-alpha colour nearest to a point: alpha rounded first, then the colour
    /// that best matches the point's grey-composite coordinates at that alpha.
    /// - Parameter opaque: forces alpha 255 (opaque input must give an opaque palette).
    static func color(of x: SIMD4<Float>, opaque: Bool) -> RGBA {
        var af = (x.w / alphaScale).rounded()
        if opaque { af = 255 }
        if af <= 0 { return RGBA(0, 0, 0, 0) }
        if af > 255 { af = 255 }
        let half = af * 0.5
        let scale = 255 / af
        func channel(_ m: Float) -> UInt8 {
            let c = ((m + half) * scale).rounded()
            return c <= 0 ? 0 : c >= 255 ? 255 : UInt8(c)
        }
        return RGBA(channel(x.x), channel(x.y), channel(x.z), UInt8(af))
    }
}
