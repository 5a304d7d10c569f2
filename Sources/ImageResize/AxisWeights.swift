/// How the output pixels of one axis draw on the source pixels of that axis: for every output
/// index, the first source index and the weights of consecutive source pixels.
///
/// The geometry is the one of the quality judge: output pixel `j` covers the source interval
/// `[(j - offset) / scale, (j + 1 - offset) / scale]`, clipped to the visible source window.
/// Weights are not renormalised, so an output pixel that is only partly covered by the source
/// gets partial alpha (the fractional edge of a centred `contain` fit).
struct AxisWeights: Equatable {
    /// How an enlarging axis (`scale > 1`) reads the clamped linear (tent) reconstruction of the
    /// source.
    enum Enlargement: Equatable, Sendable {
        /// Averaged over each output pixel's footprint: the sticker fit's rule (the quality
        /// judge's geometry); 2–3 taps.
        case footprintAverage
        /// Taken at each output pixel's centre (classic bilinear, 2 taps), scaled by the part of
        /// the pixel the source covers: a little sharper. Rectangular resizes (icons, previews).
        case centreSample
    }

    /// Number of output pixels on this axis.
    let outputCount: Int
    /// Absolute source index of the first tap of each output pixel (0 when it has no taps).
    var starts: [Int]
    /// Number of taps of each output pixel (0 for padding).
    var counts: [Int]
    /// Taps per output pixel in `weights` (the largest count, at least 1).
    let stride: Int
    /// `outputCount * stride` weights, zero after each pixel's count.
    var weights: [Double]
    /// Source range `[minSource, maxSource)` any tap touches (empty when nothing is visible).
    let minSource: Int
    let maxSource: Int

    /// Weights for `outputCount` pixels drawing on `sourceCount` source pixels that start at
    /// absolute index `origin`, where source coordinate `x` lands at output coordinate
    /// `x * scale + offset`. Only the source window `[windowStart, windowEnd]` (relative
    /// coordinates, default the whole source) is visible.
    ///
    /// `scale <= 1` (reduction or identity) uses exact area coverage (box filter). `scale > 1`
    /// (enlargement) reads a clamped linear (tent) reconstruction as `enlargement` says: by
    /// default integrated over each output pixel's footprint, which is bilinear interpolation
    /// with the same fractional edges.
    init(sourceCount n: Int, origin: Int = 0, outputCount: Int, scale s: Double, offset off: Double,
         windowStart: Double? = nil, windowEnd: Double? = nil, enlargement: Enlargement = .footprintAverage) {
        let lo = max(windowStart ?? 0, 0)
        let hi = min(windowEnd ?? Double(n), Double(n))
        let enlarge = s > 1
        var taps: [[(Int, Double)]] = []
        taps.reserveCapacity(max(outputCount, 0))
        for j in 0..<max(outputCount, 0) {
            let a = (Double(j) - off) / s
            let b = (Double(j + 1) - off) / s
            let a0 = max(a, lo), b0 = min(b, hi)
            var row: [(Int, Double)] = []
            if b0 > a0 && n > 0 {
                if enlarge && enlargement == .centreSample {
                    // The centre (kept inside the covered part), between two source centres
                    // clamped to the source; the covered fraction gives a clipped edge its alpha.
                    let coverage = (b0 - a0) * s
                    let c = min(max((Double(j) + 0.5 - off) / s, a0), b0) - 0.5
                    let k0 = Int(c.rounded(.down)), t = c - Double(k0)
                    let lo = min(max(k0, 0), n - 1), hi = min(max(k0 + 1, 0), n - 1)
                    row = lo == hi ? [(lo, coverage)] : [(lo, (1 - t) * coverage), (hi, t * coverage)]
                } else if enlarge {
                    let k0 = max(0, Int((a0 - 0.5).rounded(.down)))
                    let k1 = min(n - 1, Int((b0 + 0.5).rounded(.up)))
                    if k0 <= k1 {
                        for k in k0...k1 {
                            let w = AxisWeights.tentIntegral(k, n, a0, b0) * s
                            if w > 1e-12 { row.append((k, w)) }
                        }
                    }
                } else {
                    let k0 = Int(a0.rounded(.down)), k1 = Int(b0.rounded(.up))
                    for k in k0..<max(k1, k0) where k < n {
                        let w = (min(b0, Double(k + 1)) - max(a0, Double(k))) * s
                        if w > 0 { row.append((k, w)) }
                    }
                }
            }
            taps.append(row)
        }
        let stride = max(1, taps.map(\.count).max() ?? 1)
        var starts = [Int](repeating: 0, count: taps.count)
        var counts = [Int](repeating: 0, count: taps.count)
        var weights = [Double](repeating: 0, count: taps.count * stride)
        var minSource = Int.max, maxSource = Int.min
        for (j, row) in taps.enumerated() where !row.isEmpty {
            starts[j] = origin + row[0].0
            counts[j] = row.count
            for (t, tap) in row.enumerated() { weights[j * stride + t] = tap.1 }
            minSource = min(minSource, origin + row[0].0)
            maxSource = max(maxSource, origin + row[row.count - 1].0 + 1)
        }
        if minSource > maxSource { minSource = origin; maxSource = origin }
        self.outputCount = taps.count
        self.starts = starts
        self.counts = counts
        self.stride = stride
        self.weights = weights
        self.minSource = minSource
        self.maxSource = maxSource
    }

    /// True when some output pixel on this axis sees the source.
    var isEmpty: Bool { minSource >= maxSource }

    /// ∫ over `[a, b]` of the linear-interpolation basis of source pixel `k` out of `n`: a tent of
    /// half-width 1 centred on the pixel centre `k + 0.5`, held at 1 beyond the first and last
    /// centres so that the bases sum to 1 everywhere on `[0, n]`.
    static func tentIntegral(_ k: Int, _ n: Int, _ a: Double, _ b: Double) -> Double {
        guard b > a else { return 0 }
        let c = Double(k) + 0.5
        // Flat parts of the edge pixels.
        var flat = 0.0
        var ta = a, tb = b
        if k == 0 {
            flat += max(0, min(b, c) - a)
            ta = max(a, c)
        }
        if k == n - 1 {
            flat += max(0, b - max(a, c))
            tb = min(b, c)
        }
        guard tb > ta else { return flat }
        return flat + tentPrimitive(tb - c) - tentPrimitive(ta - c)
    }

    /// Antiderivative of `max(0, 1 - |u|)`, 0 at -∞.
    static func tentPrimitive(_ u: Double) -> Double {
        if u <= -1 { return 0 }
        if u <= 0 { return (u + 1) * (u + 1) / 2 }
        if u <= 1 { return 1 - (1 - u) * (1 - u) / 2 }
        return 1
    }
}
