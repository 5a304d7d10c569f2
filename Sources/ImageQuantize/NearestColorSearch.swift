import Dispatch
import ImageCore

/// Nearest palette entry of a point in `ErrorSpace` (Orchard's method): every entry keeps the
/// other entries sorted by their distance to it, and a search walks the list of its current best
/// guess.
///
/// Why it is exact: by the triangle inequality `d(x, j) ≥ d(g, j) − d(x, g)`, so an entry `j` can
/// only beat (or tie) the guess `g` when `d(g, j) ≤ 2·d(x, g)`, i.e. `d²(g, j) ≤ 4·d²(x, g)`. The
/// walk stops at the first neighbour past that bound; when it meets a closer entry it restarts from that
/// entry's list. Neighbouring pixels are alike, so starting from the previous pixel's answer
/// usually means a handful of distance computations. Lists keep the 48 nearest neighbours (the
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

    /// Four consecutive neighbours of a list, laid out for comparing them at once: their list
    /// distances, their points by coordinate, their indices.
    struct NeighbourGroup {
        var bound: SIMD4<Float>
        var x: SIMD4<Float>
        var y: SIMD4<Float>
        var z: SIMD4<Float>
        var w: SIMD4<Float>
        var index: SIMD4<Int32>
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
        /// The same lists in groups of four (`stride / 4` per entry), when `stride` is a multiple
        /// of 4 and at least `minGroupedStride`; `walk` then takes four neighbours a step.
        let groups: UnsafePointer<NeighbourGroup>?

        /// The nearest entry to `x` and its squared distance, walking from `guess`. Ties go to the
        /// lowest index whatever the guess, so equal colours map alike in every frame.
        @inline(__always)
        func nearest(_ x: SIMD4<Float>, guess: Int) -> (index: Int, distance2: Float) {
            let d = ErrorSpace.distance2(x, points[guess])
            if d < safeRadius2[guess] { return (guess, d) }
            return walk(x, guess, d)
        }

        /// The same, when the caller already has `distance2`, the squared distance from `x` to `guess`.
        @inline(__always)
        func nearest(_ x: SIMD4<Float>, guess: Int, distance2 d: Float) -> (index: Int, distance2: Float) {
            if d < safeRadius2[guess] { return (guess, d) }
            return walk(x, guess, d)
        }

        func walk(_ x: SIMD4<Float>, _ start: Int, _ startD: Float) -> (index: Int, distance2: Float) {
            if let groups { return walkGroups(x, start, startD, groups) }
            return walkList(x, start, startD)
        }

        /// The walk one neighbour at a time.
        func walkList(_ x: SIMD4<Float>, _ start: Int, _ startD: Float) -> (index: Int, distance2: Float) {
            var best = start
            var bestD = startD
            var row = neighbours + best * stride
            var limit = 4 * bestD
            var k = 0
            while k < stride {
                let nb = row[k]
                if nb.distance2 > limit { break } // `>`: an entry on the bound may tie, and ties matter
                let j = Int(nb.index)
                let d = ErrorSpace.distance2(x, points[j])
                if d < bestD || (d == bestD && j < best) {
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

        /// The walk four neighbours at a time: the group's entries within the bound (a prefix, the
        /// list rising) are compared at once, and the walk restarts from the best of those that
        /// beat the current entry (smallest distance, then lowest index), where the one-at-a-time
        /// walk restarts from the first. Both stop only at an entry whose list holds no better
        /// entry within the bound (or after a scan), which is the nearest entry with the lowest
        /// index whatever the path, so the answer is the same. Distances are the same float
        /// expression as `ErrorSpace.distance2`, summed in the same order (x, y, z, w), so the
        /// same bits. With 48-entry lists this takes four branches where the list walk took
        /// about twelve, most of them unpredictable.
        func walkGroups(_ x: SIMD4<Float>, _ start: Int, _ startD: Float,
                        _ groups: UnsafePointer<NeighbourGroup>) -> (index: Int, distance2: Float) {
            var best = start
            var bestD = startD
            let perRow = stride >> 2
            var row = groups + best * perRow
            var limit = SIMD4<Float>(repeating: 4 * bestD)
            var bestV = SIMD4<Float>(repeating: bestD)
            var bestI = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: best))
            let px = SIMD4<Float>(repeating: x.x), py = SIMD4<Float>(repeating: x.y)
            let pz = SIMD4<Float>(repeating: x.z), pw = SIMD4<Float>(repeating: x.w)
            var g = 0
            while g < perRow {
                let group = row[g]
                let inBound = group.bound .<= limit // the list walk stops at `>`
                let dx = px - group.x, dy = py - group.y, dz = pz - group.z, dw = pw - group.w
                let d = ((dx * dx + dy * dy) + dz * dz) + dw * dw
                let better = inBound .& ((d .< bestV) .| ((d .== bestV) .& (group.index .< bestI)))
                if any(better) {
                    for lane in 0..<4 where better[lane] {
                        let j = Int(group.index[lane])
                        if d[lane] < bestD || (d[lane] == bestD && j < best) { best = j; bestD = d[lane] }
                    }
                    row = groups + best * perRow
                    limit = SIMD4<Float>(repeating: 4 * bestD)
                    bestV = SIMD4<Float>(repeating: bestD)
                    bestI = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: best))
                    g = 0
                    continue
                }
                if !all(inBound) { return (best, bestD) }
                g &+= 1
            }
            if stride < count - 1 { return scan(x, best, bestD) }
            return (best, bestD)
        }

        /// Rare fallback when a walk runs off the end of a truncated list.
        func scan(_ x: SIMD4<Float>, _ start: Int, _ startD: Float) -> (index: Int, distance2: Float) {
            var best = start
            var bestD = startD
            for j in 0..<count {
                let d = ErrorSpace.distance2(x, points[j])
                if d < bestD || (d == bestD && j < best) { bestD = d; best = j }
            }
            return (best, bestD)
        }
    }

    let count: Int
    private let points: UnsafeMutablePointer<SIMD4<Float>>
    private let neighbours: UnsafeMutablePointer<Neighbour>
    private let safe: UnsafeMutablePointer<Float>
    private let groups: UnsafeMutablePointer<NeighbourGroup>?
    let view: View

    /// A search over `entries` (an empty list acts as one entry at the origin), keeping
    /// `listLength` neighbours per entry: longer lists cost more to build, shorter ones fall back
    /// to scans more often.
    init(_ entries: [SIMD4<Float>], listLength: Int = NearestColorSearch.listLength) {
        let n = max(entries.count, 1)
        count = entries.count
        points = .allocate(capacity: n)
        safe = .allocate(capacity: n)
        let stride = min(n - 1, max(listLength, 1))
        neighbours = .allocate(capacity: max(n * stride, 1))
        groups = stride >= NearestColorSearch.minGroupedStride && stride % 4 == 0 ? .allocate(capacity: n * stride / 4) : nil
        if entries.isEmpty {
            points[0] = .zero
        } else {
            for i in 0..<entries.count { points[i] = entries[i] }
        }
        let rows = Rows(points: points, neighbours: neighbours, groups: groups, safe: safe, count: n, stride: stride)
        // Rows are independent: long lists over many entries (the remapper's) are built in
        // parallel (a fixed split, so the lists do not depend on the threads). k-means' short
        // lists are cheap to build and rebuilt every iteration: waking threads would cost more.
        let chunks = n >= NearestColorSearch.minParallelEntries && stride >= NearestColorSearch.minSelectStride
            ? NearestColorSearch.buildChunks : 1
        // In parallel only on the run's spare cores (`CorePool`); the split is the same either way.
        CorePool.shared.withSpareCores(upTo: chunks - 1) { spare in
            if spare == 0 {
                for c in 0..<chunks { rows.build(n * c / chunks, n * (c + 1) / chunks) }
            } else {
                DispatchQueue.concurrentPerform(iterations: chunks) { c in rows.build(n * c / chunks, n * (c + 1) / chunks) }
            }
        }
        view = View(points: points, neighbours: neighbours, stride: stride, count: n, safeRadius2: safe,
                    groups: groups.map { UnsafePointer($0) })
    }

    /// The list builder's pointers, shared by the threads that build disjoint rows. Safe because
    /// `points` is only read; chunk `c` writes only rows `n·c/chunks..<n·(c+1)/chunks` of
    /// `neighbours` and `safe` (the chunks do not overlap); and the storage, allocated by the
    /// search under construction, outlives `concurrentPerform`, which returns after every chunk.
    private struct Rows: @unchecked Sendable {
        let points: UnsafePointer<SIMD4<Float>>
        let neighbours: UnsafeMutablePointer<Neighbour>
        let groups: UnsafeMutablePointer<NeighbourGroup>?
        let safe: UnsafeMutablePointer<Float>
        let count: Int
        let stride: Int

        /// Rows `from..<to`: per row, the `stride` smallest (distance bits, index) keys, in order.
        /// Non-negative floats order like their bit patterns, and equal distances fall back to the
        /// lower index, so the keys are distinct and the order is deterministic. All keys of a row
        /// are made first, the `stride` smallest moved to the front by quickselect, and only those
        /// sorted. Inserting every key into a sorted 48-prefix instead (~80 late arrivals per row
        /// shifted by ~24 places) cost ~0.2 ms more per 256-entry search (tiger remap 3.47 →
        /// 3.3 ms CPU).
        func build(_ from: Int, _ to: Int) {
            let n = count, stride = self.stride
            let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: max(n, 1))
            defer { keys.deallocate() }
            for i in from..<to {
                let pi = points[i]
                if stride >= NearestColorSearch.minSelectStride {
                    var m = 0
                    for j in 0..<n where j != i {
                        keys[m] = UInt64(ErrorSpace.distance2(pi, points[j]).bitPattern) << 32 | UInt64(j)
                        m += 1
                    }
                    if m > stride { NearestColorSearch.selectSmallest(keys, m, stride) }
                    NearestColorSearch.insertionSort(keys, stride)
                } else {
                    // Short lists: insertion into the sorted prefix; most keys are rejected by one
                    // compare with the current last.
                    var m = 0
                    for j in 0..<n where j != i {
                        let key = UInt64(ErrorSpace.distance2(pi, points[j]).bitPattern) << 32 | UInt64(j)
                        if m == stride {
                            if key >= keys[m - 1] { continue }
                            m -= 1
                        }
                        var k = m
                        while k > 0 && keys[k - 1] > key { keys[k] = keys[k - 1]; k -= 1 }
                        keys[k] = key
                        m += 1
                    }
                }
                let row = neighbours + i * stride
                for k in 0..<stride {
                    row[k] = Neighbour(distance2: Float(bitPattern: UInt32(truncatingIfNeeded: keys[k] >> 32)),
                                       index: UInt32(truncatingIfNeeded: keys[k]))
                }
                safe[i] = stride > 0 ? row[0].distance2 * 0.25 : .infinity
                if let groups {
                    let out = groups + i * (stride >> 2)
                    for g in 0..<(stride >> 2) {
                        var group = NeighbourGroup(bound: .zero, x: .zero, y: .zero, z: .zero, w: .zero, index: .zero)
                        for lane in 0..<4 {
                            let nb = row[4 * g + lane]
                            let p = points[Int(nb.index)]
                            group.bound[lane] = nb.distance2
                            group.x[lane] = p.x; group.y[lane] = p.y; group.z[lane] = p.z; group.w[lane] = p.w
                            group.index[lane] = Int32(truncatingIfNeeded: nb.index)
                        }
                        out[g] = group
                    }
                }
            }
        }
    }

    /// Reorders the `m` distinct keys so that the `k` smallest come first (in any order):
    /// quickselect with a median-of-three pivot.
    static func selectSmallest(_ keys: UnsafeMutablePointer<UInt64>, _ m: Int, _ k: Int) {
        guard k > 0 && k < m else { return }
        var lo = 0, hi = m - 1
        let target = k - 1 // keys[0...target] must end up the k smallest
        while lo < hi {
            let a = keys[lo], b = keys[(lo + hi) >> 1], c = keys[hi]
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = lo, j = hi
            while i <= j {
                while keys[i] < pivot { i += 1 }
                while keys[j] > pivot { j -= 1 }
                if i <= j {
                    let t = keys[i]; keys[i] = keys[j]; keys[j] = t
                    i += 1; j -= 1
                }
            }
            if target <= j { hi = j } else if target >= i { lo = i } else { return }
        }
    }

    static func insertionSort(_ keys: UnsafeMutablePointer<UInt64>, _ count: Int) {
        var i = 1
        while i < count {
            let key = keys[i]
            var k = i
            while k > 0 && keys[k - 1] > key { keys[k] = keys[k - 1]; k -= 1 }
            keys[k] = key
            i += 1
        }
    }

    /// Lists at least this long (the remapper's and k-means') are also kept in groups of four for
    /// `walkGroups`; `refill`'s short lists keep the list walk.
    static let minGroupedStride = 32
    /// Searches over at least this many entries build their lists on `buildChunks` threads.
    static let minParallelEntries = 64
    static let buildChunks = 4
    /// Lists at least this long are built by quickselect + sort, shorter ones by insertion.
    static let minSelectStride = 32

    // The storage is raw memory: without this every search (k-means builds one per iteration)
    // leaked it.
    deinit {
        points.deallocate()
        neighbours.deallocate()
        safe.deallocate()
        groups?.deallocate()
    }

    /// Neighbour lists are cut at this length by default; a walk that needs more falls back to a
    /// scan. 48 instead of 32: dithered photo remaps scan far less (many-colour ladybird −12 %
    /// CPU), and the longer build is split across threads.
    static let listLength = 48
    /// For searches rebuilt after every entry added (`PaletteBuilder.refill`): cheaper builds,
    /// longer walks. k-means, rebuilt every iteration too, keeps `listLength`: its points are
    /// often far from every centre, and a 16-entry list ran off its end (a scan of every entry)
    /// on 17 % of its walks over the balls APNG (callgrind, `--size all`: scans 260 M of 6.46 G
    /// instructions; with 48-entry lists 23 M, and 6.22 G in all).
    static let shortListLength = 16

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
