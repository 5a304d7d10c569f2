import ImageCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The fast resampler: separable, vertical pass into one float row of premultiplied pixels,
/// then horizontal pass straight to 8-bit straight-alpha output (or, with a background, to
/// opaque pixels composited over it). Built once per fit from the two axis tables and reused
/// for every frame. See NOTES.md for why it is written this way.
final class AreaResampler {
    let outputWidth: Int
    let outputHeight: Int
    let sourceWidth: Int
    let linear: Bool
    /// Opaque colour the output is composited over (premultiplied floats, 0…255), or nil for
    /// straight-alpha output.
    private let background: SIMD4<Float>?
    /// First source column the vertical pass reads; horizontal starts are relative to it.
    private let columnBase: Int
    /// Columns the vertical pass covers (every column some output pixel uses).
    private let span: Int
    private let xStarts: [Int32], xCounts: [Int32], xWeights: [Float], xStride: Int
    /// `xWeights`, each in four lanes (one aligned load per tap in the horizontal pass).
    private let xSplats: [SIMD4<Float>]
    private let yStarts: [Int], yCounts: [Int], yWeights: [Float], yStride: Int
    private let decode: [Float]
    private let encode: [UInt8]
    /// Per output row: its first source row was already converted by the row before
    /// (`next = p · w`), so it starts from that instead of from zero.
    private let rowPending: [Bool]
    /// Per output row: its last source row is the next row's first, converted once for both.
    private let rowShared: [Bool]
    /// Per source column `c` (relative to `columnBase`): every output column that reads a column
    /// in `c…c'` lies in `[columnFirst[c], columnEnd[c'])` (a suffix minimum and a prefix
    /// maximum, so the range may be wider than needed, never narrower).
    private let columnFirst: [Int32], columnEnd: [Int32]
    /// Per output column `j`: every source column that output columns `j…j'` read lies in
    /// `[outputFirst[j], outputEnd[j'])`, relative to `columnBase` (same construction).
    private let outputFirst: [Int], outputEnd: [Int]
    /// Source rows `[rowBase, rowBase + rowSpan)` some output row reads.
    private let rowBase: Int, rowSpan: Int
    /// Tests only: called with each output row's premultiplied float row (columns `[c0, c1)`
    /// relative to `columnBase`) before the horizontal pass, so that a test can require the
    /// frame-to-frame path's rows to be bitwise those of the whole-frame pass, which output
    /// bytes show only rarely.
    var rowObserver: ((_ oy: Int, _ c0: Int, _ row: UnsafeBufferPointer<SIMD4<Float>>) -> Void)?

    /// A resampler for sources `sourceWidth` pixels wide. Source indices in `x` and `y` are
    /// absolute. `linear` averages in linear light. With a `background` (sRGB averaging only) the
    /// output is opaque: each pixel composited over it before rounding.
    init(x: AxisWeights, y: AxisWeights, sourceWidth: Int, linear: Bool, background: RGBA? = nil) {
        precondition(background == nil || !linear, "compositing over a background is done in sRGB values")
        outputWidth = x.outputCount
        outputHeight = y.outputCount
        self.sourceWidth = sourceWidth
        self.linear = linear
        self.background = background.map { SIMD4<Float>(Float($0.r), Float($0.g), Float($0.b), 255) }
        columnBase = x.minSource
        span = max(0, x.maxSource - x.minSource)
        xStarts = x.starts.map { Int32(truncatingIfNeeded: max(0, $0 - x.minSource)) }
        xCounts = x.counts.map { Int32(truncatingIfNeeded: $0) }
        xWeights = x.weights.map { Float($0) }
        xSplats = x.weights.map { SIMD4<Float>(repeating: Float($0)) }
        xStride = x.stride
        yStarts = y.starts
        yCounts = y.counts
        // The 1/255 folds the alpha scale into the row weight: rgb accumulates w·c·a/255 and
        // alpha w·a, both in 0…255 units.
        yWeights = y.weights.map { Float($0 / 255) }
        yStride = y.stride
        decode = linear ? SRGB.decodeTable : []
        encode = linear ? SRGB.encodeTable : []
        // The row sharing of the sRGB path, decided from the tables alone so that one output row
        // can be recomputed on its own with exactly the arithmetic of the whole-frame pass.
        var pending = [Bool](repeating: false, count: y.outputCount)
        var shared = [Bool](repeating: false, count: y.outputCount)
        var carry = false
        for oy in 0..<y.outputCount {
            let taps = y.counts[oy]
            guard taps > 0, span > 0, !linear else { carry = false; continue }
            pending[oy] = carry
            carry = oy + 1 < y.outputCount && y.counts[oy + 1] > 0 && y.starts[oy + 1] == y.starts[oy] + taps - 1
                && taps - 1 >= (carry ? 1 : 0)
            shared[oy] = carry
        }
        rowPending = pending
        rowShared = shared
        var first = [Int32](repeating: Int32.max, count: span + 1)
        var end = [Int32](repeating: 0, count: span + 1)
        for j in 0..<x.outputCount where x.counts[j] > 0 {
            let c = x.starts[j] - x.minSource
            for k in c..<c + x.counts[j] {
                first[k] = min(first[k], Int32(truncatingIfNeeded: j))
                end[k] = Int32(truncatingIfNeeded: j + 1)
            }
        }
        for c in stride(from: span - 1, through: 0, by: -1) { first[c] = min(first[c], first[c + 1]) }
        for c in stride(from: 1, to: span, by: 1) { end[c] = max(end[c], end[c - 1]) }
        columnFirst = first
        columnEnd = end
        var sourceFirst = [Int](repeating: span, count: x.outputCount + 1)
        var sourceEnd = [Int](repeating: 0, count: x.outputCount)
        for j in 0..<x.outputCount where x.counts[j] > 0 {
            sourceFirst[j] = x.starts[j] - x.minSource
            sourceEnd[j] = sourceFirst[j] + x.counts[j]
        }
        for j in stride(from: x.outputCount - 1, through: 0, by: -1) { sourceFirst[j] = min(sourceFirst[j], sourceFirst[j + 1]) }
        for j in stride(from: 1, to: x.outputCount, by: 1) { sourceEnd[j] = max(sourceEnd[j], sourceEnd[j - 1]) }
        outputFirst = sourceFirst
        outputEnd = sourceEnd
        var lo = Int.max, hi = Int.min
        for oy in 0..<y.outputCount where y.counts[oy] > 0 {
            lo = min(lo, y.starts[oy])
            hi = max(hi, y.starts[oy] + y.counts[oy])
        }
        rowBase = lo <= hi ? lo : 0
        rowSpan = lo <= hi ? hi - lo : 0
    }

    /// `outputWidth × outputHeight` straight-alpha RGBA bytes of `image` resampled. Every byte is
    /// written; colour under fully transparent output pixels is zero.
    func resample(_ image: Image) -> [UInt8] {
        image.pixels.withUnsafeBytes { src in
            var rows = BoxRows(src.baseAddress, box: PixelRect(x: 0, y: 0, width: image.width, height: image.height))
            return render(first: wholeRows.first, end: wholeRows.end, previous: nil) { $0.run(upTo: outputHeight, &rows) }
        }
    }

    /// Every output pixel: column ranges `[0, outputWidth)` for the rows that read any source.
    var wholeRows: (first: [Int], end: [Int]) {
        let first = [Int](repeating: 0, count: outputHeight)
        var end = [Int](repeating: 0, count: outputHeight)
        if span > 0 {
            for oy in 0..<outputHeight where yCounts[oy] > 0 { end[oy] = outputWidth }
        }
        return (first, end)
    }

    /// `resample(image)` computed from the output of the frame before: only output pixels that
    /// read a source pixel that differs from `previous` are recomputed, with exactly the
    /// arithmetic of the whole-frame pass (so the bytes are the same), and the rest is copied from
    /// `previousOutput`. Nil when no source pixel the output reads changed. `previous` must have
    /// the size of `image` and `previousOutput` must be `resample(previous)`.
    func resample(_ image: Image, previous: Image, previousOutput: [UInt8]) -> [UInt8]? {
        let ow = outputWidth, oh = outputHeight
        guard span > 0, rowSpan > 0, image.width == sourceWidth, previous.width == sourceWidth,
              image.height == previous.height, image.height >= rowBase + rowSpan,
              previousOutput.count == ow * oh * 4 else {
            return resample(image)
        }
        // Changed columns of each source row the output reads (absolute).
        var damage = RowDamage(rows: image.height)
        image.pixels.withUnsafeBytes { a in
            previous.pixels.withUnsafeBytes { b in
                let offset = (rowBase * sourceWidth + columnBase) * 4
                for r in 0..<rowSpan {
                    let o = offset + r * sourceWidth * 4
                    let (lo, hi) = AreaResampler.changedSpan(a.baseAddress! + o, b.baseAddress! + o, span)
                    damage.mark(row: rowBase + r, from: columnBase + lo, to: columnBase + hi)
                }
            }
        }
        guard let (first, end) = recompute(damage) else { return nil }
        return image.pixels.withUnsafeBytes { src in
            var rows = BoxRows(src.baseAddress, box: PixelRect(x: 0, y: 0, width: image.width, height: image.height))
            return previousOutput.withUnsafeBufferPointer { p in
                render(first: first, end: end, previous: p.baseAddress!) { $0.run(upTo: outputHeight, &rows) }
            }
        }
    }

    /// The whole output of a canvas of which only `regions` are held (the rest is transparent).
    func resample(regions: [CanvasRegion]) -> [UInt8] {
        render(first: wholeRows.first, end: wholeRows.end, previous: nil) { run($0, over: regions) }
    }

    /// Runs `pass` over every output row, reading `regions`: one region in place, several
    /// through `SparseRows`, where output rows whose source rows meet no region are transparent
    /// without reading anything.
    private func run(_ pass: RenderPass, over regions: [CanvasRegion]) {
        if regions.count == 1 {
            regions[0].pixels.pixels.withUnsafeBytes { src in
                var rows = BoxRows(src.baseAddress, box: regions[0].rect)
                pass.run(upTo: outputHeight, &rows)
            }
        } else {
            var rows = SparseRows(regions)
            pass.run(upTo: outputHeight, &rows)
        }
    }

    /// The next frame of such a canvas, written over `output`, the output of the frame before,
    /// given what changed since (`damage`): only the output pixels it reaches are computed, in
    /// place (the bytes are those of resampling the whole canvas), and the rest of `output` stays
    /// as it is; a new output with the rest copied cost 7.6 GB of copies for 5,000 frames of a
    /// square moving over a 32² screen at 618 px. Returns the output pixels that changed, or nil
    /// when none did (`output` then holds the same bytes as before).
    func resample(regions: [CanvasRegion], damage: RowDamage, updating output: inout [UInt8]) -> RowDamage? {
        let ow = outputWidth, oh = outputHeight
        precondition(output.count == ow * oh * 4, "AreaResampler: \(output.count) bytes for a \(ow)×\(oh) output")
        guard span > 0, rowSpan > 0, let (first, end) = recompute(damage) else { return nil }
        // The pixels to be computed, as they were, row after row.
        var saved = [UInt8]()
        saved.reserveCapacity(zip(first, end).reduce(0) { $0 + max(0, $1.1 - $1.0) } * 4)
        output.withUnsafeBytes { o in
            for oy in 0..<oh where first[oy] < end[oy] {
                saved.append(contentsOf: UnsafeRawBufferPointer(rebasing: o[(oy * ow + first[oy]) * 4..<(oy * ow + end[oy]) * 4]))
            }
        }
        output.withUnsafeMutableBufferPointer { out in
            run(RenderPass(self, first: first, end: end, previous: nil, keepsRest: true, output: out.baseAddress!), over: regions)
        }
        var changed = RowDamage(rows: oh)
        output.withUnsafeBytes { a in
            saved.withUnsafeBytes { b in
                var k = 0
                for oy in 0..<oh where first[oy] < end[oy] {
                    let n = end[oy] - first[oy]
                    let (lo, hi) = AreaResampler.changedSpan(a.baseAddress! + (oy * ow + first[oy]) * 4, b.baseAddress! + k, n)
                    changed.mark(row: oy, from: first[oy] + lo, to: first[oy] + hi)
                    k += n * 4
                }
            }
        }
        return changed.isEmpty ? nil : changed
    }

    /// The output columns `[first, end)` per output row whose taps touch a pixel in `damage`
    /// (absolute source coordinates), or nil when none does.
    private func recompute(_ damage: RowDamage) -> (first: [Int], end: [Int])? {
        let oh = outputHeight
        var first = [Int](repeating: 0, count: oh)
        var end = [Int](repeating: 0, count: oh)
        var dirty = false
        guard !damage.isEmpty else { return nil }
        for oy in 0..<oh where yCounts[oy] > 0 {
            var lo = Int.max, hi = Int.min
            let r0 = max(yStarts[oy], damage.firstRow), r1 = min(yStarts[oy] + yCounts[oy], damage.endRow)
            guard r0 < r1 else { continue }
            for r in r0..<r1 {
                guard let s = damage.span(r) else { continue }
                // Relative to the first column the output reads, clipped to the columns it reads.
                let a = max(0, s.lowerBound - columnBase), b = min(span, s.upperBound - columnBase)
                if a < b { lo = min(lo, a); hi = max(hi, b) }
            }
            guard lo < hi, columnFirst[lo] < columnEnd[hi - 1] else { continue }
            first[oy] = Int(columnFirst[lo])
            end[oy] = Int(columnEnd[hi - 1])
            dirty = true
        }
        return dirty ? (first, end) : nil
    }

    /// A new output: columns `[first[oy], end[oy])` of each output row computed by the pass that
    /// `feed` runs over the source rows; the rest of the row copied from `previous` (a whole
    /// output image), or padding without it (zero, or the background). Every output row, in one
    /// pass.
    func render(first: [Int], end: [Int], previous: UnsafePointer<UInt8>?, _ feed: (RenderPass) -> Void) -> [UInt8] {
        let total = outputWidth * outputHeight * 4
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            guard let dst = out.baseAddress else { initialized = 0; return }
            feed(RenderPass(self, first: first, end: end, previous: previous, output: dst))
            initialized = total
        }
    }

    /// The source rows output row `oy` reads: `[start, start + count)` (count 0 for padding rows).
    func sourceRows(of oy: Int) -> (start: Int, count: Int) { (yStarts[oy], yCounts[oy]) }

    /// One pass over the output rows, in order, possibly in several calls (`run(upTo:)`) as the
    /// source rows arrive: the float rows and the hand-over of a shared source row persist
    /// between calls, so a pass run in pieces computes exactly what one run computes.
    ///
    /// The vertical pass of a row covers the source columns its range reads. A source row shared
    /// by two consecutive output rows is converted once for both (over the union of their
    /// columns; the part outside a row's own columns is never read). A row whose predecessor was
    /// not computed converts that shared row itself, with the same two roundings (`p · w`).
    final class RenderPass {
        let r: AreaResampler
        let first: [Int], end: [Int]
        let previous: UnsafePointer<UInt8>?
        /// Without `previous`: leave the pixels not computed as they are in the output (it holds
        /// the frame before) instead of padding them.
        let keepsRest: Bool
        let dst: UnsafeMutablePointer<UInt8>
        /// Two float rows: the current output row and the next one, which may already hold the
        /// source row both share (converted once, added to both). Zeroed once so that columns a
        /// row does not compute hold finite values; `xStride` columns of padding: `reduceRow`
        /// reads up to `xStride - 1` past a pixel's taps.
        let rows: UnsafeMutablePointer<SIMD4<Float>>
        let capacity: Int
        /// The next row's first source row is already in its float row.
        var handedOver = false
        /// Output rows done.
        private(set) var done = 0

        init(_ r: AreaResampler, first: [Int], end: [Int], previous: UnsafePointer<UInt8>?, keepsRest: Bool = false,
             output: UnsafeMutablePointer<UInt8>) {
            self.r = r
            self.first = first
            self.end = end
            self.previous = previous
            self.keepsRest = keepsRest
            dst = output
            capacity = r.span + r.xStride
            rows = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 2 * capacity)
            rows.initialize(repeating: SIMD4<Float>(), count: 2 * capacity)
        }

        deinit { rows.deallocate() }

        /// Computes output rows up to (not including) `oyEnd`; every source row they read must
        /// be available from `source`.
        func run<Source: RowBlocks>(upTo oyEnd: Int, _ source: inout Source) {
            let r = self.r
            let ow = r.outputWidth
            r.xStarts.withUnsafeBufferPointer { xs in
            r.xCounts.withUnsafeBufferPointer { xc in
            r.xWeights.withUnsafeBufferPointer { xw in
            r.xSplats.withUnsafeBufferPointer { xsp in
            r.yWeights.withUnsafeBufferPointer { yw in
            r.decode.withUnsafeBufferPointer { lut in
            r.encode.withUnsafeBufferPointer { enc in
                while done < oyEnd {
                    let oy = done
                    done += 1
                    let d = dst + oy * ow * 4
                    let j0 = first[oy], j1 = end[oy]
                    guard j0 < j1 else {
                        if let previous { d.update(from: previous + oy * ow * 4, count: ow * 4) }
                        else if !keepsRest { r.pad(d, ow) }
                        handedOver = false
                        continue
                    }
                    if let previous {
                        d.update(from: previous + oy * ow * 4, count: j0 * 4)
                        (d + j1 * 4).update(from: previous + (oy * ow + j1) * 4, count: (ow - j1) * 4)
                    }
                    let c0 = r.outputFirst[j0], c1 = r.outputEnd[j1 - 1]
                    let n = j1 - j0
                    let row = rows + (oy & 1) * capacity
                    let js = xs.baseAddress! + j0, jc = xc.baseAddress! + j0, jw = xw.baseAddress! + j0 * r.xStride
                    let dj = d + j0 * 4
                    guard c0 < c1 else {
                        // Only padding columns: nothing to read.
                        r.pad(dj, n)
                        handedOver = false
                        continue
                    }
                    let taps = r.yCounts[oy]
                    let w = yw.baseAddress! + oy * r.yStride
                    let shared = !r.linear && r.rowShared[oy]
                    // The columns read: this row's, and the next row's too for a shared last row.
                    var u0 = c0, u1 = c1, nextRange: (Int, Int)? = nil
                    if shared {
                        let nj0 = first[oy + 1], nj1 = end[oy + 1]
                        let n0 = nj0 < nj1 ? r.outputFirst[nj0] : c0, n1 = nj0 < nj1 ? r.outputEnd[nj1 - 1] : c1
                        if nj0 < nj1 && n0 < n1 {
                            (u0, u1) = (min(c0, n0), max(c1, n1))
                            nextRange = (u0, u1)
                        }
                    }
                    guard let (block, stride) = source.block(rows: r.yStarts[oy], count: taps,
                                                             x0: r.columnBase + u0, x1: r.columnBase + u1) else {
                        // Every pixel read is transparent: the sums are exactly zero, and so is
                        // every output pixel; the next row converts a shared row itself.
                        r.pad(dj, n)
                        handedOver = false
                        continue
                    }
                    let top = block + (c0 - u0) * 4
                    if r.linear {
                        for t in 0..<taps {
                            AreaResampler.accumulateLinear(top + t * stride, lut.baseAddress!, w[t], row + c0, c1 - c0, t == 0)
                        }
                        r.rowObserver?(oy, c0, UnsafeBufferPointer(start: row + c0, count: c1 - c0))
                        AreaResampler.reduceRowLinear(row, js, jc, jw, r.xStride, n, enc.baseAddress!, dj)
                        continue
                    }
                    let pending = r.rowPending[oy]
                    if pending && !handedOver {
                        AreaResampler.accumulateScaled(top, w[0], row + c0, c1 - c0, true)
                    }
                    AreaResampler.accumulateRows(top, stride, w, pending ? 1 : 0, shared ? taps - 1 : taps,
                                                 row + c0, c1 - c0)
                    handedOver = false
                    if shared {
                        let last = top + (taps - 1) * stride
                        if let (u0, u1) = nextRange {
                            let next = rows + ((oy + 1) & 1) * capacity
                            AreaResampler.accumulateShared(last + (u0 - c0) * 4, w[taps - 1], row + u0,
                                                           w[r.yStride], next + u0, u1 - u0, taps == 1 && !pending)
                            handedOver = true
                        } else {
                            AreaResampler.accumulateScaled(last, w[taps - 1], row + c0, c1 - c0, taps == 1 && !pending)
                        }
                    }
                    r.rowObserver?(oy, c0, UnsafeBufferPointer(start: row + c0, count: c1 - c0))
                    if let background = r.background {
                        AreaResampler.reduceRowOver(row, js, jc, jw, r.xStride, n, background, dj)
                    } else {
                        AreaResampler.reduceRow(row, js, jc, jw, xsp.baseAddress! + j0 * r.xStride, r.xStride, n, dj)
                    }
                }
            }}}}}}}
        }
    }

    /// `n` output pixels that no source pixel reaches: transparent, or the background.
    func pad(_ d: UnsafeMutablePointer<UInt8>, _ n: Int) {
        guard let background else { d.initialize(repeating: 0, count: n * 4); return }
        for j in 0..<n {
            d[j * 4] = UInt8(background[0]); d[j * 4 + 1] = UInt8(background[1]); d[j * 4 + 2] = UInt8(background[2])
            d[j * 4 + 3] = 255
        }
    }

    /// Columns `[lo, hi)` of the first and last of the `n` pixels that differ between `a` and
    /// `b`; `(0, 0)` when none does.
    static func changedSpan(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> (Int, Int) {
        if memcmp(a, b, n &* 4) == 0 { return (0, 0) }
        // Eight pixels (32 bytes) per step while they are equal, then one by one.
        var lo = 0
        while lo &+ 8 <= n && equalBlock(a, b, lo &* 4) { lo &+= 8 }
        while lo < n && a.loadUnaligned(fromByteOffset: lo &* 4, as: UInt32.self)
                == b.loadUnaligned(fromByteOffset: lo &* 4, as: UInt32.self) { lo &+= 1 }
        var hi = n
        while hi &- 8 > lo && equalBlock(a, b, (hi &- 8) &* 4) { hi &-= 8 }
        while hi > lo && a.loadUnaligned(fromByteOffset: (hi &- 1) &* 4, as: UInt32.self)
                == b.loadUnaligned(fromByteOffset: (hi &- 1) &* 4, as: UInt32.self) { hi &-= 1 }
        return lo < hi ? (lo, hi) : (0, 0)
    }

    /// True when the 32 bytes at `offset` are equal in `a` and `b`.
    @inline(__always)
    static func equalBlock(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ offset: Int) -> Bool {
        let x0 = a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let x1 = a.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
            ^ b.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self)
        let x2 = a.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self)
            ^ b.loadUnaligned(fromByteOffset: offset &+ 16, as: UInt64.self)
        let x3 = a.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self)
            ^ b.loadUnaligned(fromByteOffset: offset &+ 24, as: UInt64.self)
        return (x0 | x1 | x2 | x3) == 0
    }

    // MARK: vertical pass

    /// The source rows `t..<end` of one output row added into `row` (assigned when `t == 0`), in
    /// groups of three, then two, one: the sum stays in registers.
    @inline(__always)
    static func accumulateRows(_ top: UnsafeRawPointer, _ stride: Int, _ w: UnsafePointer<Float>, _ start: Int,
                               _ end: Int, _ row: UnsafeMutablePointer<SIMD4<Float>>, _ n: Int) {
        var t = start
        while t < end {
            let r = top + t * stride
            let first = t == 0
            switch end - t {
            case 1:
                accumulate1(r, w[t], row, n, first)
                t += 1
            case 2:
                accumulate2(r, w[t], r + stride, w[t + 1], row, n, first)
                t += 2
            default:
                accumulate3(r, w[t], r + stride, w[t + 1], r + 2 * stride, w[t + 2], row, n, first)
                t += 3
            }
        }
    }


    /// One source pixel premultiplied and weighted: rgb·a·w, 255·a·w. The alpha byte is forced
    /// to 255 before the conversion so that a single multiply by a·w handles all four lanes; one
    /// 32-bit load plus a scalar alpha is cheaper than extracting a lane (see NOTES.md).
    /// Little-endian: RGBA bytes load as 0xAABBGGRR.
    @inline(__always)
    static func premultiplied(_ src: UnsafeRawPointer, _ offset: Int, _ w: Float) -> SIMD4<Float> {
        let p = src.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        let v = SIMD4<Float>(unsafeBitCast(p | 0xFF00_0000, to: SIMD4<UInt8>.self))
        return v * (Float(p >> 24) * w)
    }

    /// `row[i] (+)= Σ premultiplied(r_k[i]) · w_k` over three source rows; the sum stays in a
    /// register so the float row is read and written once per three source rows.
    static func accumulate3(_ r0: UnsafeRawPointer, _ w0: Float, _ r1: UnsafeRawPointer, _ w1: Float,
                            _ r2: UnsafeRawPointer, _ w2: Float,
                            _ row: UnsafeMutablePointer<SIMD4<Float>>, _ n: Int, _ first: Bool) {
        if first {
            for i in 0..<n {
                let o = i &* 4
                row[i] = premultiplied(r0, o, w0) + premultiplied(r1, o, w1) + premultiplied(r2, o, w2)
            }
        } else {
            for i in 0..<n {
                let o = i &* 4
                row[i] += premultiplied(r0, o, w0) + premultiplied(r1, o, w1) + premultiplied(r2, o, w2)
            }
        }
    }

    /// Two-row version of `accumulate3`.
    static func accumulate2(_ r0: UnsafeRawPointer, _ w0: Float, _ r1: UnsafeRawPointer, _ w1: Float,
                            _ row: UnsafeMutablePointer<SIMD4<Float>>, _ n: Int, _ first: Bool) {
        if first {
            for i in 0..<n {
                let o = i &* 4
                row[i] = premultiplied(r0, o, w0) + premultiplied(r1, o, w1)
            }
        } else {
            for i in 0..<n {
                let o = i &* 4
                row[i] += premultiplied(r0, o, w0) + premultiplied(r1, o, w1)
            }
        }
    }

    /// One source row shared by two output rows, converted once:
    /// `row[i] (+)= p[i] · w`, `next[i] = p[i] · wNext`.
    static func accumulateShared(_ r0: UnsafeRawPointer, _ w: Float, _ row: UnsafeMutablePointer<SIMD4<Float>>,
                                 _ wNext: Float, _ next: UnsafeMutablePointer<SIMD4<Float>>, _ n: Int, _ first: Bool) {
        if first {
            for i in 0..<n {
                let p = premultiplied(r0, i &* 4, 1)
                row[i] = p * w
                next[i] = p * wNext
            }
        } else {
            for i in 0..<n {
                let p = premultiplied(r0, i &* 4, 1)
                row[i] += p * w
                next[i] = p * wNext
            }
        }
    }

    /// `row[i] (+)= p[i] · w` with `p` premultiplied at weight 1: one half of `accumulateShared`,
    /// for a row recomputed on its own.
    static func accumulateScaled(_ r0: UnsafeRawPointer, _ w: Float, _ row: UnsafeMutablePointer<SIMD4<Float>>,
                                 _ n: Int, _ first: Bool) {
        if first {
            for i in 0..<n { row[i] = premultiplied(r0, i &* 4, 1) * w }
        } else {
            for i in 0..<n { row[i] += premultiplied(r0, i &* 4, 1) * w }
        }
    }

    /// One-row version of `accumulate3`.
    static func accumulate1(_ r0: UnsafeRawPointer, _ w0: Float,
                            _ row: UnsafeMutablePointer<SIMD4<Float>>, _ n: Int, _ first: Bool) {
        if first {
            for i in 0..<n { row[i] = premultiplied(r0, i &* 4, w0) }
        } else {
            for i in 0..<n { row[i] += premultiplied(r0, i &* 4, w0) }
        }
    }

    /// Linear-light version of `accumulate1`: colour goes through the decode table first.
    static func accumulateLinear(_ src: UnsafeRawPointer, _ lut: UnsafePointer<Float>, _ w: Float,
                                 _ row: UnsafeMutablePointer<SIMD4<Float>>, _ n: Int, _ first: Bool) {
        let p = src.assumingMemoryBound(to: UInt8.self)
        for i in 0..<n {
            let q = p + i &* 4
            let m = Float(q[3]) * w
            let v = SIMD4<Float>(lut[Int(q[0])], lut[Int(q[1])], lut[Int(q[2])], 255) * m
            if first { row[i] = v } else { row[i] += v }
        }
    }

    // MARK: horizontal pass

    /// Reduces one premultiplied float row to `n` straight-alpha output pixels. Kept out of line
    /// (one call per output row costs nothing) so that profiles show the two passes apart.
    /// The float row must hold `stride - 1` finite, non-negative columns past its last used one.
    /// `splats` holds every weight of `weights` repeated in four lanes.
    @inline(never) static func reduceRow(_ row: UnsafePointer<SIMD4<Float>>, _ starts: UnsafePointer<Int32>,
                          _ counts: UnsafePointer<Int32>, _ weights: UnsafePointer<Float>,
                          _ splats: UnsafePointer<SIMD4<Float>>, _ stride: Int,
                          _ n: Int, _ dst: UnsafeMutablePointer<UInt8>) {
        // The tap counts of the corpus' fits are 2–3 (enlargement, mild reduction) or 4–5:
        // a fixed count avoids the inner loop and its mispredicted exits.
        switch stride {
        case 1: reduceRowFixed(row, starts, splats, n, dst, OneTap.self)
        case 2: reduceRowFixed(row, starts, splats, n, dst, TwoTaps.self)
        case 3: reduceRowFixed(row, starts, splats, n, dst, ThreeTaps.self)
        case 4: reduceRowFixed(row, starts, splats, n, dst, FourTaps.self)
        case 5: reduceRowFixed(row, starts, splats, n, dst, FiveTaps.self)
        default: reduceRowByCount(row, starts, counts, weights, stride, n, dst)
        }
    }

    /// `reduceRow` for any stride: each pixel sums its own count of products.
    static func reduceRowByCount(_ row: UnsafePointer<SIMD4<Float>>, _ starts: UnsafePointer<Int32>,
                                 _ counts: UnsafePointer<Int32>, _ weights: UnsafePointer<Float>, _ stride: Int,
                                 _ n: Int, _ dst: UnsafeMutablePointer<UInt8>) {
        let out = UnsafeMutableRawPointer(dst)
        for j in 0..<n {
            let base = row + Int(starts[j])
            let w = weights + j &* stride
            var acc = SIMD4<Float>()
            for t in 0..<Int(counts[j]) { acc += base[t] * w[t] }
            storePixel(acc, out, j)
        }
    }

    /// `reduceRow` with every pixel summing `taps` (its table stride) products. The weights past
    /// a pixel's count are zero and every term is finite and ≥ 0, so `acc + x · 0` is `acc`
    /// exactly and `0 + x` is `x`: the sums, so the bytes, are those of `reduceRowByCount`.
    /// Generic only to be specialized: each `TapCount` gets its own copy with the count constant.
    static func reduceRowFixed<Taps: TapCount>(_ row: UnsafePointer<SIMD4<Float>>, _ starts: UnsafePointer<Int32>,
                                               _ splats: UnsafePointer<SIMD4<Float>>, _ n: Int,
                                               _ dst: UnsafeMutablePointer<UInt8>, _: Taps.Type) {
        let taps = Taps.count
        let out = UnsafeMutableRawPointer(dst)
        // Sums first, into a small buffer, then the conversion: reading alpha back from memory
        // keeps the compiler from splitting each sum into lane pieces to get at alpha early
        // (which cost ~2× the instructions in the one-loop version).
        let chunk = 256
        let sums = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: chunk)
        defer { sums.deallocate() }
        var j0 = 0
        while j0 < n {
            let m = min(chunk, n &- j0)
            for i in 0..<m {
                let j = j0 &+ i
                sums[i] = sum(row + Int(starts[j]), splats + j &* taps, taps)
            }
            storePixels(sums, m, out + j0 &* 4)
            j0 &+= m
        }
    }

    /// `storePixel` over `n` sums.
    @inline(never)
    static func storePixels(_ sums: UnsafePointer<SIMD4<Float>>, _ n: Int, _ out: UnsafeMutableRawPointer) {
        let alphas = UnsafeRawPointer(sums) + 12
        var j = 0
        while j &+ 4 <= n {
            // Four alphas read back from memory: one vector division, and a run of transparent
            // pixels (the background of most stickers) costs one test.
            let alpha = SIMD4<Float>(alphas.load(fromByteOffset: j &* 16, as: Float.self),
                                     alphas.load(fromByteOffset: (j &+ 1) &* 16, as: Float.self),
                                     alphas.load(fromByteOffset: (j &+ 2) &* 16, as: Float.self),
                                     alphas.load(fromByteOffset: (j &+ 3) &* 16, as: Float.self))
            let visible = alpha .>= 0.5
            if !any(visible) {
                out.storeBytes(of: SIMD4<UInt32>(), toByteOffset: j &* 4, as: SIMD4<UInt32>.self)
            } else {
                let k = 255 / alpha
                let p0 = convert(sums[j], k[0]), p1 = convert(sums[j &+ 1], k[1])
                let p2 = convert(sums[j &+ 2], k[2]), p3 = convert(sums[j &+ 3], k[3])
                var pixels = SIMD4<UInt32>(p0, p1, p2, p3)
                pixels.replace(with: 0, where: .!visible)
                out.storeBytes(of: pixels, toByteOffset: j &* 4, as: SIMD4<UInt32>.self)
            }
            j &+= 4
        }
        while j < n {
            storePixel(sums[j], out, j)
            j &+= 1
        }
    }

    /// `storePixel`'s bytes, as one little-endian word, for a visible pixel given `k = 255 / alpha`.
    @inline(__always)
    static func convert(_ acc: SIMD4<Float>, _ k: Float) -> UInt32 {
        let magic = SIMD4<Float>(repeating: 12582912)
        var c = acc * SIMD4<Float>(k, k, k, 1)
        c.replace(with: 255, where: c .> 255)
        let bits = unsafeBitCast(c + magic, to: SIMD4<UInt32>.self)
        return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: bits), to: UInt32.self)
    }

    /// `Σ base[t] · w[t]` over `taps` columns, the first product not added to zero.
    @inline(__always)
    static func sum(_ base: UnsafePointer<SIMD4<Float>>, _ w: UnsafePointer<SIMD4<Float>>, _ taps: Int) -> SIMD4<Float> {
        var acc = base[0] * w[0]
        for t in 1..<taps { acc += base[t] * w[t] }
        return acc
    }

    /// Output pixel `j` from its premultiplied sum: `255 / alpha`, `replace(with:where:)` for the
    /// upper clamp and the `+ 1.5·2²³` bit-cast rounding; zero when alpha rounds to 0.
    @inline(__always)
    static func storePixel(_ acc: SIMD4<Float>, _ out: UnsafeMutableRawPointer, _ j: Int) {
        let alpha = acc[3]
        if !(alpha >= 0.5) {
            out.storeBytes(of: 0, toByteOffset: j &* 4, as: UInt32.self)
            return
        }
        let magic = SIMD4<Float>(repeating: 12582912)  // 1.5·2²³: adding it rounds to nearest
        var c = acc * (255 / alpha)
        c[3] = alpha
        c.replace(with: 255, where: c .> 255)
        let bits = unsafeBitCast(c + magic, to: SIMD4<UInt32>.self)
        out.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: bits), toByteOffset: j &* 4, as: SIMD4<UInt8>.self)
    }

    /// `reduceRow` for opaque output: each premultiplied sum composited over `background`
    /// (`c + b · (1 − α/255)`), rounded half up and clamped to 0…255. Icons and previews, not
    /// stickers: a plain loop.
    static func reduceRowOver(_ row: UnsafePointer<SIMD4<Float>>, _ starts: UnsafePointer<Int32>,
                              _ counts: UnsafePointer<Int32>, _ weights: UnsafePointer<Float>, _ stride: Int,
                              _ n: Int, _ background: SIMD4<Float>, _ dst: UnsafeMutablePointer<UInt8>) {
        for j in 0..<n {
            let base = row + Int(starts[j])
            let w = weights + j &* stride
            var acc = SIMD4<Float>()
            for t in 0..<Int(counts[j]) { acc += base[t] * w[t] }
            let keep = 1 - acc[3] * (1.0 / 255.0)
            let d = dst + j &* 4
            d[0] = roundedByte(acc[0] + background[0] * keep)
            d[1] = roundedByte(acc[1] + background[1] * keep)
            d[2] = roundedByte(acc[2] + background[2] * keep)
            d[3] = 255
        }
    }

    /// `v` rounded half up to a byte, clamped to 0…255.
    @inline(__always)
    static func roundedByte(_ v: Float) -> UInt8 {
        v <= 0 ? 0 : v >= 255 ? 255 : UInt8(v + 0.5)
    }

    /// Linear-light version of `reduceRow`: straight linear colour back to sRGB through the table.
    static func reduceRowLinear(_ row: UnsafePointer<SIMD4<Float>>, _ starts: UnsafePointer<Int32>,
                                _ counts: UnsafePointer<Int32>, _ weights: UnsafePointer<Float>, _ stride: Int,
                                _ n: Int, _ enc: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>) {
        let top = Float(SRGB.encodeSteps - 1)
        for j in 0..<n {
            let base = row + Int(starts[j])
            let w = weights + j &* stride
            var acc = SIMD4<Float>()
            for t in 0..<Int(counts[j]) { acc += base[t] * w[t] }
            let alpha = min(acc[3], 255)
            let d = dst + j &* 4
            let a8 = Int(alpha + 0.5)
            if !(alpha >= 0) || a8 == 0 {
                d[0] = 0; d[1] = 0; d[2] = 0; d[3] = 0
                continue
            }
            let k = top / acc[3]
            d[0] = enc[Int(min(acc[0] * k, top) + 0.5)]
            d[1] = enc[Int(min(acc[1] * k, top) + 0.5)]
            d[2] = enc[Int(min(acc[2] * k, top) + 0.5)]
            d[3] = UInt8(a8)
        }
    }
}

#if _endian(big)
#error("AreaResampler.premultiplied assumes little-endian RGBA loads")
#endif
