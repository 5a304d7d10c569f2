import ImageCore

/// Builds a palette from a histogram: exact when the colours fit, otherwise variance-based median
/// cut followed by k-means (Lloyd) refinement, all in `ErrorSpace`.
enum PaletteBuilder {
    /// More histogram colours than this are merged (low bits dropped, weighted means kept) before
    /// median cut and k-means, whose cost grows with the number of points.
    static let defaultPointLimit = 16_384
    /// k-means stops when an iteration improves the total error by less than this fraction.
    static let kMeansEpsilon = 0.002
    static let kMeansMaxIterations = 12

    struct Result {
        /// Transparent entry first (when present), then translucent by rising alpha, then opaque.
        var palette: [RGBA]
        var exact: Bool
    }

    /// What every palette of one histogram starts from, whatever its size: the colours, and the
    /// reduced points median cut and k-means work on. Making it is most of a palette's cost on
    /// many-colour input (collecting and merging ~10⁵ colours), so a search that tries several
    /// colour counts makes it once.
    struct Prepared {
        var colors: [UInt32]
        var exactHistogram: Bool
        var hasTransparent: Bool
        var opaque: Bool
        var pointLimit: Int
        /// The alpha at or above which an entry is made opaque (`snapOpaqueAlpha` unless the
        /// caller keeps painted alpha; 255: never snapped).
        var opaqueSnap: UInt8 = PaletteBuilder.snapOpaqueAlpha
        /// Visible colours as points, reduced to `pointLimit` (made on first use: an exact
        /// palette never needs them).
        var points: (limit: Int, points: [WeightedPoint])?
        var counts: [UInt32]

        /// With `keepsPaintedAlpha`, entries are never snapped to opaque when the histogram's
        /// pixels are painted almost opaque (`AlphaProfile.isPaintedNearlyOpaque`).
        /// A grouped histogram (`Histogram.isExact` false) brings its groups as the points, which
        /// are what `reduced` makes of its colours at `Histogram.groupingLimit`, whatever `pointLimit`.
        init(_ histogram: Histogram, pointLimit: Int, keepsPaintedAlpha: Bool = false) {
            (colors, counts) = histogram.entries()
            exactHistogram = histogram.isExact
            hasTransparent = histogram.transparentCount > 0
            self.pointLimit = pointLimit
            if let groups = histogram.groups { points = (pointLimit, groups.points()) }
            let alpha = histogram.pixelsByAlpha
            opaque = !alpha[1..<255].contains { $0 > 0 }
            if keepsPaintedAlpha && !opaque {
                var profile = AlphaProfile()
                for (a, n) in alpha.enumerated() where n > 0 { profile.add(alpha: UInt8(a), count: Int(n)) }
                if profile.isPaintedNearlyOpaque { opaqueSnap = 255 }
            }
        }

        /// The points for a palette of `maxColors` (never fewer points than entries).
        mutating func reduced(maxColors: Int) -> [WeightedPoint] {
            let limit = max(pointLimit, maxColors)
            if !exactHistogram, let points { return points.points }
            if let points, points.limit == limit { return points.points }
            let p = PaletteBuilder.reducedPoints(colors, counts, limit: limit)
            points = (limit, p)
            return p
        }
    }

    static func build(_ histogram: Histogram, maxColors: Int, pointLimit: Int = defaultPointLimit) -> Result {
        var prepared = Prepared(histogram, pointLimit: pointLimit)
        return build(&prepared, maxColors: maxColors)
    }

    /// Whether the palette of at most `maxColors` is exact: every colour of the histogram kept.
    static func isExact(_ prepared: Prepared, maxColors: Int) -> Bool {
        prepared.exactHistogram && prepared.colors.count <= exactLimit(maxColors: maxColors)
    }

    /// The most colours an exact palette of at most `maxColors` entries can hold.
    static func exactLimit(maxColors: Int) -> Int { min(256, max(2, maxColors)) }

    static func build(_ prepared: inout Prepared, maxColors: Int) -> Result {
        let maxColors = min(256, max(2, maxColors))
        let colors = prepared.colors
        let hasTransparent = prepared.hasTransparent
        if isExact(prepared, maxColors: maxColors) {
            return Result(palette: ordered(colors.map { RGBA(memoryOrder: $0) }), exact: true)
        }
        let opaque = prepared.opaque
        let points = prepared.reduced(maxColors: maxColors)
        let k = maxColors - (hasTransparent ? 1 : 0)
        var centroids = [SIMD4<Float>]()
        var pts = points
        var assignment = [Int32](repeating: 0, count: pts.count)
        pts.withUnsafeMutableBufferPointer { p in
            assignment.withUnsafeMutableBufferPointer { a in
                centroids = medianCut(p, k, assignment: a)
                kMeans(UnsafeBufferPointer(p), &centroids, assignment: a)
            }
        }

        var seen = Set<RGBA>()
        var palette = [RGBA]()
        if hasTransparent { palette.append(RGBA(0, 0, 0, 0)); seen.insert(RGBA(0, 0, 0, 0)) }
        for c in centroids {
            let rgba = entry(for: c, opaque: opaque, opaqueSnap: prepared.opaqueSnap)
            if seen.insert(rgba).inserted { palette.append(rgba) }
        }
        refill(&palette, &seen, points: pts, maxColors: maxColors, opaque: opaque, opaqueSnap: prepared.opaqueSnap)
        return Result(palette: ordered(palette), exact: false)
    }

    /// Centres that round to the same 8-bit entry leave slots free: each is given to the point
    /// with the largest weighted error against the entries so far (a few rounds at most).
    static func refill(_ palette: inout [RGBA], _ seen: inout Set<RGBA>, points: [WeightedPoint],
                       maxColors: Int, opaque: Bool, opaqueSnap: UInt8 = snapOpaqueAlpha) {
        while palette.count < maxColors && palette.count < points.count {
            let search = NearestColorSearch(palette.map(ErrorSpace.point), listLength: NearestColorSearch.shortListLength)
            var worst = -1
            var worstError: Float = 0
            var guess = 0
            for (i, p) in points.enumerated() {
                let r = search.view.nearest(p.x, guess: guess)
                guess = r.index
                if r.distance2 * p.w > worstError { worstError = r.distance2 * p.w; worst = i }
            }
            withExtendedLifetime(search) {}
            guard worst >= 0 else { return }
            let rgba = entry(for: points[worst].x, opaque: opaque, opaqueSnap: opaqueSnap)
            guard seen.insert(rgba).inserted else { return }
            palette.append(rgba)
        }
    }

    /// Alpha a cluster centre ends up with at or above which the entry is made opaque: a centre
    /// pulled slightly below 255 by a few edge pixels would otherwise make every opaque pixel
    /// that maps to it faintly see-through. Only 254: art rendered almost opaque on purpose
    /// (Lottie renders at alpha 253 over whole faces) keeps its alpha, and the sticker checks
    /// count such pixels as soft alpha that must survive. Messages' palettes snap at 254 (their
    /// bytes are kept as they are); other platforms' keep 254 for art painted almost opaque
    /// (`Prepared.opaqueSnap`), where most of the partly transparent pixels are 240–254 and the
    /// snap made a whole Lottie face opaque.
    static let snapOpaqueAlpha: UInt8 = 254
    /// At or below this alpha an entry is made fully transparent (invisible either way).
    static let snapTransparentAlpha: UInt8 = 1

    /// The 8-bit entry for a cluster centre, with alpha snapped near 0 and (from `opaqueSnap`) 255.
    static func entry(for c: SIMD4<Float>, opaque: Bool, opaqueSnap: UInt8 = snapOpaqueAlpha) -> RGBA {
        let rgba = ErrorSpace.color(of: c, opaque: opaque)
        if rgba.a >= opaqueSnap && rgba.a < 255 { return ErrorSpace.color(of: c, opaque: true) }
        if rgba.a <= snapTransparentAlpha { return RGBA(0, 0, 0, 0) }
        return rgba
    }

    /// Deterministic order that suits PNG's tRNS chunk: (0,0,0,0) first, other translucent entries by
    /// rising alpha, opaque entries last.
    static func ordered(_ palette: [RGBA]) -> [RGBA] {
        palette.sorted { a, b in
            let ka = (a.a == 0 ? 0 : 1, Int(a.a), a.packed), kb = (b.a == 0 ? 0 : 1, Int(b.a), b.packed)
            return ka < kb
        }
    }

    /// The visible histogram colours as points; when there are more than `limit`, colours that
    /// share their high bits are merged into their weighted mean, dropping one more low bit of
    /// every channel (alpha one bit behind) until they fit.
    static func reducedPoints(_ colors: [UInt32], _ counts: [UInt32], limit: Int) -> [WeightedPoint] {
        // Counted first: past `limit` the exact points would be made only to be dropped (32
        // bytes a colour, ~10⁶ colours on a video: tens of MB faulted in for nothing).
        var visible = 0
        for c in colors where c != 0 { visible += 1 }
        if visible <= limit {
            var exact = [WeightedPoint]()
            exact.reserveCapacity(visible)
            for i in 0..<colors.count where colors[i] != 0 {
                exact.append(WeightedPoint(x: ErrorSpace.point(RGBA(memoryOrder: colors[i])), w: Float(counts[i])))
            }
            return exact
        }
        return ColorGroups(colors: colors, counts: counts, limit: limit).points()
    }

    /// The home slot of a group key in `ColorGroups`' table of `1 << (32 - shift)` slots: the key
    /// fully mixed (lowbias32's finalizer), then its high bits. Not `Histogram.slot`: the colours
    /// arrive in the histogram's table order, which is that hash's order, and masked keys of one
    /// low-bit pattern then come in that same order too; linear probing fed sorted home slots
    /// piles them into ever longer runs (128 million extra probes for 16 thousand keys on the
    /// colour cube at 618 px). The groups, their order and their means do not depend on the hash.
    @inline(__always)
    static func groupSlot(_ key: UInt32, _ shift: UInt32) -> Int {
        var x = key
        x ^= x >> 16
        x &*= 0x7FEB_352D
        x ^= x >> 15
        x &*= 0x846C_A68B
        x ^= x >> 16
        return Int(truncatingIfNeeded: x >> shift)
    }

    struct Box {
        var start: Int
        var end: Int
        var weight: Double
        var sum: SIMD4<Double>
        /// Weighted variance per axis times weight (sum of squared deviations).
        var spread: SIMD4<Double>
        var sse: Double { spread.sum() }
    }

    static func box(_ p: UnsafeMutableBufferPointer<WeightedPoint>, _ start: Int, _ end: Int) -> Box {
        var w = 0.0
        var s = SIMD4<Double>.zero, q = SIMD4<Double>.zero
        for i in start..<end {
            let x = SIMD4<Double>(Double(p[i].x.x), Double(p[i].x.y), Double(p[i].x.z), Double(p[i].x.w))
            let pw = Double(p[i].w)
            w += pw; s += x * pw; q += x * x * pw
        }
        var spread = w > 0 ? q - s * s / w : .zero
        spread.replace(with: 0, where: spread .< 0)
        return Box(start: start, end: end, weight: w, sum: s, spread: spread)
    }

    /// Splits the point set into at most `k` boxes, always the box with the largest sum of squared
    /// deviations, along its axis of largest variance, at the cut that minimises the two halves'
    /// summed squared deviations. Returns the box means and sets each point's box.
    static func medianCut(_ p: UnsafeMutableBufferPointer<WeightedPoint>, _ k: Int,
                          assignment: UnsafeMutableBufferPointer<Int32>) -> [SIMD4<Float>] {
        guard p.count > 0, k > 0 else { return [] }
        var boxes = [box(p, 0, p.count)]
        var scratch = SortScratch()
        while boxes.count < k {
            var pick = -1
            var bestSSE = 0.0
            for (i, b) in boxes.enumerated() where b.end - b.start >= 2 && b.sse > bestSSE {
                pick = i; bestSSE = b.sse
            }
            if pick < 0 || bestSSE < 1e-9 { break }
            let b = boxes[pick]
            var axis = 0
            for a in 1..<4 where b.spread[a] > b.spread[axis] { axis = a }
            let slice = UnsafeMutableBufferPointer(rebasing: p[b.start..<b.end])
            sortStably(slice, axis: axis, scratch: &scratch)
            let cut = bestCut(slice, total: b)
            boxes[pick] = box(p, b.start, b.start + cut)
            boxes.append(box(p, b.start + cut, b.end))
        }
        var means = [SIMD4<Float>]()
        for (i, b) in boxes.enumerated() {
            let m = b.sum / max(b.weight, 1e-12)
            means.append(SIMD4<Float>(Float(m.x), Float(m.y), Float(m.z), Float(m.w)))
            for j in b.start..<b.end { assignment[j] = Int32(i) }
        }
        return means
    }

    /// Buffers reused by the sorts of one median cut.
    struct SortScratch {
        var keys = [UInt64]()
        var other = [UInt64]()
        var points = [WeightedPoint]()
    }

    /// Sorts `s` by coordinate `axis`, rising, equal coordinates kept in their order: what
    /// `sort { $0.x[axis] < $1.x[axis] }` gives (Swift's sort is stable), without moving the
    /// 32-byte points in every merge. Each point's key is its coordinate mapped to an unsigned
    /// integer of the same order (−0 taken as +0, which `<` does not tell apart) above its
    /// position, so the keys are distinct and any sort of them is the stable order; long
    /// slices sort them by a stable radix sort of the coordinate half, short ones by `sort()`.
    /// The points are then moved once. (Coordinates are never NaN: they are colours and means
    /// of colours.)
    static func sortStably(_ s: UnsafeMutableBufferPointer<WeightedPoint>, axis: Int, scratch: inout SortScratch) {
        let n = s.count
        guard n > 1 else { return }
        if scratch.keys.count < n {
            scratch.keys = [UInt64](repeating: 0, count: n)
            scratch.other = [UInt64](repeating: 0, count: n)
            scratch.points = [WeightedPoint](repeating: WeightedPoint(x: .zero, w: 0), count: n)
        }
        scratch.keys.withUnsafeMutableBufferPointer { kb in
            scratch.other.withUnsafeMutableBufferPointer { ob in
                scratch.points.withUnsafeMutableBufferPointer { pb in
                    let keys = kb.baseAddress!, other = ob.baseAddress!, saved = pb.baseAddress!
                    for i in 0..<n {
                        var bits = s[i].x[axis].bitPattern
                        if bits == 0x8000_0000 { bits = 0 }
                        let order = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000
                        keys[i] = UInt64(order) << 32 | UInt64(i)
                    }
                    var sorted = keys
                    if n < radixMinimum {
                        var short = UnsafeMutableBufferPointer(start: keys, count: n)
                        short.sort()
                    } else {
                        sorted = radixSortHigh(keys, other, n)
                    }
                    saved.update(from: s.baseAddress!, count: n)
                    for k in 0..<n { s[k] = saved[Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: sorted[k]))] }
                }
            }
        }
    }

    /// Slices at least this long are sorted by `radixSortHigh`.
    static let radixMinimum = 512

    /// Stable LSD radix sort of `keys[0..<n]` by their high 32 bits (three passes of 11 bits),
    /// ping-ponging with `other`; returns the buffer that holds the result. Keys that are made in
    /// rising low halves stay in that order among equal high halves.
    static func radixSortHigh(_ keys: UnsafeMutablePointer<UInt64>, _ other: UnsafeMutablePointer<UInt64>, _ n: Int) -> UnsafeMutablePointer<UInt64> {
        var src = keys, dst = other
        let counts = UnsafeMutablePointer<Int>.allocate(capacity: 3 << 11)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0, count: 3 << 11)
        for i in 0..<n {
            let h = Int(truncatingIfNeeded: src[i] >> 32)
            counts[h & 0x7FF] += 1
            counts[2048 + (h >> 11) & 0x7FF] += 1
            counts[4096 + (h >> 22)] += 1
        }
        for pass in 0..<3 {
            let c = counts + pass << 11
            let shift = UInt64(32 + 11 * pass)
            // A pass whose digit is the same for every key leaves the order as it is.
            if c[Int(truncatingIfNeeded: (src[0] >> shift) & 0x7FF)] == n { continue }
            var total = 0
            for d in 0..<2048 { let t = c[d]; c[d] = total; total += t }
            for i in 0..<n {
                let key = src[i]
                let d = Int(truncatingIfNeeded: (key >> shift) & 0x7FF)
                dst[c[d]] = key
                c[d] += 1
            }
            swap(&src, &dst)
        }
        return src
    }

    /// The cut 1..<count of sorted points minimising the summed squared deviations of both sides,
    /// only between distinct coordinates along the sort axis.
    static func bestCut(_ s: UnsafeMutableBufferPointer<WeightedPoint>, total: Box) -> Int {
        let n = s.count
        let totalQ = total.spread.sum() + (total.sum * total.sum).sum() / max(total.weight, 1e-12)
        var w = 0.0, q = 0.0
        var sum = SIMD4<Double>.zero
        var best = n / 2
        var bestE = Double.infinity
        for i in 0..<(n - 1) {
            let x = SIMD4<Double>(Double(s[i].x.x), Double(s[i].x.y), Double(s[i].x.z), Double(s[i].x.w))
            let pw = Double(s[i].w)
            w += pw; sum += x * pw; q += (x * x).sum() * pw
            if s[i].x == s[i + 1].x { continue }
            let wr = total.weight - w
            guard w > 0, wr > 0 else { continue }
            let sr = total.sum - sum
            let e = (q - (sum * sum).sum() / w) + (totalQ - q - (sr * sr).sum() / wr)
            if e < bestE { bestE = e; best = i + 1 }
        }
        return best
    }

    /// Lloyd iterations on the weighted points until the error stops improving by more than
    /// `kMeansEpsilon` (relative) or `kMeansMaxIterations` is reached. Empty clusters keep their
    /// centre.
    static func kMeans(_ p: UnsafeBufferPointer<WeightedPoint>, _ centroids: inout [SIMD4<Float>],
                       assignment: UnsafeMutableBufferPointer<Int32>, maxIterations: Int = kMeansMaxIterations) {
        let k = centroids.count
        guard k > 1, p.count > k else { return }
        var sums = [SIMD4<Double>](repeating: .zero, count: k)
        var weights = [Double](repeating: 0, count: k)
        var previous = Double.infinity
        for _ in 0..<maxIterations {
            let search = NearestColorSearch(centroids, listLength: NearestColorSearch.listLength)
            let error = sums.withUnsafeMutableBufferPointer { s in
                weights.withUnsafeMutableBufferPointer { w in
                    assignStep(p.baseAddress!, p.count, search.view, assignment.baseAddress!, s.baseAddress!, w.baseAddress!, k)
                }
            }
            withExtendedLifetime(search) {}
            for j in 0..<k where weights[j] > 0 {
                let m = sums[j] / weights[j]
                centroids[j] = SIMD4<Float>(Float(m.x), Float(m.y), Float(m.z), Float(m.w))
            }
            if previous.isFinite && previous - error <= kMeansEpsilon * previous { break }
            previous = error
        }
    }

    /// One Lloyd assignment: nearest centre per point, weighted sums per centre; returns the total
    /// weighted squared error.
    static func assignStep(_ p: UnsafePointer<WeightedPoint>, _ n: Int, _ search: NearestColorSearch.View,
                           _ assignment: UnsafeMutablePointer<Int32>, _ sums: UnsafeMutablePointer<SIMD4<Double>>,
                           _ weights: UnsafeMutablePointer<Double>, _ k: Int) -> Double {
        for j in 0..<k { sums[j] = .zero; weights[j] = 0 }
        var error = 0.0
        for i in 0..<n {
            let pt = p[i]
            let (j, d) = search.nearest(pt.x, guess: Int(assignment[i]))
            assignment[i] = Int32(j)
            let w = Double(pt.w)
            sums[j] += SIMD4<Double>(Double(pt.x.x), Double(pt.x.y), Double(pt.x.z), Double(pt.x.w)) * w
            weights[j] += w
            error += Double(d) * w
        }
        return error
    }
}
