/// Nearest palette entry of a point in `ErrorSpace` (Orchard's method): every entry keeps the
/// other entries sorted by their distance to it, and a search walks the list of its current best
/// guess.
///
/// Why it is exact: by the triangle inequality `d(x, j) ≥ d(g, j) − d(x, g)`, so an entry `j` can
/// only beat the guess `g` when `d(g, j) < 2·d(x, g)`, i.e. `d²(g, j) < 4·d²(x, g)`. The walk stops
/// at the first neighbour past that bound; when it meets a closer entry it restarts from that
/// entry's list. Neighbouring pixels are alike, so starting from the previous pixel's answer
/// usually means a handful of distance computations. Lists keep the 32 nearest neighbours (the
/// walk almost never needs more; if it does, it finishes with a linear scan). (A k-d tree was tried first: its recursive
/// descent cost ~3× more per query on 256 entries in 4-D.)
///
/// Memory is owned here and read through `NearestColorSearch.View`, a struct of raw pointers
/// that hot loops take by value.
final class NearestColorSearch {
    struct Neighbour {
        var distance2: Float
        var index: UInt32
    }

    /// Pointers into the search's storage; valid while the owning `NearestColorSearch` lives.
    struct View {
        let points: UnsafePointer<SIMD4<Float>>
        /// Row `i` (`stride` long) lists the `stride` other entries nearest to entry `i`, by rising distance.
        let neighbours: UnsafePointer<Neighbour>
        let stride: Int
        let count: Int
        /// `(½·distance to the nearest other entry)²`: within it, an entry is surely nearest.
        let safeRadius2: UnsafePointer<Float>

        /// The nearest entry to `x` and its squared distance, walking from `guess`.
        @inline(__always)
        func nearest(_ x: SIMD4<Float>, guess: Int) -> (index: Int, distance2: Float) {
            let d = ErrorSpace.distance2(x, points[guess])
            if d <= safeRadius2[guess] { return (guess, d) }
            return walk(x, guess, d)
        }

        func walk(_ x: SIMD4<Float>, _ start: Int, _ startD: Float) -> (index: Int, distance2: Float) {
            var best = start
            var bestD = startD
            var row = neighbours + best * stride
            var limit = 4 * bestD
            var k = 0
            while k < stride {
                let nb = row[k]
                if nb.distance2 >= limit { break }
                let j = Int(nb.index)
                let d = ErrorSpace.distance2(x, points[j])
                if d < bestD {
                    best = j; bestD = d
                    row = neighbours + best * stride
                    limit = 4 * bestD
                    k = 0
                    continue
                }
                k &+= 1
            }
            if k == stride && stride < count - 1 { return scan(x, best, bestD) }
            return (best, bestD)
        }

        /// Rare fallback when a walk runs off the end of a truncated list.
        func scan(_ x: SIMD4<Float>, _ start: Int, _ startD: Float) -> (index: Int, distance2: Float) {
            var best = start
            var bestD = startD
            for j in 0..<count {
                let d = ErrorSpace.distance2(x, points[j])
                if d < bestD { bestD = d; best = j }
            }
            return (best, bestD)
        }
    }

    let count: Int
    private let points: UnsafeMutablePointer<SIMD4<Float>>
    private let neighbours: UnsafeMutablePointer<Neighbour>
    private let safe: UnsafeMutablePointer<Float>
    let view: View

    /// A search over `entries` (an empty list acts as one entry at the origin).
    init(_ entries: [SIMD4<Float>]) {
        let n = max(entries.count, 1)
        count = entries.count
        points = .allocate(capacity: n)
        safe = .allocate(capacity: n)
        let stride = min(n - 1, NearestColorSearch.listLength)
        neighbours = .allocate(capacity: max(n * stride, 1))
        if entries.isEmpty {
            points[0] = .zero
        } else {
            for i in 0..<entries.count { points[i] = entries[i] }
        }
        // Sorting (distance bits, index) keys: non-negative floats order like their bit patterns,
        // and equal distances fall back to the lower index, so the order is deterministic.
        // Only the `stride` smallest keys are kept: a bounded max-heap rejects most with one compare.
        var keys = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            var m = 0
            for j in 0..<n where j != i {
                let d = ErrorSpace.distance2(points[i], points[j])
                keys[m] = UInt64(d.bitPattern) << 32 | UInt64(j)
                m += 1
            }
            keys.withUnsafeMutableBufferPointer { k in
                NearestColorSearch.keepSmallest(k.baseAddress!, m, stride)
            }
            keys[0..<stride].sort()
            let row = neighbours + i * stride
            for k in 0..<stride {
                row[k] = Neighbour(distance2: Float(bitPattern: UInt32(truncatingIfNeeded: keys[k] >> 32)),
                                   index: UInt32(truncatingIfNeeded: keys[k]))
            }
            safe[i] = stride > 0 ? row[0].distance2 * 0.25 : .infinity
        }
        view = View(points: points, neighbours: neighbours, stride: stride, count: n, safeRadius2: safe)
    }

    /// Neighbour lists are cut at this length; a walk that needs more falls back to a scan.
    static let listLength = 32

    /// Moves the `k` smallest of `a[0..<n]` into `a[0..<k]` (unordered) with a max-heap.
    static func keepSmallest(_ a: UnsafeMutablePointer<UInt64>, _ n: Int, _ k: Int) {
        guard k > 0, n > k else { return }
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < k && a[l] > a[m] { m = l }
                if r < k && a[r] > a[m] { m = r }
                if m == i { return }
                let t = a[i]; a[i] = a[m]; a[m] = t
                i = m
            }
        }
        var i = k / 2 - 1
        while i >= 0 { siftDown(i); i -= 1 }
        for j in k..<n where a[j] < a[0] {
            a[0] = a[j]
            siftDown(0)
        }
    }

    deinit {
        points.deallocate(); neighbours.deallocate(); safe.deallocate()
    }

    /// Reference for tests: a plain linear scan, ties to the lowest index.
    func nearestByScan(_ x: SIMD4<Float>) -> (index: Int, distance2: Float) {
        var best = 0
        var bestD = Float.infinity
        for i in 0..<max(count, 1) {
            let d = ErrorSpace.distance2(x, points[i])
            if d < bestD { bestD = d; best = i }
        }
        return (best, bestD)
    }
}
