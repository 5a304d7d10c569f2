import ImageCore

extension Histogram {
    /// Counts every pixel of every frame of `frames` (RGBA) — the same counts, the same table
    /// or groups, and so the same palettes as `add` on each frame in turn — with work that follows what
    /// changes: a frame adds only its damaged pixels, and a pixel is counted once for all the
    /// frames it stays unchanged through (when it is overwritten, and at the end).
    ///
    /// Why the table is the same: a colour's slot depends on the order colours first appear
    /// and on when the table grows, both set by the colours' first appearances alone; a frame's
    /// new colours can only be among its damaged pixels, met here in the order `add` meets them.
    /// Counts added later go to colours already in the table; the groups' sums are exact, and
    /// when they are made and made coarser is set by first appearances too. Holds the last frame and each
    /// pixel's birth frame (8 bytes a pixel).
    package mutating func add(frames: any FrameSequence) throws {
        let w = frames.width, h = frames.height, n = w * h
        guard n > 0, frames.count > 0, frames.bytesPerPixel == 4 else { return }
        var last = [UInt32](repeating: 0, count: n)
        var birth = [Int32](repeating: 0, count: n)
        var total = 0
        try frames.forEach { k, samples, damage in
            total = k + 1
            samples.withMemoryRebound(to: UInt32.self) { px in
                last.withUnsafeMutableBufferPointer { lp in
                    birth.withUnsafeMutableBufferPointer { bp in
                        if k == 0 || damage == nil {
                            if k > 0 { flushRuns(lp.baseAddress!, bp.baseAddress!, from: 0, count: n, now: Int32(k)) }
                            insertBorn(px.baseAddress!, from: 0, count: n, frame: Int32(k), last: lp.baseAddress!, birth: bp.baseAddress!)
                            return
                        }
                        let d = damage!
                        guard !d.isEmpty else { return }
                        for y in d.firstRow..<d.endRow {
                            guard let s = d.span(y) else { continue }
                            let o = y * w + s.lowerBound
                            changedRuns(px.baseAddress!, from: o, count: s.count, frame: Int32(k), last: lp.baseAddress!, birth: bp.baseAddress!)
                        }
                    }
                }
            }
        }
        last.withUnsafeMutableBufferPointer { lp in
            birth.withUnsafeMutableBufferPointer { bp in
                flushRuns(lp.baseAddress!, bp.baseAddress!, from: 0, count: n, now: Int32(total))
            }
        }
    }

    /// Pixels `from ..< from + count` of frame `frame`: those that differ from `last` have their
    /// old colour counted for the frames they lasted after their birth frame, then are born now.
    private mutating func changedRuns(_ px: UnsafePointer<UInt32>, from: Int, count: Int, frame: Int32,
                                      last: UnsafeMutablePointer<UInt32>, birth: UnsafeMutablePointer<Int32>) {
        var i = from
        let end = from + count
        while i < end {
            // A run of pixels that really changed.
            while i < end && px[i] == last[i] { i += 1 }
            var j = i
            while j < end && px[j] != last[j] { j += 1 }
            if i < j {
                flushRuns(last, birth, from: i, count: j - i, now: frame)
                insertBorn(px, from: i, count: j - i, frame: frame, last: last, birth: birth)
            }
            i = j
        }
    }

    /// Counts the colours of `last[from ..< from + count]` for the frames after their birth
    /// frame up to (not including) `now`: the frame of their birth was counted when they were
    /// born, so each colour is in the table (or its group) already.
    private mutating func flushRuns(_ last: UnsafeMutablePointer<UInt32>, _ birth: UnsafeMutablePointer<Int32>,
                                    from: Int, count: Int, now: Int32) {
        let end = from + count
        if groups != nil {
            pixelCount += alphaCounts.withUnsafeMutableBufferPointer { alpha in
                groups!.withSink { sink in
                    Histogram.lastingRuns(last, birth, from: from, end: end, now: now) { v, weight in
                        alpha[Int(v >> 24)] &+= weight
                        if v >> 24 != 0 { _ = sink.add(v, weight) }
                    }
                }
            }
            return
        }
        let sh = shift
        pixelCount += slots.withUnsafeMutableBufferPointer { t in
            Histogram.lastingRuns(last, birth, from: from, end: end, now: now) { v, weight in
                let key: UInt32 = v >> 24 == 0 ? 0 : v
                _ = Histogram.insert(key, UInt32(truncatingIfNeeded: min(weight, UInt64(UInt32.max))), t.baseAddress!, t.count - 1, sh)
            }
        }
    }

    /// Calls `body` with each run of `last[from ..< end]` of one colour and one birth frame that
    /// lasted past its birth frame: the colour (memory order) and its pixels times the frames
    /// after its birth up to `now`. Returns the pixels counted.
    @inline(__always)
    private static func lastingRuns(_ last: UnsafeMutablePointer<UInt32>, _ birth: UnsafeMutablePointer<Int32>,
                                    from: Int, end: Int, now: Int32, _ body: (UInt32, UInt64) -> Void) -> Int {
        var added = 0
        var i = from
        while i < end {
            let raw = last[i], b = birth[i]
            var j = i &+ 1
            while j < end && last[j] == raw && birth[j] == b { j &+= 1 }
            let frames = Int(now) &- Int(b) &- 1
            if frames > 0 {
                let weight = UInt64(j &- i) &* UInt64(frames)
                body(UInt32(littleEndian: raw), weight)
                added &+= Int(weight)
            }
            i = j
        }
        return added
    }

    /// Counts `px[from ..< from + count]` once (the frame they are born in), in order, as `add`
    /// would, and records them in `last` and `birth`.
    private mutating func insertBorn(_ px: UnsafePointer<UInt32>, from: Int, count: Int, frame: Int32,
                                     last: UnsafeMutablePointer<UInt32>, birth: UnsafeMutablePointer<Int32>) {
        (last + from).update(from: px + from, count: count)
        (birth + from).update(repeating: frame, count: count)
        pixelCount += count
        insert(px, from: from, end: from + count)
    }
}
