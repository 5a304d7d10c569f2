import ImageCore
import ImageQuantize
import StickerEncoding

/// WebP's lossy alpha for frames painted almost opaque (`AlphaProfile.isPaintedNearlyOpaque`).
/// libwebp quantizes a lossy alpha plane to `levels(alphaQuality:)` values placed by k-means from
/// evenly spread seeds, which merges the 252–254 areas of a Lottie export into 255 below alpha
/// quality 85; lossless alpha instead took nearly the whole budget (both Lottie animations of the
/// corpus at 512 px fell to colour level 0). So the alpha is quantized here to as many values,
/// with the most common nearly opaque value always one of them, and handed to libwebp as lossless
/// alpha (quality 100) — the same kind of plane libwebp would code, with the painted areas kept.
struct PaintedAlpha {
    /// How many pixels of the frames have each alpha value.
    let histogram: [Int]
    /// The most common nearly opaque alpha (`AlphaProfile.nearlyOpaqueRange`): always a level.
    let painted: UInt8

    /// Nil unless the pixels counted in `histogram` (`AlphaProfile.histogram(of:)`) are painted
    /// almost opaque.
    init?(histogram: [Int]) {
        guard AlphaProfile(histogram: histogram).isPaintedNearlyOpaque else { return nil }
        self.histogram = histogram
        painted = AlphaProfile.nearlyOpaqueRange.max { histogram[Int($0)] < histogram[Int($1)] } ?? 254
    }

    /// libwebp's number of alpha levels at a lossy alpha quality: 2 + q/5 up to 70, then 8 more
    /// per step, all 256 (lossless) at 100 (counted in decoded planes: 7 at 25, 16 at 70, 56 at
    /// 75, 136 at 85).
    static func levels(alphaQuality q: Int) -> Int {
        q >= 100 ? 256 : q <= 70 ? 2 + q / 5 : min(256, 16 + (q - 70) * 8)
    }

    /// Iterations of the k-means that places the free levels.
    static let iterations = 8

    /// The level each alpha value becomes with `count` levels: 0, 255 and `painted` fixed, the
    /// others placed by one-dimensional k-means over `histogram` from even seeds (so never fewer
    /// than those three); each value goes to its nearest level.
    func table(levels count: Int) -> [UInt8] {
        guard count < 256 else { return (0...255).map(UInt8.init) }
        let fixed: [Double] = [0, Double(painted), 255]
        let n = max(0, count - fixed.count)
        let step = 253 / Double(max(1, n))
        var free: [Double] = (0..<n).map { i -> Double in 1 + (Double(i) + 0.5) * step }
        func nearest(_ v: Double, _ levels: [Double]) -> Int {
            var best = 0
            for i in levels.indices where abs(levels[i] - v) < abs(levels[best] - v) { best = i }
            return best
        }
        for _ in 0..<Self.iterations {
            let levels = fixed + free
            var sum = [Double](repeating: 0, count: levels.count), weight = sum
            for v in 1..<255 where histogram[v] > 0 {
                let l = nearest(Double(v), levels)
                sum[l] += Double(v * histogram[v])
                weight[l] += Double(histogram[v])
            }
            for i in free.indices where weight[fixed.count + i] > 0 { free[i] = sum[fixed.count + i] / weight[fixed.count + i] }
        }
        let levels = (fixed + free).map { $0.rounded() }
        return (0...255).map { UInt8(levels[nearest(Double($0), levels)]) }
    }

    /// `frames` with every alpha mapped through `table(levels:)` for libwebp's levels at
    /// `alphaQuality`: what to encode with lossless alpha in place of that quality. Each frame is
    /// mapped as it is walked, in one buffer.
    func quantize(_ frames: StreamedFrames, alphaQuality: Int) -> StreamedFrames {
        let table = table(levels: Self.levels(alphaQuality: alphaQuality))
        var out = frames
        out.walk = { body in
            var buffer: [UInt8] = []
            try frames.walk { i, pixels in
                buffer.removeAll(keepingCapacity: true)
                buffer.append(contentsOf: pixels)
                var j = 3
                while j < buffer.count {
                    buffer[j] = table[Int(buffer[j])]
                    j += 4
                }
                try buffer.withUnsafeBytes { try body(i, $0) }
            }
        }
        return out
    }
}
