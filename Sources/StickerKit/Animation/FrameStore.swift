import ImageCore

/// Frames of one size kept as what changed: the first frame whole, then for every later frame
/// only the spans of pixels that differ from the frame before (`RowDamage` from the stage that
/// made them). A screen recording that changes a few rows per frame costs those rows, not
/// frames × width × height; a video costs about what it is. `bytes` says how much is held.
///
/// Walking it (`forEach`) rebuilds each frame in one buffer, so a walk holds one frame however
/// many there are. Spans are kept as they are while the store's `tally` (its own, or one shared
/// with other stores) holds at most `uncompressed` bytes, and packed past that (`DeltaCodec`:
/// runs of equal pixels where the spans are made of them, libdeflate's fastest level). A walk
/// then unpacks them: slower, but far cheaper than decoding and fitting the frames again.
final class FrameStore: FrameSequence {
    let width: Int
    let height: Int
    let bytesPerPixel: Int
    private(set) var count = 0
    /// Bytes held for the frames (the first frame, the spans and their pixels).
    private(set) var bytes = 0

    /// One run of changed pixels of one row.
    private struct Span {
        var row: Int32
        var from: Int32
        var to: Int32
    }

    /// What changed in one frame: its spans, and their pixels back to back (`size` bytes,
    /// deflated when `compressed`).
    private struct Delta {
        var spans: [Span]
        var data: [UInt8]
        var size: Int
        var compressed: Bool
    }

    private var first: [UInt8] = []
    private var deltas: [Delta] = []
    /// Bytes held by this store and those sharing its budget, and how many of them may be kept
    /// as they come before new spans are packed.
    private let tally: StoreTally
    private var codec: DeltaCodec?

    /// A store whose spans are kept as they are up to `uncompressed` bytes of its own.
    convenience init(width: Int, height: Int, bytesPerPixel: Int, uncompressed: Int = .max) {
        self.init(width: width, height: height, bytesPerPixel: bytesPerPixel, tally: StoreTally(uncompressed: uncompressed))
    }

    /// A store counted on `tally` with others: spans are packed once all of them together hold
    /// `tally.uncompressed` bytes.
    init(width: Int, height: Int, bytesPerPixel: Int, tally: StoreTally) {
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        self.tally = tally
    }

    deinit { tally.remove(bytes) }

    /// Bytes a frame costs in the store at most (the first frame, or a frame that changes
    /// everywhere).
    var frameBytes: Int { width * height * bytesPerPixel }

    /// Adds the next frame: its samples, and what changed since the frame added before (nil:
    /// everything; the first frame is always kept whole).
    func append(_ samples: UnsafeRawBufferPointer, damage: RowDamage?) {
        defer { count += 1 }
        let rowBytes = width * bytesPerPixel
        if count == 0 {
            first = [UInt8](samples.prefix(frameBytes))
            bytes += first.count
            tally.add(first.count)
            return
        }
        var spans: [Span] = []
        var data: [UInt8] = []
        let whole = damage ?? RowDamage.all(width: width, rows: height)
        // Exact capacities: the store holds these arrays for the whole conversion.
        if !whole.isEmpty {
            var n = 0, bytes = 0
            for y in whole.firstRow..<whole.endRow { if let s = whole.span(y) { n += 1; bytes += s.count * bytesPerPixel } }
            spans.reserveCapacity(n)
            data.reserveCapacity(bytes)
        }
        if !whole.isEmpty {
            for y in whole.firstRow..<whole.endRow {
                guard let s = whole.span(y) else { continue }
                spans.append(Span(row: Int32(y), from: Int32(s.lowerBound), to: Int32(s.upperBound)))
                let start = y * rowBytes + s.lowerBound * bytesPerPixel
                data.append(contentsOf: UnsafeRawBufferPointer(rebasing: samples[start..<(start + s.count * bytesPerPixel)]))
            }
        }
        let size = data.count
        var compressed = false
        if tally.bytes + size > tally.uncompressed {
            if codec == nil { codec = DeltaCodec(unit: bytesPerPixel) }
            if let packed = codec!.compress(data) {
                data = packed
                compressed = true
            }
        }
        let held = data.count + spans.count * MemoryLayout<Span>.stride + MemoryLayout<Delta>.stride
        bytes += held
        tally.add(held)
        deltas.append(Delta(spans: spans, data: data, size: size, compressed: compressed))
    }

    func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
        guard count > 0 else { return }
        var frame = first
        let rowBytes = width * bytesPerPixel
        var inflated: [UInt8] = []
        try frame.withUnsafeMutableBytes { buffer in
            let base = buffer.baseAddress!
            try body(0, UnsafeRawBufferPointer(buffer), nil)
            for (k, delta) in deltas.enumerated() {
                var damage = RowDamage(rows: height)
                var data = delta.data
                if delta.compressed {
                    if inflated.count < delta.size { inflated = [UInt8](repeating: 0, count: delta.size) }
                    let ok = inflated.withUnsafeMutableBytes { codec!.decompress(delta.data, count: delta.size, into: $0.baseAddress!) }
                    precondition(ok, "FrameStore: a span block it deflated does not inflate")
                    data = inflated
                }
                data.withUnsafeBytes { src in
                    var offset = 0
                    for s in delta.spans {
                        let y = Int(s.row), a = Int(s.from), n = Int(s.to - s.from) * bytesPerPixel
                        (base + y * rowBytes + a * bytesPerPixel).copyMemory(from: src.baseAddress! + offset, byteCount: n)
                        offset += n
                        damage.mark(row: y, from: a, to: Int(s.to))
                    }
                }
                try body(k + 1, UnsafeRawBufferPointer(buffer), damage)
            }
        }
    }
}
