/// Nearest palette entry of a point in `ErrorSpace`: a k-d tree over the entries, started from a
/// guess (the previous pixel's answer) and skipped entirely when the guess is provably nearest.
///
/// The proof is the triangle inequality: if `d(x, g) ≤ ½·min_j d(g, j)` then no other entry can be
/// closer than `g`, so `safeRadius2[g]` stores `(½·min_j d(g, j))²`. Neighbouring pixels are
/// usually alike, so most searches end there. Memory is owned here and read through
/// `NearestColorSearch.View`, a struct of raw pointers that hot loops take by value.
final class NearestColorSearch {
    struct Node {
        /// Split axis 0…3, or -1 for a leaf.
        var axis: Int32
        var split: Float
        /// Children of an inner node, or the `order` range of a leaf.
        var lo: Int32
        var hi: Int32
    }

    /// Pointers into the search's storage; valid while the owning `NearestColorSearch` lives.
    struct View {
        let points: UnsafePointer<SIMD4<Float>>
        let nodes: UnsafePointer<Node>
        let order: UnsafePointer<Int32>
        let safeRadius2: UnsafePointer<Float>

        /// The nearest entry to `x` and its squared distance; ties go to the entry met first.
        @inline(__always)
        func nearest(_ x: SIMD4<Float>, guess: Int) -> (index: Int, distance2: Float) {
            var best = guess
            var bestD = ErrorSpace.distance2(x, points[guess])
            if bestD <= safeRadius2[guess] { return (best, bestD) }
            visit(0, x, &best, &bestD)
            return (best, bestD)
        }

        func visit(_ n: Int, _ x: SIMD4<Float>, _ best: inout Int, _ bestD: inout Float) {
            let node = nodes[n]
            if node.axis < 0 {
                var k = Int(node.lo)
                let end = Int(node.hi)
                while k < end {
                    let e = Int(order[k])
                    let d = ErrorSpace.distance2(x, points[e])
                    if d < bestD { bestD = d; best = e }
                    k &+= 1
                }
                return
            }
            let diff = x[Int(node.axis)] - node.split
            if diff < 0 {
                visit(Int(node.lo), x, &best, &bestD)
                if diff * diff < bestD { visit(Int(node.hi), x, &best, &bestD) }
            } else {
                visit(Int(node.hi), x, &best, &bestD)
                if diff * diff < bestD { visit(Int(node.lo), x, &best, &bestD) }
            }
        }
    }

    let count: Int
    private let points: UnsafeMutablePointer<SIMD4<Float>>
    private let order: UnsafeMutablePointer<Int32>
    private let safe: UnsafeMutablePointer<Float>
    private var nodeStorage: UnsafeMutablePointer<Node>
    let view: View

    static let leafSize = 4

    /// A search over `entries` (at least one).
    init(_ entries: [SIMD4<Float>]) {
        let n = max(entries.count, 1)
        count = entries.count
        points = .allocate(capacity: n)
        order = .allocate(capacity: n)
        safe = .allocate(capacity: n)
        if entries.isEmpty {
            points[0] = .zero
        } else {
            for i in 0..<entries.count { points[i] = entries[i] }
        }
        for i in 0..<n { order[i] = Int32(i) }
        // A tree over n leaves of ≥ 1 entry has < 2n nodes.
        nodeStorage = .allocate(capacity: 2 * n)
        var nodeCount = 0
        NearestColorSearch.build(points, order, 0, n, nodeStorage, &nodeCount)
        for i in 0..<n {
            var m = Float.infinity
            for j in 0..<n where j != i {
                m = min(m, ErrorSpace.distance2(points[i], points[j]))
            }
            safe[i] = m.isFinite ? m * 0.25 : .infinity
        }
        view = View(points: points, nodes: nodeStorage, order: order, safeRadius2: safe)
    }

    deinit {
        points.deallocate(); order.deallocate(); safe.deallocate(); nodeStorage.deallocate()
    }

    /// Builds the subtree of `order[start..<end]` at `nodes[nodeCount]`, splitting at the median of
    /// the axis with the widest spread.
    private static func build(_ points: UnsafeMutablePointer<SIMD4<Float>>, _ order: UnsafeMutablePointer<Int32>,
                              _ start: Int, _ end: Int, _ nodes: UnsafeMutablePointer<Node>, _ nodeCount: inout Int) {
        let me = nodeCount
        nodeCount += 1
        if end - start <= leafSize {
            nodes[me] = Node(axis: -1, split: 0, lo: Int32(start), hi: Int32(end))
            return
        }
        var lo = SIMD4<Float>(repeating: .infinity), hi = SIMD4<Float>(repeating: -.infinity)
        for k in start..<end {
            let p = points[Int(order[k])]
            lo.replace(with: p, where: p .< lo)
            hi.replace(with: p, where: p .> hi)
        }
        let spread = hi - lo
        var axis = 0
        for a in 1..<4 where spread[a] > spread[axis] { axis = a }
        if spread[axis] <= 0 {
            nodes[me] = Node(axis: -1, split: 0, lo: Int32(start), hi: Int32(end))
            return
        }
        var slice = UnsafeMutableBufferPointer(start: order + start, count: end - start)
        slice.sort { a, b in
            let pa = points[Int(a)][axis], pb = points[Int(b)][axis]
            return pa < pb || (pa == pb && a < b)
        }
        let mid = (start + end) / 2
        let split = (points[Int(order[mid - 1])][axis] + points[Int(order[mid])][axis]) * 0.5
        let left = nodeCount
        build(points, order, start, mid, nodes, &nodeCount)
        let right = nodeCount
        build(points, order, mid, end, nodes, &nodeCount)
        nodes[me] = Node(axis: Int32(axis), split: split, lo: Int32(left), hi: Int32(right))
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
