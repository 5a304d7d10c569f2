import ImageCore

/// The fast resampler: separable, vertical pass into one float row of premultiplied pixels,
/// then horizontal pass straight to 8-bit straight-alpha output. Built once per fit from the two
/// axis tables and reused for every frame. See NOTES.md for why it is written this way.
final class AreaResampler {
    let outputWidth: Int
    let outputHeight: Int
    let sourceWidth: Int
    let linear: Bool
    /// First source column the vertical pass reads; horizontal starts are relative to it.
    private let columnBase: Int
    /// Columns the vertical pass covers (every column some output pixel uses).
    private let span: Int
    private let xStarts: [Int32], xCounts: [Int32], xWeights: [Float], xStride: Int
    private let yStarts: [Int], yCounts: [Int], yWeights: [Float], yStride: Int
    private let decode: [Float]
    private let encode: [UInt8]

    /// A resampler for sources `sourceWidth` pixels wide. Source indices in `x` and `y` are
    /// absolute. `linear` averages in linear light.
    init(x: AxisWeights, y: AxisWeights, sourceWidth: Int, linear: Bool) {
        outputWidth = x.outputCount
        outputHeight = y.outputCount
        self.sourceWidth = sourceWidth
        self.linear = linear
        columnBase = x.minSource
        span = max(0, x.maxSource - x.minSource)
        xStarts = x.starts.map { Int32(truncatingIfNeeded: max(0, $0 - x.minSource)) }
        xCounts = x.counts.map { Int32(truncatingIfNeeded: $0) }
        xWeights = x.weights.map { Float($0) }
        xStride = x.stride
        yStarts = y.starts
        yCounts = y.counts
        // The 1/255 folds the alpha scale into the row weight: rgb accumulates w·c·a/255 and
        // alpha w·a, both in 0…255 units.
        yWeights = y.weights.map { Float($0 / 255) }
        yStride = y.stride
        decode = linear ? SRGB.decodeTable : []
        encode = linear ? SRGB.encodeTable : []
    }

    /// `outputWidth × outputHeight` straight-alpha RGBA bytes of `image` resampled. Every byte is
    /// written; colour under fully transparent output pixels is zero.
    func resample(_ image: Image) -> [UInt8] {
        let ow = outputWidth, oh = outputHeight
        let total = ow * oh * 4
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            guard let dst = out.baseAddress else { initialized = 0; return }
            // Two float rows: the current output row and the next one, which may already hold
            // the source row both share (converted once, added to both).
            let rows = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 2 * max(span, 1))
            defer { rows.deallocate() }
            image.pixels.withUnsafeBufferPointer { src in
                xStarts.withUnsafeBufferPointer { xs in
                xCounts.withUnsafeBufferPointer { xc in
                xWeights.withUnsafeBufferPointer { xw in
                yWeights.withUnsafeBufferPointer { yw in
                decode.withUnsafeBufferPointer { lut in
                encode.withUnsafeBufferPointer { enc in
                    var pending = false
                    for oy in 0..<oh {
                        let d = dst + oy * ow * 4
                        let taps = yCounts[oy]
                        guard taps > 0, span > 0, let s = src.baseAddress else {
                            d.initialize(repeating: 0, count: ow * 4)
                            pending = false
                            continue
                        }
                        let row = rows + (oy & 1) * span
                        let stride = sourceWidth * 4
                        let top = UnsafeRawPointer(s + (yStarts[oy] * sourceWidth + columnBase) * 4)
                        let w = yw.baseAddress! + oy * yStride
                        if linear {
                            for t in 0..<taps {
                                AreaResampler.accumulateLinear(top + t * stride, lut.baseAddress!, w[t], row, span, t == 0)
                            }
                            AreaResampler.reduceRowLinear(row, xs.baseAddress!, xc.baseAddress!, xw.baseAddress!,
                                                          xStride, ow, enc.baseAddress!, d)
                            continue
                        }
                        var t = pending ? 1 : 0
                        let shared = oy + 1 < oh && yCounts[oy + 1] > 0
                            && yStarts[oy + 1] == yStarts[oy] + taps - 1 && taps - 1 >= t
                        let end = shared ? taps - 1 : taps
                        // Rows in groups of three (then two, one): the sum stays in registers.
                        while t < end {
                            let r = top + t * stride
                            let first = t == 0
                            switch end - t {
                            case 1:
                                AreaResampler.accumulate1(r, w[t], row, span, first)
                                t += 1
                            case 2:
                                AreaResampler.accumulate2(r, w[t], r + stride, w[t + 1], row, span, first)
                                t += 2
                            default:
                                AreaResampler.accumulate3(r, w[t], r + stride, w[t + 1], r + 2 * stride, w[t + 2],
                                                          row, span, first)
                                t += 3
                            }
                        }
                        if shared {
                            let next = rows + ((oy + 1) & 1) * span
                            AreaResampler.accumulateShared(top + (taps - 1) * stride, w[taps - 1], row,
                                                           w[yStride], next, span, taps == 1 && !pending)
                        }
                        pending = shared
                        AreaResampler.reduceRow(row, xs.baseAddress!, xc.baseAddress!, xw.baseAddress!, xStride, ow, d)
                    }
                }}}}}}
            }
            initialized = total
        }
    }

    // MARK: vertical pass

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
    @inline(never) static func reduceRow(_ row: UnsafePointer<SIMD4<Float>>, _ starts: UnsafePointer<Int32>,
                          _ counts: UnsafePointer<Int32>, _ weights: UnsafePointer<Float>, _ stride: Int,
                          _ n: Int, _ dst: UnsafeMutablePointer<UInt8>) {
        let out = UnsafeMutableRawPointer(dst)
        let magic = SIMD4<Float>(repeating: 12582912)  // 1.5·2²³: adding it rounds to nearest
        for j in 0..<n {
            let base = row + Int(starts[j])
            let w = weights + j &* stride
            var acc = SIMD4<Float>()
            for t in 0..<Int(counts[j]) { acc += base[t] * w[t] }
            let alpha = acc[3]
            if !(alpha >= 0.5) {
                out.storeBytes(of: 0, toByteOffset: j &* 4, as: UInt32.self)
                continue
            }
            var c = acc * (255 / alpha)
            c[3] = alpha
            c.replace(with: 255, where: c .> 255)
            let bits = unsafeBitCast(c + magic, to: SIMD4<UInt32>.self)
            out.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: bits), toByteOffset: j &* 4, as: SIMD4<UInt8>.self)
        }
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
