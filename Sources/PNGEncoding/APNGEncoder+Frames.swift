import Dispatch
import Foundation
import ImageCore

extension APNGEncoder {
    /// Frames whose final streams are compressed together, in parallel: enough to keep the cores
    /// busy, few enough that the held rasters stay small.
    static let compressionBatch = 8

    /// Each raster's stream under `plan`, on the calling thread plus the run's spare cores
    /// (`CorePool`), at most one thread per raster (`compressor` serves a single-threaded call).
    /// Every stream is made by one thread from its raster alone, so the bytes do not depend on
    /// the scheduling.
    static func compressInParallel(_ rasters: [Raster], plan: EncodingPlan, compressor: ZlibCompressor) -> [[UInt8]] {
        CorePool.shared.withSpareCores(upTo: rasters.count - 1) { spare in
            compressInParallel(rasters, plan: plan, compressor: compressor, workers: spare + 1)
        }
    }

    private static func compressInParallel(_ rasters: [Raster], plan: EncodingPlan, compressor: ZlibCompressor,
                                           workers: Int) -> [[UInt8]] {
        if workers <= 1 { return rasters.map { plan.compress($0, with: compressor) } }
        var streams = [[UInt8]](repeating: [], count: rasters.count)
        streams.withUnsafeMutableBufferPointer { buffer in
            let slots = DisjointSlots(buffer)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                // A libdeflate compressor is not thread-safe: one per worker.
                let own = ZlibCompressor()
                // Worker `w` fills the slots `w, w + workers, …`: no slot has two writers.
                for j in stride(from: w, to: rasters.count, by: workers) {
                    slots.store(plan.compress(rasters[j], with: own), at: j)
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
            var bestSize = Double.infinity
            for (i, c) in candidates.enumerated() {
                let size = APNGEncoder.rankingSize(c, compressor: compressor)
                if size < bestSize { best = i; bestSize = size }
            }
        }
        return (candidates[best], needStream ? compressor.compress(candidates[best].filtered, level: level) : nil)
    }

    /// A candidate's deflated size at `rankingLevel`, from the rows of its ranking sample
    /// (`RasterStreams.sampleRows`: a quarter of a large raster, in bands) scaled to all its
    /// rows. The bands keep the rows' neighbours, and candidates of one frame share most of
    /// their rows, so the sample ranks them as the whole rasters do at a quarter of the cost.
    static func rankingSize(_ c: Candidate, compressor: ZlibCompressor) -> Double {
        let h = c.raster.height, stride = c.raster.rowBytes + 1
        let rows = RasterStreams.sampleRows(height: h, rowBytes: c.raster.rowBytes)
        return c.filtered.withUnsafeBufferPointer { f in
            if rows.count == 1 && rows[0] == 0..<h {
                return Double(compressor.compressedSize(c.filtered, level: rankingLevel))
            }
            var sample: [UInt8] = []
            sample.reserveCapacity(rows.reduce(0) { $0 + $1.count } * stride)
            for r in rows { sample.append(contentsOf: f[(r.lowerBound * stride)..<(r.upperBound * stride)]) }
            let n = compressor.compressedSize(sample, level: rankingLevel)
            return Double(n) * Double(h) / Double(sample.count / stride)
        }
    }

    var kind: EncodingPlan.Kind {
        switch source {
        case .indexed(let layout, _): layout.bitDepth < 8 ? .packedPalette : .palette
        case .truecolor: .truecolor
        }
    }

    var frameCount: Int { frames.count }

    /// The file, the total size of its zlib streams and the layout it used. `planFor` gives
    /// the compression plan for this animation's kind of raster. With `reusing`, that layout is
    /// written instead of searching one; it is checked against the frames as they are written
    /// (every pixel outside a frame's rectangle must equal the canvas, every merged frame its
    /// predecessor, every changed pixel of an OVER frame must be opaque), so the file is exact
    /// whatever layout is given, or the call throws.
    ///
    /// With `reusing` and `only`, just the written frames in `only` are compressed; the others
    /// keep the given layout's streams, which must have been made from these same frames.
    ///
    /// With `stopPast` (no `reusing`, streams compressed as the frames are laid out), the walk
    /// stops once the file written so far passes that many bytes, after at least two input
    /// frames, and throws `Stopped` with the whole file's size extrapolated from the frames
    /// walked (`estimatedSize`, by `weights` when given: one per input frame). With
    /// `projectedPast` too, it also stops once a quarter of the later frames' weight is walked
    /// and the extrapolated size passes that many bytes.
    ///
    /// Without `firstStream` (no `reusing`), the first frame is laid out but not compressed: its
    /// stream is left empty, for callers that want only what the later frames add.
    ///
    /// The frames are walked once, in order; the canvas model holds what the frame before left.
    func encode(_ planFor: (EncodingPlan.Kind) -> EncodingPlan,
                reusing given: APNGLayout? = nil, only: Set<Int>? = nil,
                stopPast: Int? = nil, projectedPast: Int? = nil, weights: [Int] = [],
                firstStream: Bool = true) throws -> (bytes: [UInt8], streamBytes: Int, layout: APNGLayout) {
        if let given { try check(given) }
        /// The given stream of written frame `w` when it is kept as it is.
        func kept(_ w: Int) -> [UInt8]? {
            guard let only, let given, !only.contains(w), w < given.streams.count else { return nil }
            return given.streams[w]
        }
        let full = CanvasRect(x: 0, y: 0, width: width, height: height)
        if frameCount == 1 && !alwaysAnimated {
            var result: (bytes: [UInt8], streamBytes: Int) = ([], 0)
            try frames.forEach { i, samples, _ in if i == 0 { result = still(samples, planFor) } }
            return (result.bytes, result.streamBytes, APNGLayout(width: width, height: height, frameCount: 1,
                                                                  frames: [.init(start: 0, end: 1, rect: full, blend: .source, dispose: .none)],
                                                                  streamBytes: [result.streamBytes]))
        }
        let plan = planFor(kind)
        // Layout candidates are ranked by a cheap level-1 deflate; the winner is then compressed
        // with the full plan, or at the candidate level when the plan is exactly that.
        let candidateLevel = min(plan.level, 6)
        let reuseCandidate = given == nil && plan.strategies.count == 1 && plan.level == candidateLevel
        // Stopping needs every stream as soon as its frame is laid out.
        let stopPast = reuseCandidate ? stopPast : nil
        /// Bytes of the file so far (the chunks around the frames, every written frame's
        /// stream with its fcTL and chunk header; never more than the file will have), and of
        /// it up to the first frame's stream.
        var writtenBytes = stopPast == nil ? 0 : file([]).count
        var firstBytes = 0
        /// The later frames' weight in all, and of those walked (by frames without `weights`).
        let laterWeight = weights.count == frameCount ? weights.dropFirst().reduce(0, +) : frameCount - 1
        var walkedWeight = 0
        let candidateStrategy = EncodingPlan.defaultStrategy(for: kind)
        // Regions that come back (a cursor blinking) are ranked and compressed once.
        let compressor = ZlibCompressor(remembers: remembersRegions)

        var canvas = APNGCanvas(width: width, height: height, clearKey: clearKey)
        /// The samples of the frame before, to compare the next one with.
        let rowBytes = width * frames.bytesPerPixel
        var previous = [UInt8](repeating: 0, count: rowBytes * height)
        var laid: [APNGLayout.Frame] = []
        var streams: [[UInt8]] = []
        // Layouts are chosen frame by frame (each depends on the frame before); the chosen
        // rasters' final streams do not depend on each other, so they are compressed a batch at
        // a time on every core.
        var pending: [(index: Int, raster: Raster)] = []
        func compressPending() {
            let done = APNGEncoder.compressInParallel(pending.map(\.raster), plan: plan, compressor: compressor)
            for (k, p) in pending.enumerated() { streams[p.index] = done[k] }
            pending.removeAll(keepingCapacity: true)
        }
        func write(_ frame: APNGLayout.Frame, _ raster: Raster, stream: [UInt8]?) {
            laid.append(frame)
            streams.append(stream ?? [])
            writtenBytes += APNGEncoder.fileBytes(ofFrame: laid.count - 1, stream: stream?.count ?? 0)
            if stream == nil {
                pending.append((laid.count - 1, raster))
                if pending.count == APNGEncoder.compressionBatch { compressPending() }
            }
        }
        // With a given layout: the written frame the input frames are being merged into, and
        // whether its stream was kept (its merged frames are then not checked).
        var current = 0
        var currentKept = false
        try frames.forEach { i, samples, damage in
            defer { APNGEncoder.remember(samples, damage: damage, rowBytes: rowBytes, in: &previous) }
            if i == 0 {
                keys(ofSamples: samples, into: &canvas.previous)
                laid = [given?.frames[0] ?? APNGLayout.Frame(start: 0, end: 1, rect: full, blend: .source, dispose: .none)]
                streams = [kept(0) ?? (firstStream || given != nil
                    ? plan.compress(raster(ofSamples: samples, canvas, rect: full), with: compressor) : [])]
                writtenBytes += APNGEncoder.fileBytes(ofFrame: 0, stream: streams[0].count)
                firstBytes = writtenBytes
                return
            }
            // Frames 0..<i are laid out and compressed.
            if let stopPast, i >= 2, writtenBytes > stopPast {
                throw Stopped(estimatedBytes: APNGEncoder.estimatedSize(written: writtenBytes, first: firstBytes,
                                                                       walked: i, of: frameCount, weights: weights))
            }
            if let projectedPast, stopPast != nil, i >= 2, 4 * walkedWeight >= laterWeight {
                let estimate = APNGEncoder.estimatedSize(written: writtenBytes, first: firstBytes, walked: i, of: frameCount,
                                                         weights: weights)
                if estimate > projectedPast { throw Stopped(estimatedBytes: estimate) }
            }
            walkedWeight += weights.count == frameCount ? weights[i] : 1
            let differs = previous.withUnsafeBytes { load(samples, $0, damage: damage, into: &canvas) }
            if let given {
                if i < given.frames[current].end {
                    guard !differs || currentKept else {
                        throw layoutMismatch("frame \(i) differs from frame \(given.frames[current].start), with which the layout merges it")
                    }
                    return
                }
                current += 1
                let f = given.frames[current]
                let disposed = given.frames[current - 1].dispose == .background ? given.frames[current - 1].rect : nil
                let bounds = disposed.map { canvas.backgroundBounds(disposed: $0) } ?? canvas.noneBounds()
                if let bounds, !f.rect.contains(bounds) {
                    throw layoutMismatch("frame \(f.start) changes \(bounds.width)×\(bounds.height) pixels at (\(bounds.x), \(bounds.y)), outside written frame \(current)'s rectangle")
                }
                if let stream = kept(current) {
                    laid.append(f)
                    streams.append(stream)
                    canvas.commit()
                    currentKept = true
                    return
                }
                currentKept = false
                let r: Raster
                if f.blend == .over {
                    guard let over = overRaster(canvas, rect: f.rect, disposed: disposed) else {
                        throw layoutMismatch("written frame \(current) blends OVER, but frame \(f.start) changes a pixel to a colour that is not opaque or the palette has no transparent entry")
                    }
                    r = over.raster
                } else {
                    r = raster(ofSamples: samples, canvas, rect: f.rect)
                }
                write(f, r, stream: nil)
                canvas.commit()
                return
            }
            if !differs {
                laid[laid.count - 1].end = i + 1
                return
            }
            var candidates: [Candidate] = []
            for dispose in [APNGDisposeOp.none, .background] {
                let disposed = dispose == .background ? laid[laid.count - 1].rect : nil
                let rect = (disposed.map { canvas.backgroundBounds(disposed: $0) } ?? canvas.noneBounds())
                    ?? CanvasRect(x: 0, y: 0, width: 1, height: 1)
                // SOURCE depends only on the rectangle: the same rectangle gives the same bytes, and
                // a rectangle holding an earlier SOURCE's is those bytes and more.
                if !candidates.contains(where: { $0.blend == .source && rect.contains($0.rect) }) {
                    let r = raster(ofSamples: samples, canvas, rect: rect)
                    candidates.append(Candidate(dispose: dispose, blend: .source, rect: rect, raster: r,
                                                filtered: ScanlineFilter.filter(r, strategy: candidateStrategy)))
                }
                // With no pixel kept, OVER writes exactly the SOURCE raster of the same
                // rectangle, which is always a candidate already (and wins the tie).
                if let over = overRaster(canvas, rect: rect, disposed: disposed), over.kept > 0 {
                    candidates.append(Candidate(dispose: dispose, blend: .over, rect: rect, raster: over.raster,
                                                filtered: ScanlineFilter.filter(over.raster, strategy: candidateStrategy)))
                }
            }
            let (chosen, candidateStream) = choose(candidates, compressor: compressor, level: candidateLevel,
                                                   needStream: reuseCandidate)
            laid[laid.count - 1].dispose = chosen.dispose
            write(APNGLayout.Frame(start: i, end: i + 1, rect: chosen.rect, blend: chosen.blend, dispose: .none),
                  chosen.raster, stream: candidateStream)
            canvas.commit()
        }
        if let given, current + 1 != given.frames.count {
            throw layoutMismatch("it covers \(given.frames[current].end) of \(frameCount) frames")
        }
        // An animation whose frames are all alike stays an APNG that keeps its duration and
        // loop count, and it keeps two frames — the first frame's time, then one unchanged
        // pixel redrawn for the rest — because viewers and checkers take a one-frame APNG for
        // a still.
        if given == nil && laid.count == 1 && frameCount > 1 && delays[1...].reduce(Delay.zero, +) > .zero {
            laid[0].end = 1
            let pixel = CanvasRect(x: 0, y: 0, width: 1, height: 1)
            let r = previous.withUnsafeBytes { raster(ofSamples: $0, canvas, rect: pixel) }
            write(APNGLayout.Frame(start: 1, end: frameCount, rect: pixel, blend: .source, dispose: .none), r, stream: nil)
        }
        compressPending()
        let written = laid.indices.map { k in
            APNGFrame(rect: laid[k].rect, blend: laid[k].blend, dispose: laid[k].dispose,
                         delay: delays[laid[k].start..<laid[k].end].reduce(Delay.zero, +), stream: streams[k])
        }
        var layout = APNGLayout(width: width, height: height, frameCount: frameCount, frames: laid,
                                streamBytes: streams.map(\.count))
        let bytes = file(written)
        layout.streams = streams
        layout.fileBytes = bytes.count
        return (bytes, streams.reduce(0) { $0 + $1.count }, layout)
    }

    /// Bytes of a frame besides its stream: its fcTL chunk and the IDAT chunk's length, type and
    /// CRC (an fdAT has 4 more, its sequence number; a stream split over several chunks more).
    static let frameOverhead = 12 + 26 + 12

    /// Bytes written frame `k` adds to the file with a stream of `stream` bytes in one chunk: the
    /// stream and `frameOverhead`, and after the first frame (an fdAT) its sequence number.
    static func fileBytes(ofFrame k: Int, stream: Int) -> Int {
        stream + frameOverhead + (k == 0 ? 0 : 4)
    }

    /// The size of a whole file whose first `walked` of `frameCount` input frames came to
    /// `written` bytes, `first` of them up to the first frame's stream: the later frames'
    /// bytes per unit of `weights` (one per input frame) for the frames not walked, or, without
    /// weights or when the frames walked weigh nothing, per input frame (merged frames count,
    /// at no cost).
    static func estimatedSize(written: Int, first: Int, walked: Int, of frameCount: Int, weights: [Int] = []) -> Int {
        let later = Double(written - first)
        if weights.count == frameCount {
            let done = weights[1..<walked].reduce(0, +), rest = weights[walked...].reduce(0, +)
            if done > 0 { return written + Int(later * Double(rest) / Double(done)) }
        }
        return written + Int(later / Double(max(1, walked - 1)) * Double(frameCount - walked))
    }

    /// Copies into `previous` the rows of `samples` that may have changed (all of them without
    /// damage), so it holds the frame just walked.
    static func remember(_ samples: UnsafeRawBufferPointer, damage: RowDamage?, rowBytes: Int, in previous: inout [UInt8]) {
        previous.withUnsafeMutableBytes { dst in
            guard let d = dst.baseAddress, let s = samples.baseAddress else { return }
            guard let damage else {
                d.copyMemory(from: s, byteCount: min(dst.count, samples.count))
                return
            }
            guard !damage.isEmpty else { return }
            for y in damage.firstRow..<damage.endRow where damage.span(y) != nil {
                (d + y * rowBytes).copyMemory(from: s + y * rowBytes, byteCount: rowBytes)
            }
        }
    }

    private func layoutMismatch(_ what: String) -> ImageError {
        ImageError(.apng, APNGEncodingError.layoutMismatch(detail: what))
    }

    /// Throws unless `layout` is well formed for this animation's size and frame count.
    private func check(_ layout: APNGLayout) throws {
        guard layout.width == width, layout.height == height, layout.frameCount == frameCount else {
            throw layoutMismatch("it was made for \(layout.frameCount) frames of \(layout.width)×\(layout.height), not \(frameCount) of \(width)×\(height)")
        }
        var next = 0
        for (w, f) in layout.frames.enumerated() {
            let r = f.rect
            guard f.start == next, f.end > f.start, f.end <= frameCount,
                  r.x >= 0, r.y >= 0, r.width > 0, r.height > 0, r.x + r.width <= width, r.y + r.height <= height,
                  w > 0 || (r == CanvasRect(x: 0, y: 0, width: width, height: height) && f.blend == .source) else {
                throw layoutMismatch("written frame \(w) (frames \(f.start)..<\(f.end), \(r.width)×\(r.height) at (\(r.x), \(r.y))) is malformed")
            }
            next = f.end
        }
        guard next == frameCount else { throw layoutMismatch("it covers \(next) of \(frameCount) frames") }
    }

    /// Loads a frame (its samples) over the canvas, which holds the frame before, whose samples
    /// are `prev`; `damage`, when given, says which rows may differ. Returns whether any key
    /// differs.
    func load(_ cur: UnsafeRawBufferPointer, _ prev: UnsafeRawBufferPointer, damage: RowDamage?, into canvas: inout APNGCanvas) -> Bool {
        let bytesPerPixel = frames.bytesPerPixel
        let rows = keyTable.withUnsafeBufferPointer { table in
            canvas.load(cur.baseAddress!, prev.baseAddress!, rowBytes: width * bytesPerPixel,
                        table: bytesPerPixel == 1 ? table.baseAddress : nil, damage: damage)
        }
        return rows > 0
    }

    /// The first frame as a plain PNG, for one-frame input.
    private func still(_ samples: UnsafeRawBufferPointer, _ planFor: (EncodingPlan.Kind) -> EncodingPlan) -> (bytes: [UInt8], streamBytes: Int) {
        switch source {
        case .indexed(_, let palette):
            let indices = [UInt8](samples.prefix(width * height))
            return PNGEncoder.encodeIndexed(IndexedImage(width: width, height: height, palette: palette, indices: indices), plan: planFor)
        case .truecolor:
            return PNGEncoder.encodeTruecolor(Image(width: width, height: height, pixels: [UInt8](samples.prefix(width * height * 4))),
                                              plan: planFor)
        }
    }

    /// Bytes of a still PNG with this encoder's header and palette holding a stream of
    /// `stream` bytes: the file without frames, less its acTL chunk, plus the IDAT chunks.
    func stillFileBytes(stream: Int) -> Int {
        let chunks = max(1, (stream + PNGChunkWriter.maxDataChunk - 1) / PNGChunkWriter.maxDataChunk)
        return file([]).count - (12 + 8) + stream + 12 * chunks
    }

    /// The APNG file of `frames`.
    private func file(_ frames: [APNGFrame]) -> [UInt8] {
        switch source {
        case .indexed(let layout, _):
            PNGFile(header: layout.header(width: width, height: height), palette: layout).bytes(frames: frames, loopCount: loopCount)
        case .truecolor(let layout):
            PNGFile(header: layout.header(width: width, height: height)).bytes(frames: frames, loopCount: loopCount)
        }
    }

    // MARK: Keys and samples

    /// The comparison keys of a frame's samples written over `out`, which holds `width × height` keys.
    func keys(ofSamples samples: UnsafeRawBufferPointer, into out: inout [UInt32]) {
        switch source {
        case .indexed:
            keyTable.withUnsafeBufferPointer { t in
                out.withUnsafeMutableBufferPointer { o in
                    APNGEncoder.lookup(samples.baseAddress!.assumingMemoryBound(to: UInt8.self), count: width * height,
                                       table: t.baseAddress!, into: o.baseAddress!)
                }
            }
        case .truecolor:
            out.withUnsafeMutableBytes { o in o.copyMemory(from: UnsafeRawBufferPointer(rebasing: samples[0..<(width * height * 4)])) }
        }
    }

    /// The raster of `keys` (a whole canvas) inside `rect`.
    func raster(_ keys: [UInt32], rect: CanvasRect) -> Raster {
        var crop = [UInt32](repeating: 0, count: rect.width * rect.height)
        keys.withUnsafeBufferPointer { k in
            crop.withUnsafeMutableBufferPointer { c in
                for row in 0..<rect.height {
                    (c.baseAddress! + row * rect.width).update(from: k.baseAddress! + (rect.y + row) * width + rect.x, count: rect.width)
                }
            }
        }
        return samples(crop, width: rect.width, height: rect.height)
    }

    /// The raster of the frame whose samples are `samples`, which is loaded on `canvas`, inside
    /// `rect`.
    func raster(ofSamples frameSamples: UnsafeRawBufferPointer, _ canvas: APNGCanvas, rect: CanvasRect) -> Raster {
        guard case .indexed(let layout, _) = source else {
            return samples(canvas.crop(rect), width: rect.width, height: rect.height)
        }
        // A palette frame's keys are its written indices (`clearKey` standing for the one
        // transparent-black entry), so its indices through `remap` are the same samples, without
        // building keys.
        let n = rect.width * rect.height
        let w = width
        let s = frameSamples.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let cropped = [UInt8](unsafeUninitializedCapacity: n) { out, count in
            if layout.keepsIndices {
                for row in 0..<rect.height {
                    (out.baseAddress! + row * rect.width).initialize(from: s + (rect.y + row) * w + rect.x, count: rect.width)
                }
            } else {
                layout.remap.withUnsafeBufferPointer { m in
                    for row in 0..<rect.height {
                        APNGEncoder.remapRow(s + (rect.y + row) * w + rect.x, count: rect.width, table: m.baseAddress!,
                                             into: out.baseAddress! + row * rect.width)
                    }
                }
            }
            count = n
        }
        if layout.bitDepth == 8 { return Raster(width: rect.width, height: rect.height, bitsPerPixel: 8, data: cropped) }
        return cropped.withUnsafeBufferPointer {
            Raster.packing($0.baseAddress!, width: rect.width, height: rect.height, bitDepth: layout.bitDepth)
        }
    }

    /// The OVER form of the frame loaded on `canvas` inside `rect`: pixels equal to the canvas
    /// (after `disposed` is cleared) become "keep" (fully transparent). Nil when OVER cannot
    /// reproduce the frame exactly in every reader (a changed pixel that is not opaque) or when
    /// there is no transparent sample to write; otherwise the raster and how many pixels it keeps.
    func overRaster(_ canvas: APNGCanvas, rect: CanvasRect, disposed: CanvasRect?) -> (raster: Raster, kept: Int)? {
        let over: (keys: [UInt32], kept: Int)?
        switch source {
        case .indexed(let layout, _):
            guard layout.transparentIndex != nil else { return nil }
            var alpha = [UInt8](repeating: 0, count: 258)
            for (n, c) in layout.palette.enumerated() { alpha[n] = c.a }
            over = alpha.withUnsafeBufferPointer {
                canvas.cropOver(rect, disposed: disposed, alpha: $0.baseAddress, keep: APNGEncoder.keepKey)
            }
        case .truecolor(let layout):
            guard layout.colorType.hasAlpha else { return nil }
            over = canvas.cropOver(rect, disposed: disposed, alpha: nil, keep: 0)
        }
        guard let over else { return nil }
        return (samples(over.keys, width: rect.width, height: rect.height), over.kept)
    }

    /// Keys → the raster PNG stores.
    private func samples(_ keys: [UInt32], width w: Int, height h: Int) -> Raster {
        switch source {
        case .indexed(let layout, _):
            let clear = UInt8(layout.palette.firstIndex(of: RGBA(0, 0, 0, 0)) ?? 0)
            var indices = [UInt8](repeating: 0, count: keys.count)
            keys.withUnsafeBufferPointer { k in
                indices.withUnsafeMutableBufferPointer { o in
                    APNGEncoder.narrow(k.baseAddress!, count: k.count, clear: clear, keep: layout.transparentIndex ?? 0,
                                       into: o.baseAddress!)
                }
            }
            return indices.withUnsafeBufferPointer {
                Raster.packing($0.baseAddress!, width: w, height: h, bitDepth: layout.bitDepth)
            }
        case .truecolor(let layout):
            let bytes = keys.withUnsafeBytes { [UInt8]($0) }
            return layout.raster(bytes, width: w, height: h)
        }
    }

    // MARK: Kernels

    @inline(never)
    static func lookup(_ s: UnsafePointer<UInt8>, count: Int, table: UnsafePointer<UInt32>, into o: UnsafeMutablePointer<UInt32>) {
        var i = 0
        while i < count { o[i] = table[Int(s[i])]; i &+= 1 }
    }

    @inline(never)
    static func remapRow(_ s: UnsafePointer<UInt8>, count: Int, table: UnsafePointer<UInt8>, into o: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i < count { o[i] = table[Int(s[i])]; i &+= 1 }
    }

    /// Palette keys → indices: a key below 256 is its index, `clearKey` (256) becomes `clear`
    /// and `keepKey` (257) becomes `keep`. A block of keys that are all indices is narrowed in
    /// one loop the compiler vectorises.
    @inline(never)
    static func narrow(_ s: UnsafePointer<UInt32>, count: Int, clear: UInt8, keep: UInt8, into o: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func index(_ k: UInt32) -> UInt8 { k < 256 ? UInt8(truncatingIfNeeded: k) : k == 256 ? clear : keep }
        var i = 0
        let block = 64
        while i &+ block <= count {
            var high: UInt32 = 0
            for j in i..<(i &+ block) { high |= s[j] }
            if high < 256 {
                for j in i..<(i &+ block) { o[j] = UInt8(truncatingIfNeeded: s[j]) }
            } else {
                for j in i..<(i &+ block) { o[j] = index(s[j]) }
            }
            i &+= block
        }
        while i < count { o[i] = index(s[i]); i &+= 1 }
    }
}
