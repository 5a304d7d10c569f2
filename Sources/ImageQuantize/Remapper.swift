import Dispatch
import Foundation
import ImageCore

/// Maps frames onto a fixed palette: nearest entry in `ErrorSpace`, optionally with serpentine
/// Floyd–Steinberg error diffusion on the `ErrorSpace` coordinates (premultiplied colour and
/// alpha), weighted per pixel by `DitherMap`.
///
/// Rules that keep the output clean:
/// - fully transparent pixels always take the (0,0,0,0) entry; they neither receive nor pass on error;
/// - opaque pixels receive no alpha error, so dithering never punches translucent holes;
/// - a pixel diffuses its error scaled by its own map weight, so edges neither take nor give error;
/// - flat pixels whose colour has an almost exact entry (squared distance < `exactEnough`) stay undithered;
/// - the dithered target is clamped to real colours and incoming error to a length that scales with
///   the local palette spacing, so error cannot build up without bound; a pixel passes on only
///   `damping` of its error;
/// - pixels the palette already fits well (`quietError2`) are not dithered, and a dithered choice
///   that strays too far from the pixel (`excursionPerSpacing`) falls back to the plain nearest entry.
/// Every frame starts with zero error (no diffusion across frames), and so does every band of a
/// large frame (`bandCount` fixed horizontal bands remapped on parallel threads; see `bands`).
final class Remapper {
    let palette: [RGBA]
    let points: [SIMD4<Float>]
    let search: NearestColorSearch
    /// Index of (0,0,0,0), or -1.
    let transparentIndex: Int
    static let exactEnough: Float = 1.0
    /// Incoming error is scaled down to at most `max(minError, errorPerSpacing × spacing)`, where
    /// spacing is the distance from the pixel's plain nearest entry to the entry nearest to it,
    /// so error piled up in a region whose colour lies outside its palette neighbours cannot
    /// throw far-off speckles (ErrorSpace units, about 8-bit levels).
    static let minError: Float = 8
    static let errorPerSpacing: Float = 1
    /// A dithered choice farther from the pixel than the plain nearest entry plus
    /// `excursionPerSpacing × spacing` is replaced by the plain nearest entry.
    static let excursionPerSpacing: Float = 1
    /// Share of a pixel's error passed on; full FS (1.0) overshoots into visible noise.
    static let damping: Float = 0.875
    /// A pixel whose plain nearest entry is this close (E, see `ErrorSpace`; ≈ 3 levels per
    /// channel) takes that entry and passes no error on: dithering only where the palette is
    /// coarse for the pixel.
    static let quietError2: Float = 30

    struct CacheEntry {
        var key: UInt32
        var index: Int32
        var distance2: Float
    }
    /// 16 k entries (192 KiB) per lane: with up to two lanes busy on two cores, 64 k-entry
    /// lanes were no faster and cost more page faults per remapper.
    static let cacheBits = 14

    /// Working memory of one worker: a colour cache (colour → nearest entry) and, per `cell(of:)`,
    /// the last answer there (or -1) as a start for the next search in that cell. Every worker
    /// has its own, so bands can run on different threads; the answers do not depend on what a
    /// cache holds (searches are exact, ties to the lowest index), only the speed does. A lane
    /// per worker, not per band: one cold cache per band cost 6–16 % more CPU than one cache for
    /// the whole frame (colours seen again in every band), and on a busy machine the bands
    /// mostly run one after another on one thread anyway.
    struct Lane {
        var cache: UnsafeMutablePointer<CacheEntry>?
        var cells: UnsafeMutablePointer<Int16>?
    }

    /// Large frames are cut into this many horizontal bands, remapped in parallel, with error
    /// diffused inside each band only. The count is fixed (not the machine's core count) so the
    /// output depends on the frame alone.
    static let bandCount = 4
    /// Frames below this many pixels (or under 16 rows a band) are one band: threads would cost
    /// more than they save.
    static let minParallelPixels = 1 << 16

    static func bands(width: Int, height: Int) -> Int {
        width * height >= minParallelPixels && height >= 16 * bandCount ? bandCount : 1
    }

    /// First row of band `b` of `count`.
    @inline(__always)
    static func bandStart(_ b: Int, of count: Int, height: Int) -> Int { height * b / count }

    /// Up to `bandCount` lanes (one per worker that got a band), each allocated by its worker on
    /// first use and kept across frames.
    private let lanes: UnsafeMutablePointer<Lane>
    /// Per entry, `min(2·√safeRadius2, 442)`: the palette spacing around it (one square root
    /// per entry instead of one per dithered pixel).
    private let spacing: UnsafeMutablePointer<Float>

    init(palette: [RGBA]) {
        self.palette = palette
        points = palette.map(ErrorSpace.point)
        search = NearestColorSearch(points)
        transparentIndex = palette.firstIndex(of: RGBA(0, 0, 0, 0)) ?? -1
        lanes = .allocate(capacity: Remapper.bandCount)
        lanes.initialize(repeating: Lane(cache: nil, cells: nil), count: Remapper.bandCount)
        let n = search.view.count
        spacing = .allocate(capacity: n)
        for i in 0..<n { spacing[i] = min(2 * search.view.safeRadius2[i].squareRoot(), 442) }
    }

    deinit {
        for b in 0..<Remapper.bandCount {
            lanes[b].cache?.deallocate()
            lanes[b].cells?.deallocate()
        }
        lanes.deallocate()
        spacing.deallocate()
    }

    /// Lane `b`, allocated on first use (by the worker that owns it).
    static func lane(_ lanes: UnsafeMutablePointer<Lane>, _ b: Int) -> (UnsafeMutablePointer<CacheEntry>, UnsafeMutablePointer<Int16>) {
        if let c = lanes[b].cache, let g = lanes[b].cells { return (c, g) }
        let cache = UnsafeMutablePointer<CacheEntry>.allocate(capacity: 1 << cacheBits)
        cache.initialize(repeating: CacheEntry(key: 0, index: -1, distance2: 0), count: 1 << cacheBits)
        let cells = UnsafeMutablePointer<Int16>.allocate(capacity: cellCount)
        cells.initialize(repeating: -1, count: cellCount)
        lanes[b] = Lane(cache: cache, cells: cells)
        return (cache, cells)
    }

    /// Everything a band needs, as raw pointers (valid for the duration of one `remap` call).
    ///
    /// Shared by the workers of one `remap` call; the compiler cannot check raw pointers, so here
    /// is why that is safe:
    /// - `px`, `map`, `pts`, `search`, `spacing` and `previous`'s pixels, indices, row errors and
    ///   `known` are only read, and nothing writes them during the call;
    /// - band `b` writes only its own rows `bandStart(b)..<bandStart(b + 1)` of `out`, `mapOut`,
    ///   `rowErrors` and `previous.equal`, and `sums[b]`; bands do not overlap, and each is taken
    ///   by one worker (`next[0]` is read and advanced only while holding `lock`);
    /// - lane `k` is used only by worker `k` (`concurrentPerform` gives each iteration its own
    ///   index), and `Remapper` is not shared between threads (`PaletteMapper` says so);
    /// - every pointee outlives the workers: `remap` owns or borrows them around
    ///   `concurrentPerform`, which returns only after every iteration has, and reads the results
    ///   after that.
    struct Job: @unchecked Sendable {
        let px: UnsafePointer<UInt32>
        let w: Int
        let h: Int
        let bands: Int
        /// nil: the map is made band by band into `mapOut`.
        let map: UnsafePointer<UInt8>?
        let mapOut: UnsafeMutablePointer<UInt8>?
        let strength: Float
        let out: UnsafeMutablePointer<UInt8>
        let pts: UnsafePointer<SIMD4<Float>>
        let search: NearestColorSearch.View
        let lanes: UnsafeMutablePointer<Lane>
        let transparent: Int
        let spacing: UnsafePointer<Float>
        let sums: UnsafeMutablePointer<Double>
        /// Undithered only: each row's error (see `plainRow`), and rows of an earlier frame to
        /// copy where the pixels are the same.
        let rowErrors: UnsafeMutablePointer<Double>?
        let previous: Previous?
        /// Next band to hand out (`next[0]`), guarded by `lock`.
        let next: UnsafeMutablePointer<Int>
        let lock: DispatchSemaphore

        /// Worker `worker`: takes bands until none is left, all with lane `worker`. Which worker
        /// runs which band changes from run to run; the output does not (see `Lane`).
        func work(_ worker: Int) {
            while true {
                lock.wait()
                let b = next[0]
                if b < bands { next[0] = b + 1 }
                lock.signal()
                if b >= bands { return }
                let (cache, cells) = Remapper.lane(lanes, worker)
                run(b, cache, cells)
            }
        }

        /// Runs band `b` and stores its error sum in `sums[b]`.
        func run(_ b: Int, _ cache: UnsafeMutablePointer<CacheEntry>, _ cells: UnsafeMutablePointer<Int16>) {
            let y0 = Remapper.bandStart(b, of: bands, height: h), y1 = Remapper.bandStart(b + 1, of: bands, height: h)
            let offset = y0 * w
            if strength == 0 {
                Remapper.plainRows(px, w, y0, y1, out, rowErrors!, previous, search, cache, cells, transparent)
                return
            }
            let m: UnsafePointer<UInt8>
            if let given = map {
                m = given
            } else {
                let o = mapOut!
                DitherMap.rows(UnsafeRawPointer(px).assumingMemoryBound(to: UInt8.self), o, w, h, from: y0, to: y1)
                m = UnsafePointer(o)
            }
            let rows = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: 2 * (w + 2))
            defer { rows.deallocate() }
            sums[b] = Remapper.diffused(px + offset, w, y1 - y0, m + offset, strength, out + offset, pts, search,
                                        cache, cells, transparent, rows, spacing)
        }
    }

    /// Remaps one frame into `indices` (`width * height`); returns the summed `ErrorSpace` error
    /// (E per pixel, see `ErrorSpace`) of the result against the frame.
    func remap(_ image: Image, dithering: Float, into indices: inout [UInt8]) -> Double {
        let strength = dithering.isNaN ? 0 : min(max(dithering, 0), 1)
        if strength == 0 {
            var rows = [Double](), equal = [Bool]()
            return remapPlain(image, after: nil, into: &indices, rowErrors: &rows, equalRows: &equal)
        }
        return remap(image, strength: strength, map: nil, rowErrors: nil, previous: nil, into: &indices)
    }

    /// Rows of an earlier undithered remap to this palette of a frame of the same size.
    /// Part of a `Job`, shared on the same terms: everything is read only, except `equal`, whose
    /// row `y` only the band holding row `y` writes.
    struct Previous: @unchecked Sendable {
        let pixels: UnsafePointer<UInt32>
        let indices: UnsafePointer<UInt8>
        let rowErrors: UnsafePointer<Double>
        /// Per row, whether it equals the earlier frame's, when already known (nil: compare).
        let known: UnsafePointer<Bool>?
        /// Where each row's answer is written.
        let equal: UnsafeMutablePointer<Bool>
    }

    /// Undithered remap into `indices`, with each row's error in `rowErrors` (`height`; see
    /// `plainRow`); returns their sum, taken row by row from the top. Rows whose pixels equal
    /// those of `previous.image` (an earlier frame remapped by this remapper, with its indices
    /// and row errors) are copied from it, not searched: the result is the same either way, since
    /// a row's indices and error depend on its pixels and the palette alone. `equalRows` gets,
    /// per row, whether it equalled the earlier frame's (empty without `previous`);
    /// `previous.equalRows`, when not empty, is that answer from an earlier remap of the same two
    /// frames and saves comparing them again. A `previous` of another size is ignored.
    func remapPlain(_ image: Image, after previous: (image: Image, indices: [UInt8], rowErrors: [Double], equalRows: [Bool])?,
                    into indices: inout [UInt8], rowErrors: inout [Double], equalRows: inout [Bool]) -> Double {
        let w = image.width, h = image.height
        rowErrors = [Double](repeating: 0, count: max(h, 0))
        equalRows = []
        guard let p = previous, w > 0, h > 0, p.image.width == w, p.image.height == h, p.indices.count == w * h,
              p.rowErrors.count == h, p.image.pixels.count == image.pixels.count, p.equalRows.isEmpty || p.equalRows.count == h else {
            return rowErrors.withUnsafeMutableBufferPointer { rows in
                remap(image, strength: 0, map: nil, rowErrors: rows.baseAddress, previous: nil, into: &indices)
            }
        }
        equalRows = [Bool](repeating: false, count: h)
        return p.image.pixels.withUnsafeBytes { prevPx in
            p.indices.withUnsafeBufferPointer { prevOut in
                p.rowErrors.withUnsafeBufferPointer { prevRows in
                    p.equalRows.withUnsafeBufferPointer { known in
                        equalRows.withUnsafeMutableBufferPointer { equal in
                            rowErrors.withUnsafeMutableBufferPointer { rows in
                                let prev = Previous(pixels: prevPx.bindMemory(to: UInt32.self).baseAddress!,
                                                    indices: prevOut.baseAddress!, rowErrors: prevRows.baseAddress!,
                                                    known: known.isEmpty ? nil : known.baseAddress, equal: equal.baseAddress!)
                                return remap(image, strength: 0, map: nil, rowErrors: rows.baseAddress, previous: prev, into: &indices)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Dithered remap with a given `DitherMap` (one byte per pixel); `strength` in 0…1.
    func remap(_ image: Image, dithering strength: Float, map: [UInt8], into indices: inout [UInt8]) -> Double {
        if !(strength > 0) { return remap(image, dithering: 0, into: &indices) }
        let n = image.width * image.height
        guard map.count == n else {
            indices = [UInt8](repeating: 0, count: n)
            return 0
        }
        return map.withUnsafeBufferPointer { m in
            remap(image, strength: strength, map: m.baseAddress, rowErrors: nil, previous: nil, into: &indices)
        }
    }

    /// The frame in `bands(width:height:)` bands, in parallel when more than one. `map` nil with
    /// `strength > 0`: each band makes its rows of the dither map. `strength == 0` needs
    /// `rowErrors` (`height` rows, zero) and returns their sum from the top row down; dithered
    /// remaps sum each band's pixels in their diffusion order, then the bands.
    private func remap(_ image: Image, strength: Float, map: UnsafePointer<UInt8>?, rowErrors: UnsafeMutablePointer<Double>?,
                       previous: Previous?, into indices: inout [UInt8]) -> Double {
        let w = image.width, h = image.height, n = w * h
        guard n > 0, !palette.isEmpty, strength > 0 || rowErrors != nil else {
            indices = [UInt8](repeating: 0, count: n)
            return 0
        }
        // Every band writes every index of its rows: no need to clear them first.
        indices = [UInt8](unsafeUninitializedCapacity: n) { _, count in count = n }
        return image.pixels.withUnsafeBytes { raw in
            indices.withUnsafeMutableBufferPointer { out in
                remap(raw.bindMemory(to: UInt32.self).baseAddress!, width: w, height: h, strength: strength, map: map,
                      rowErrors: rowErrors, previous: previous, into: out.baseAddress!)
            }
        }
    }

    /// Undithered remap of a frame given as pixels (`width × height`, memory-order RGBA words)
    /// into `out`, each row's error into `rowErrors`, rows of `previous` (an earlier frame of the
    /// same size remapped by this remapper) copied or shared as `remapPlain(_:after:…)` does;
    /// returns the rows' errors summed from the top. For callers that keep frames in their own
    /// buffers (the animation search walks a store of frames).
    func remapPlain(pixels: UnsafePointer<UInt32>, width w: Int, height h: Int, previous: Previous?,
                    into out: UnsafeMutablePointer<UInt8>, rowErrors: UnsafeMutablePointer<Double>) -> Double {
        guard w > 0, h > 0, !palette.isEmpty else {
            out.initialize(repeating: 0, count: max(0, w * h))
            for y in 0..<max(0, h) { rowErrors[y] = 0 }
            return 0
        }
        return remap(pixels, width: w, height: h, strength: 0, map: nil, rowErrors: rowErrors, previous: previous, into: out)
    }

    private func remap(_ px: UnsafePointer<UInt32>, width w: Int, height h: Int, strength: Float, map: UnsafePointer<UInt8>?,
                       rowErrors: UnsafeMutablePointer<Double>?, previous: Previous?, into outPointer: UnsafeMutablePointer<UInt8>) -> Double {
        let n = w * h
        let bands = Remapper.bands(width: w, height: h)
        let sums = UnsafeMutablePointer<Double>.allocate(capacity: bands)
        sums.initialize(repeating: 0, count: bands)
        let mapOut: UnsafeMutablePointer<UInt8>? = strength > 0 && map == nil ? .allocate(capacity: n) : nil
        let next = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        next.initialize(to: 0)
        defer { sums.deallocate(); mapOut?.deallocate(); next.deallocate() }
        points.withUnsafeBufferPointer { pts in
            let job = Job(px: px, w: w, h: h, bands: bands, map: map,
                          mapOut: mapOut, strength: strength, out: outPointer, pts: pts.baseAddress!,
                          search: search.view, lanes: lanes, transparent: transparentIndex,
                          spacing: spacing, sums: sums, rowErrors: rowErrors, previous: previous, next: next,
                          lock: DispatchSemaphore(value: 1))
            // One worker on the caller's core plus one per spare core of the run (`CorePool`),
            // at most one per band; each takes the next band until none is left, so the bands
            // and their bytes are the same however many workers there are.
            CorePool.shared.withSpareCores(upTo: bands - 1) { spare in
                if spare == 0 {
                    job.work(0)
                } else {
                    DispatchQueue.concurrentPerform(iterations: spare + 1) { job.work($0) }
                }
            }
        }
        withExtendedLifetime(search) {}
        var sum = 0.0
        if strength == 0, let rows = rowErrors {
            for y in 0..<h { sum += rows[y] }
        } else {
            for b in 0..<bands { sum += sums[b] }
        }
        return sum
    }

    /// Nearest entry of an exact input colour (memory-order packed), through the cache.
    @inline(__always)
    static func cached(_ v: UInt32, _ search: NearestColorSearch.View, _ cache: UnsafeMutablePointer<CacheEntry>,
                       _ cells: UnsafeMutablePointer<Int16>, guess: Int) -> (index: Int, distance2: Float) {
        let h = Int(truncatingIfNeeded: (v &* 0x9E37_79B1) >> UInt32(32 - cacheBits))
        let e = cache[h]
        if e.index >= 0 && e.key == v { return (Int(e.index), e.distance2) }
        let x = ErrorSpace.point(RGBA(memoryOrder: v))
        // Start from the previous answer or from the last answer in this colour's coarse cell,
        // whichever is closer: after a hard edge the previous pixel is a poor start.
        let c = cell(of: v)
        var start = guess
        var startD = ErrorSpace.distance2(x, search.points[guess])
        let g = Int(cells[c])
        if g >= 0 && g != guess {
            let d = ErrorSpace.distance2(x, search.points[g])
            if d < startD { start = g; startD = d }
        }
        let r = search.nearest(x, guess: start, distance2: startD)
        cells[c] = Int16(truncatingIfNeeded: r.index)
        cache[h] = CacheEntry(key: v, index: Int32(truncatingIfNeeded: r.index), distance2: r.distance2)
        return r
    }

    /// Coarse cells of colour space: the high 4 bits of R, G and B and 2 bits of alpha, taken from
    /// the packed colour (memory order) with shifts and masks, so a cache miss pays no
    /// float-to-integer conversions. Cells only choose where a search starts, never its answer;
    /// translucent colours are grouped by their straight colour.
    static let cellCount = 1 << 14

    @inline(__always)
    static func cell(of v: UInt32) -> Int {
        Int(truncatingIfNeeded: (v >> 4) & 0xF | (v >> 8) & 0xF0 | (v >> 12) & 0xF00 | (v >> 18) & 0x3000)
    }

    /// Undithered remap of rows `y0..<y1` of a `w`-wide frame, each row's error into
    /// `rowErrors[y]`. Rows equal to `previous`'s are copied from it.
    static func plainRows(_ px: UnsafePointer<UInt32>, _ w: Int, _ y0: Int, _ y1: Int, _ out: UnsafeMutablePointer<UInt8>,
                          _ rowErrors: UnsafeMutablePointer<Double>, _ previous: Previous?,
                          _ search: NearestColorSearch.View, _ cache: UnsafeMutablePointer<CacheEntry>,
                          _ cells: UnsafeMutablePointer<Int16>, _ transparent: Int) {
        var guess = transparent >= 0 ? transparent : 0
        for y in y0..<y1 {
            let o = y * w
            if let p = previous {
                let same = p.known?[y] ?? (memcmp(px + o, p.pixels + o, 4 * w) == 0)
                p.equal[y] = same
                if same {
                    (out + o).update(from: p.indices + o, count: w)
                    rowErrors[y] = p.rowErrors[y]
                    continue
                }
            }
            rowErrors[y] = plainRow(px + o, w, out + o, previous.map { $0.pixels + o }, previous.map { $0.indices + o },
                                    search, cache, cells, transparent, &guess)
        }
    }

    /// One row, undithered; returns its error: over its runs of equal pixels, left to right,
    /// run length × the run's error (one multiply-add per run, exact products; the order is
    /// fixed by the row alone, so a row copied from another frame brings the same sum).
    /// Fully transparent pixels take `transparent` (when the palette has it) at zero error.
    /// A run whose first pixel equals the same pixel of an earlier frame (`prevPx`, remapped into
    /// `prevOut`) takes that frame's index and recomputes only its distance, the same float
    /// expression the search returns. `guess` is the previous answer, a start for the next search.
    @inline(__always)
    static func plainRow(_ px: UnsafePointer<UInt32>, _ w: Int, _ out: UnsafeMutablePointer<UInt8>,
                         _ prevPx: UnsafePointer<UInt32>?, _ prevOut: UnsafePointer<UInt8>?,
                         _ search: NearestColorSearch.View, _ cache: UnsafeMutablePointer<CacheEntry>,
                         _ cells: UnsafeMutablePointer<Int16>, _ transparent: Int, _ guess: inout Int) -> Double {
        var sum = 0.0
        var x = 0
        while x < w {
            let raw = px[x]
            var e = x &+ 1
            if e < w && px[e] == raw {
                // A run: look for its end four pixels at a time (two 8-byte compares), then
                // finish pixel by pixel. Same end as the pixel-by-pixel scan.
                e &+= 1
                let pair = UInt64(raw) | UInt64(raw) << 32
                let raw8 = UnsafeRawPointer(px)
                while e &+ 4 <= w {
                    let a = raw8.loadUnaligned(fromByteOffset: e &* 4, as: UInt64.self)
                    let c = raw8.loadUnaligned(fromByteOffset: e &* 4 &+ 8, as: UInt64.self)
                    if (a ^ pair) | (c ^ pair) != 0 { break }
                    e &+= 4
                }
                while e < w && px[e] == raw { e &+= 1 }
            }
            let v = UInt32(littleEndian: raw)
            let index: Int
            if v >> 24 == 0 && transparent >= 0 {
                index = transparent
            } else if let pp = prevPx, let po = prevOut, pp[x] == raw {
                index = Int(po[x])
                guess = index
                let d = ErrorSpace.distance2(ErrorSpace.point(RGBA(memoryOrder: v)), search.points[index])
                sum += Double(d) * Double(e &- x)
            } else {
                let r = cached(v, search, cache, cells, guess: guess)
                index = r.index
                guess = index
                sum += Double(r.distance2) * Double(e &- x)
            }
            let b = UInt8(truncatingIfNeeded: index)
            if e &- x == 1 { out[x] = b } else { (out + x).update(repeating: b, count: e &- x) }
            x = e
        }
        return sum
    }

    /// Serpentine Floyd–Steinberg (7, 3, 5, 1)/16. `rows` holds two error rows of `w + 2`.
    static func diffused(_ px: UnsafePointer<UInt32>, _ w: Int, _ h: Int, _ map: UnsafePointer<UInt8>, _ strength: Float,
                         _ out: UnsafeMutablePointer<UInt8>, _ pts: UnsafePointer<SIMD4<Float>>,
                         _ search: NearestColorSearch.View, _ cache: UnsafeMutablePointer<CacheEntry>,
                         _ cells: UnsafeMutablePointer<Int16>, _ transparent: Int, _ rows: UnsafeMutablePointer<SIMD4<Float>>,
                         _ spacings: UnsafePointer<Float>) -> Double {
        var cur = rows, next = rows + (w + 2)
        for i in 0..<(2 * (w + 2)) { rows[i] = .zero }
        var sum = 0.0
        var guess = transparent >= 0 ? transparent : 0
        let unit = strength / Float(DitherMap.full)
        let minError = Remapper.minError, errorPerSpacing = Remapper.errorPerSpacing
        let excursionPerSpacing = Remapper.excursionPerSpacing, quietError2 = Remapper.quietError2
        let damp = damping
        for y in 0..<h {
            for i in 0..<(w + 2) { next[i] = .zero }
            let ltr = y & 1 == 0
            let dir = ltr ? 1 : -1
            for k in 0..<w {
                let x = ltr ? k : w - 1 - k
                let i = y * w + x
                let v = UInt32(littleEndian: px[i])
                if v >> 24 == 0 && transparent >= 0 {
                    out[i] = UInt8(truncatingIfNeeded: transparent)
                    continue
                }
                let m = map[i]
                // `spread` shapes what this pixel passes on, `weight` what it takes in (× strength).
                var spread = Float(m) * (1 / Float(DitherMap.full))
                var weight = Float(m) * unit
                if m == DitherMap.flat {
                    let r = cached(v, search, cache, cells, guess: guess)
                    if r.distance2 < exactEnough {
                        out[i] = UInt8(truncatingIfNeeded: r.index)
                        sum += Double(r.distance2)
                        guess = r.index
                        continue
                    }
                    weight = strength
                    spread = 1
                }
                let p = ErrorSpace.point(RGBA(memoryOrder: v))
                let plain = cached(v, search, cache, cells, guess: guess)
                var e = cur[x + 1] * weight
                if v >> 24 == 255 { e.w = 0 }
                var index = plain.index
                var target = p
                if plain.distance2 < quietError2 { spread = 0 }
                if plain.distance2 >= quietError2 && e != .zero {
                    // Limits scale with the palette's spacing around the pixel: coarse palettes
                    // need large excursions to dither at all, dense ones must not speckle.
                    let spacing = spacings[plain.index]
                    let limit = max(minError, errorPerSpacing * spacing)
                    let len2 = (e * e).sum()
                    if len2 > limit * limit { e *= limit / len2.squareRoot() }
                    target = ErrorSpace.clampToGamut(p + e)
                    let dithered = search.nearest(target, guess: plain.index).index
                    let reach = plain.distance2.squareRoot() + excursionPerSpacing * spacing
                    if ErrorSpace.distance2(p, pts[dithered]) <= reach * reach { index = dithered }
                }
                guess = index
                out[i] = UInt8(truncatingIfNeeded: index)
                let q = pts[index]
                sum += Double(ErrorSpace.distance2(p, q))
                if spread == 0 { continue }
                let err = (target - q) * (spread * damp)
                cur[x + 1 + dir] += err * (7 / 16 as Float)
                next[x + 1 - dir] += err * (3 / 16 as Float)
                next[x + 1] += err * (5 / 16 as Float)
                next[x + 1 + dir] += err * (1 / 16 as Float)
            }
            swap(&cur, &next)
        }
        return sum
    }
}
