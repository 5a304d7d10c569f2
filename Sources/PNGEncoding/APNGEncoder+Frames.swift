import Dispatch
import Foundation
import ImageCore

/// A region of the canvas.
struct CanvasRect: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    /// Whether `other` lies inside this rectangle (or equals it).
    func contains(_ other: CanvasRect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }
}

extension APNGEncoder {
    /// One frame as it will be written.
    struct WrittenFrame {
        var rect: CanvasRect
        /// 0 SOURCE, 1 OVER.
        var blend: UInt8
        /// 0 NONE, 1 BACKGROUND; decided when the next frame is laid out.
        var dispose: UInt8
        var delay: Delay
        var stream: [UInt8]
    }

    /// One way of writing a frame: the previous frame's dispose op, this frame's blend op, and
    /// the cropped raster with its filtered bytes at the comparison strategy.
    struct Candidate {
        var dispose: UInt8
        var blend: UInt8
        var rect: CanvasRect
        var raster: Raster
        var filtered: [UInt8]
    }

    /// Frames whose final streams are compressed together, in parallel: enough to keep the cores
    /// busy, few enough that the held rasters stay small.
    static let compressionBatch = 8

    /// Each raster's stream under `plan`, on up to as many threads as there are cores and rasters
    /// (`first` serves the calling thread). Every stream is made by one thread from its raster
    /// alone, so the bytes do not depend on the scheduling.
    static func compressInParallel(_ rasters: [Raster], plan: EncodingPlan, first: ZlibCompressor) -> [[UInt8]] {
        let workers = min(rasters.count, ProcessInfo.processInfo.activeProcessorCount)
        if workers <= 1 { return rasters.map { plan.compress($0, with: first) } }
        var streams = [[UInt8]](repeating: [], count: rasters.count)
        streams.withUnsafeMutableBufferPointer { out in
            let out = out
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                let compressor = w == 0 ? first : ZlibCompressor()
                var j = w
                while j < rasters.count {
                    out[j] = plan.compress(rasters[j], with: compressor)
                    j += workers
                }
            }
        }
        return streams
    }

    /// The deflate level candidates are ranked at. Level 1 is several times cheaper than level
    /// 6 and picked the same layout often enough that the files grew by 0.05 % (NOTES.md).
    static let rankingLevel = 1
    /// Below this many bytes in all, candidates are compared at the candidate level itself: it
    /// costs microseconds there, and level 1 often ties on tiny frames.
    static let exactRankingBytes = 16_384

    /// The candidate to write (the smallest at `rankingLevel`; the earlier one on a tie), and
    /// its zlib stream at `level` when `needStream`.
    func choose(_ candidates: [Candidate], compressor: ZlibCompressor, level: Int, needStream: Bool) -> (Candidate, [UInt8]?) {
        var best = 0
        if candidates.count > 1 && candidates.reduce(0, { $0 + $1.filtered.count }) < APNGEncoder.exactRankingBytes {
            var bestStream: [UInt8] = []
            for (i, c) in candidates.enumerated() {
                let stream = compressor.compress(c.filtered, level: level)
                if i == 0 || stream.count < bestStream.count { best = i; bestStream = stream }
            }
            return (candidates[best], needStream ? bestStream : nil)
        }
        if candidates.count > 1 {
            var bestSize = Int.max
            for (i, c) in candidates.enumerated() {
                let size = c.filtered.withUnsafeBufferPointer {
                    compressor.compressedSize($0.baseAddress!, count: $0.count, level: APNGEncoder.rankingLevel)
                }
                if size < bestSize { best = i; bestSize = size }
            }
        }
        return (candidates[best], needStream ? compressor.compress(candidates[best].filtered, level: level) : nil)
    }

    var kind: EncodingPlan.Kind {
        switch source {
        case .indexed(let layout, _): layout.bitDepth < 8 ? .packedPalette : .palette
        case .truecolor: .truecolor
        }
    }

    var frameCount: Int {
        switch source {
        case .indexed(_, let f): f.count
        case .truecolor(_, let f): f.count
        }
    }

    /// The file and the total size of its zlib streams. `planFor` gives the compression plan
    /// for this animation's kind of raster.
    func encode(_ planFor: (EncodingPlan.Kind) -> EncodingPlan) -> (bytes: [UInt8], streamBytes: Int) {
        if frameCount == 1 && !alwaysAnimated { return still(planFor) }
        let plan = planFor(kind)
        // Layout candidates are ranked by a cheap level-1 deflate; the winner is then compressed
        // with the full plan, or at the candidate level when the plan is exactly that.
        let candidateLevel = min(plan.level, 6)
        let reuseCandidate = plan.strategies.count == 1 && plan.level == candidateLevel
        let candidateStrategy = EncodingPlan.defaultStrategy(for: kind)
        let compressor = ZlibCompressor()
        let pixels = width * height
        let full = CanvasRect(x: 0, y: 0, width: width, height: height)

        var previous = keys(ofFrame: 0)
        var written = [WrittenFrame(rect: full, blend: 0, dispose: 0, delay: delays[0],
                                    stream: plan.compress(raster(previous, rect: full, base: nil), with: compressor))]
        // Layouts are chosen frame by frame (each depends on the frame before); the chosen
        // rasters' final streams do not depend on each other, so they are compressed a batch at
        // a time on every core.
        var pending: [(index: Int, raster: Raster)] = []
        func compressPending() {
            let streams = APNGEncoder.compressInParallel(pending.map(\.raster), plan: plan, first: compressor)
            for (k, p) in pending.enumerated() { written[p.index].stream = streams[k] }
            pending.removeAll(keepingCapacity: true)
        }
        // Buffers reused across frames: fresh canvas-sized arrays per frame cost page faults.
        var base = [UInt32](repeating: 0, count: pixels)
        var target = [UInt32](repeating: 0, count: pixels)
        for i in 1..<frameCount {
            keys(ofFrame: i, into: &target)
            if target == previous {
                written[written.count - 1].delay = written[written.count - 1].delay + delays[i]
                continue
            }
            var candidates: [Candidate] = []
            for dispose: UInt8 in [0, 1] {
                if dispose == 1 {
                    APNGEncoder.copy(previous, into: &base)
                    clear(&base, written[written.count - 1].rect)
                }
                let rect = APNGEncoder.differingBounds(target, dispose == 1 ? base : previous, width: width, height: height)
                    ?? CanvasRect(x: 0, y: 0, width: 1, height: 1)
                // SOURCE depends only on the rectangle: the same rectangle gives the same bytes, and
                // a rectangle holding an earlier SOURCE's is those bytes and more.
                if !candidates.contains(where: { $0.blend == 0 && rect.contains($0.rect) }) {
                    let r = raster(target, rect: rect, base: nil)
                    candidates.append(Candidate(dispose: dispose, blend: 0, rect: rect, raster: r,
                                                filtered: ScanlineFilter.filter(r, strategy: candidateStrategy)))
                }
                if let over = overRaster(target, rect: rect, base: dispose == 1 ? base : previous) {
                    candidates.append(Candidate(dispose: dispose, blend: 1, rect: rect, raster: over,
                                                filtered: ScanlineFilter.filter(over, strategy: candidateStrategy)))
                }
            }
            let (chosen, candidateStream) = choose(candidates, compressor: compressor, level: candidateLevel,
                                                   needStream: reuseCandidate)
            written[written.count - 1].dispose = chosen.dispose
            written.append(WrittenFrame(rect: chosen.rect, blend: chosen.blend, dispose: 0, delay: delays[i],
                                        stream: candidateStream ?? []))
            if candidateStream == nil {
                pending.append((written.count - 1, chosen.raster))
                if pending.count == APNGEncoder.compressionBatch { compressPending() }
            }
            swap(&previous, &target)
        }
        compressPending()
        // A one-frame input is a still. An animation whose frames are all alike stays an APNG that
        // keeps its duration and loop count, and it keeps two frames — the first frame's time,
        // then one unchanged pixel redrawn for the rest — because viewers and checkers take a
        // one-frame APNG for a still.
        if written.count == 1 && frameCount == 1 && !alwaysAnimated { return still(planFor) }
        if written.count == 1 && frameCount > 1 {
            let rest = delays[1...].reduce(Delay.zero, +)
            if rest > .zero {
                written[0].delay = delays[0]
                let pixel = CanvasRect(x: 0, y: 0, width: 1, height: 1)
                written.append(WrittenFrame(rect: pixel, blend: 0, dispose: 0, delay: rest,
                                            stream: plan.compress(raster(previous, rect: pixel, base: nil), with: compressor)))
            }
        }
        return (file(written), written.reduce(0) { $0 + $1.stream.count })
    }

    /// The first frame as a plain PNG, for one-frame input.
    private func still(_ planFor: (EncodingPlan.Kind) -> EncodingPlan) -> (bytes: [UInt8], streamBytes: Int) {
        switch source {
        case .indexed(_, let frames): PNGEncoder.encodeIndexed(frames[0], plan: planFor)
        case .truecolor(_, let frames): PNGEncoder.encodeTruecolor(frames[0], plan: planFor)
        }
    }

    private func file(_ frames: [WrittenFrame]) -> [UInt8] {
        var w = PNGChunkWriter(reservingCapacity: frames.reduce(0) { $0 + $1.stream.count + 64 })
        switch source {
        case .indexed(let layout, _):
            w.append("IHDR", PNGChunkWriter.header(width: width, height: height, bitDepth: layout.bitDepth, colorType: 3))
        case .truecolor(let layout, _):
            w.append("IHDR", PNGChunkWriter.header(width: width, height: height, bitDepth: 8, colorType: layout.colorType))
        }
        w.append("sRGB", PNGChunkWriter.srgbPerceptual)
        var actl: [UInt8] = []
        APNGEncoder.appendBigEndian(UInt32(frames.count), to: &actl)
        APNGEncoder.appendBigEndian(UInt32(loopCount), to: &actl)
        w.append("acTL", actl)
        if case .indexed(let layout, _) = source {
            w.append("PLTE", layout.plte)
            if layout.translucentCount > 0 { w.append("tRNS", layout.trns) }
        }
        var sequence: UInt32 = 0
        for (n, f) in frames.enumerated() {
            var fctl: [UInt8] = []
            fctl.reserveCapacity(26)
            for v in [sequence, UInt32(f.rect.width), UInt32(f.rect.height), UInt32(f.rect.x), UInt32(f.rect.y)] {
                APNGEncoder.appendBigEndian(v, to: &fctl)
            }
            let (num, den) = f.delay.apngFraction
            fctl += [UInt8(num >> 8), UInt8(num & 0xFF), UInt8(den >> 8), UInt8(den & 0xFF), f.dispose, f.blend]
            w.append("fcTL", fctl)
            sequence += 1
            if n == 0 {
                w.appendImageData(f.stream)
            } else {
                w.appendFrameData(f.stream, sequence: &sequence)
            }
        }
        w.append("IEND", [])
        return w.bytes
    }

    private static func appendBigEndian(_ v: UInt32, to d: inout [UInt8]) {
        d += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    // MARK: Keys and samples

    /// The comparison keys of frame `i` (see the type's comment).
    func keys(ofFrame i: Int) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: width * height)
        keys(ofFrame: i, into: &out)
        return out
    }

    /// The comparison keys of frame `i` written over `out`, which holds `width × height` keys.
    func keys(ofFrame i: Int, into out: inout [UInt32]) {
        switch source {
        case .indexed(let layout, let frames):
            var table = [UInt32](repeating: 0, count: 256)
            for old in 0..<256 {
                let written = layout.remap[old]
                let c = Int(written) < layout.palette.count ? layout.palette[Int(written)] : RGBA(0, 0, 0, 0)
                table[old] = c == RGBA(0, 0, 0, 0) ? clearKey : UInt32(written)
            }
            table.withUnsafeBufferPointer { t in
                frames[i].indices.withUnsafeBufferPointer { s in
                    out.withUnsafeMutableBufferPointer { o in
                        APNGEncoder.lookup(s.baseAddress!, count: s.count, table: t.baseAddress!, into: o.baseAddress!)
                    }
                }
            }
        case .truecolor(_, let frames):
            out.withUnsafeMutableBytes { o in
                frames[i].pixels.withUnsafeBytes { s in o.copyMemory(from: s) }
            }
        }
    }

    /// The raster of `keys` inside `rect`.
    func raster(_ keys: [UInt32], rect: CanvasRect, base: [UInt32]?) -> Raster {
        var crop = [UInt32](repeating: 0, count: rect.width * rect.height)
        keys.withUnsafeBufferPointer { k in
            crop.withUnsafeMutableBufferPointer { c in
                APNGEncoder.crop(k.baseAddress!, canvasWidth: width, rect: rect, into: c.baseAddress!)
            }
        }
        return samples(crop, width: rect.width, height: rect.height)
    }

    /// The OVER form of `target` inside `rect`: pixels equal to `base` become "keep" (fully
    /// transparent). Nil when OVER cannot reproduce `target` exactly in every reader (a changed
    /// pixel that is not opaque) or when there is no transparent sample to write.
    func overRaster(_ target: [UInt32], rect: CanvasRect, base: [UInt32]) -> Raster? {
        var alpha: [UInt8]? = nil
        let keep: UInt32
        switch source {
        case .indexed(let layout, _):
            guard layout.transparentIndex != nil else { return nil }
            var a = [UInt8](repeating: 0, count: 258)
            for (n, c) in layout.palette.enumerated() { a[n] = c.a }
            alpha = a
            keep = APNGEncoder.keepKey
        case .truecolor(let layout, _):
            guard layout.hasAlpha else { return nil }
            keep = 0
        }
        var crop = [UInt32](repeating: 0, count: rect.width * rect.height)
        let kept = target.withUnsafeBufferPointer { t in
            base.withUnsafeBufferPointer { b in
                crop.withUnsafeMutableBufferPointer { c in
                    if let alpha {
                        return alpha.withUnsafeBufferPointer { a in
                            APNGEncoder.cropOver(t.baseAddress!, base: b.baseAddress!, canvasWidth: width, rect: rect,
                                                 alpha: a.baseAddress, keep: keep, into: c.baseAddress!)
                        }
                    }
                    return APNGEncoder.cropOver(t.baseAddress!, base: b.baseAddress!, canvasWidth: width, rect: rect,
                                                alpha: nil, keep: keep, into: c.baseAddress!)
                }
            }
        }
        // With no pixel kept, OVER writes exactly the SOURCE raster of the same rectangle, which is
        // always a candidate already (and wins the tie).
        return kept > 0 ? samples(crop, width: rect.width, height: rect.height) : nil
    }

    /// Keys → the raster PNG stores.
    private func samples(_ keys: [UInt32], width w: Int, height h: Int) -> Raster {
        switch source {
        case .indexed(let layout, _):
            var table = [UInt8](repeating: 0, count: 258)
            for n in 0..<256 { table[n] = UInt8(n) }
            table[256] = UInt8(layout.palette.firstIndex(of: RGBA(0, 0, 0, 0)) ?? 0)
            table[257] = layout.transparentIndex ?? 0
            var indices = [UInt8](repeating: 0, count: keys.count)
            table.withUnsafeBufferPointer { t in
                keys.withUnsafeBufferPointer { k in
                    indices.withUnsafeMutableBufferPointer { o in
                        APNGEncoder.narrow(k.baseAddress!, count: k.count, table: t.baseAddress!, into: o.baseAddress!)
                    }
                }
            }
            return indices.withUnsafeBufferPointer {
                Raster.packing($0.baseAddress!, width: w, height: h, bitDepth: layout.bitDepth)
            }
        case .truecolor(let layout, _):
            let bytes = keys.withUnsafeBytes { [UInt8]($0) }
            return layout.raster(bytes, width: w, height: h)
        }
    }

    /// `source` over `destination`, of the same count, without a new allocation.
    private static func copy(_ source: [UInt32], into destination: inout [UInt32]) {
        source.withUnsafeBufferPointer { s in
            destination.withUnsafeMutableBufferPointer { d in d.baseAddress!.update(from: s.baseAddress!, count: s.count) }
        }
    }

    private func clear(_ canvas: inout [UInt32], _ r: CanvasRect) {
        let clearKey = clearKey
        let width = width
        canvas.withUnsafeMutableBufferPointer { c in
            for y in r.y..<(r.y + r.height) {
                (c.baseAddress! + y * width + r.x).update(repeating: clearKey, count: r.width)
            }
        }
    }

    // MARK: Kernels

    @inline(never)
    static func lookup(_ s: UnsafePointer<UInt8>, count: Int, table: UnsafePointer<UInt32>, into o: UnsafeMutablePointer<UInt32>) {
        var i = 0
        while i < count { o[i] = table[Int(s[i])]; i &+= 1 }
    }

    @inline(never)
    static func narrow(_ s: UnsafePointer<UInt32>, count: Int, table: UnsafePointer<UInt8>, into o: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i < count { o[i] = table[Int(s[i])]; i &+= 1 }
    }

    /// The smallest rectangle holding every pixel where `a` and `b` differ; nil when none does.
    static func differingBounds(_ a: [UInt32], _ b: [UInt32], width: Int, height: Int) -> CanvasRect? {
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                differingBounds(pa.baseAddress!, pb.baseAddress!, width: width, height: height)
            }
        }
    }

    @inline(never)
    static func differingBounds(_ a: UnsafePointer<UInt32>, _ b: UnsafePointer<UInt32>, width: Int, height: Int) -> CanvasRect? {
        var top = -1, bottom = -1
        var left = width, right = -1
        var y = 0
        while y < height {
            let ra = a + y * width, rb = b + y * width
            // Most rows of most frames are unchanged: libc's vectorised memcmp settles those
            // (the pixel loop below ran at about one pixel per cycle, a tenth of a screen
            // recording's encode).
            if memcmp(ra, rb, width &* 4) == 0 { y &+= 1; continue }
            var x = 0
            while x < width && ra[x] == rb[x] { x &+= 1 }
            if x < width {
                if top < 0 { top = y }
                bottom = y
                if x < left { left = x }
                var r = width - 1
                while r > right && ra[r] == rb[r] { r -= 1 }
                if r > right { right = r }
            }
            y &+= 1
        }
        if top < 0 { return nil }
        return CanvasRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    @inline(never)
    static func crop(_ s: UnsafePointer<UInt32>, canvasWidth: Int, rect: CanvasRect, into o: UnsafeMutablePointer<UInt32>) {
        var y = 0
        while y < rect.height {
            (o + y * rect.width).update(from: s + (rect.y + y) * canvasWidth + rect.x, count: rect.width)
            y &+= 1
        }
    }

    /// Crops `target` to `rect`, writing `keep` where it equals `base`; returns how many pixels
    /// were kept, or -1 when a changed pixel is not opaque. `alpha` maps palette keys to alpha; nil means the key holds RGBA bytes.
    @inline(never)
    static func cropOver(_ target: UnsafePointer<UInt32>, base: UnsafePointer<UInt32>, canvasWidth: Int, rect: CanvasRect,
                         alpha: UnsafePointer<UInt8>?, keep: UInt32, into o: UnsafeMutablePointer<UInt32>) -> Int {
        var y = 0
        var out = o
        var kept = 0
        while y < rect.height {
            let t = target + (rect.y + y) * canvasWidth + rect.x
            let b = base + (rect.y + y) * canvasWidth + rect.x
            var x = 0
            while x < rect.width {
                let k = t[x]
                if k == b[x] {
                    out[x] = keep
                    kept &+= 1
                } else {
                    let a: UInt8
                    if let alpha { a = alpha[Int(k)] } else { a = UInt8(truncatingIfNeeded: UInt32(littleEndian: k) >> 24) }
                    if a != 255 { return -1 }
                    out[x] = k
                }
                x &+= 1
            }
            out += rect.width
            y &+= 1
        }
        return kept
    }
}
