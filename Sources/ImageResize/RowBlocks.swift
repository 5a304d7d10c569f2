import ImageCore

/// Where `AreaResampler`'s vertical pass reads its source rows: a block of consecutive rows for
/// one output row, wherever the rows come from (a whole image, the box a decoder holds of a
/// larger canvas, or the window of rows a streaming decode has delivered so far).
protocol RowBlocks {
    /// A pointer to source pixel `(x0, r0)` (canvas coordinates) of a block of `count` rows,
    /// each `stride` bytes after the one before, holding at least columns `x0 ..< x1` of each;
    /// or nil when every pixel of the block is transparent (outside everything drawn). Valid
    /// until the next call.
    mutating func block(rows r0: Int, count: Int, x0: Int, x1: Int) -> (UnsafeRawPointer, Int)?
}

/// Source rows of a canvas of which only `box` is held (RGBA, `box.width × 4` bytes per row);
/// every pixel outside it is transparent. A block inside the box is read in place; one that
/// reaches past it is copied into a scratch block with transparent pixels around the box, so
/// the arithmetic is that of reading the whole canvas.
struct BoxRows: RowBlocks {
    let pixels: UnsafeRawPointer?
    let box: PixelRect
    private let scratch = ScratchBytes()

    init(_ pixels: UnsafeRawPointer?, box: PixelRect) {
        self.pixels = pixels
        self.box = box
    }

    mutating func block(rows r0: Int, count: Int, x0: Int, x1: Int) -> (UnsafeRawPointer, Int)? {
        guard let pixels, count > 0, x0 < x1 else { return nil }
        let want = PixelRect(x: x0, y: r0, width: x1 - x0, height: count)
        let inside = want.clipped(to: box)
        if inside.isEmpty { return nil }
        let boxStride = box.width * 4
        if inside == want {
            return (pixels + (r0 - box.y) * boxStride + (x0 - box.x) * 4, boxStride)
        }
        let stride = want.width * 4
        let bytes = stride * count
        let base = scratch.reserve(bytes)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        for row in inside.y..<(inside.y + inside.height) {
            (base + (row - r0) * stride + (inside.x - x0) * 4)
                .copyMemory(from: pixels + (row - box.y) * boxStride + (inside.x - box.x) * 4, byteCount: inside.width * 4)
        }
        return (UnsafeRawPointer(base), stride)
    }
}

/// Source rows of a canvas of which only some disjoint regions are held (`CanvasFrame.regions`);
/// every pixel outside them is transparent. A block that meets no region is nil (all
/// transparent); any other is copied into a scratch block, transparent between the regions, so
/// the arithmetic is that of reading the whole canvas.
struct SparseRows: RowBlocks {
    let regions: [CanvasRegion]
    private let scratch = ScratchBytes()

    init(_ regions: [CanvasRegion]) {
        self.regions = regions.filter { !$0.rect.isEmpty }
    }

    mutating func block(rows r0: Int, count: Int, x0: Int, x1: Int) -> (UnsafeRawPointer, Int)? {
        guard count > 0, x0 < x1 else { return nil }
        let want = PixelRect(x: x0, y: r0, width: x1 - x0, height: count)
        guard regions.contains(where: { !$0.rect.clipped(to: want).isEmpty }) else { return nil }
        let stride = want.width * 4
        let bytes = stride * count
        let base = scratch.reserve(bytes)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        for region in regions {
            let box = region.rect
            let inside = want.clipped(to: box)
            guard !inside.isEmpty else { continue }
            let boxStride = box.width * 4
            region.pixels.pixels.withUnsafeBytes { src in
                let pixels = src.baseAddress!
                for row in inside.y..<(inside.y + inside.height) {
                    (base + (row - r0) * stride + (inside.x - x0) * 4)
                        .copyMemory(from: pixels + (row - box.y) * boxStride + (inside.x - box.x) * 4, byteCount: inside.width * 4)
                }
            }
        }
        return (UnsafeRawPointer(base), stride)
    }
}

/// A growable block of bytes owned by one resampling pass (one thread).
final class ScratchBytes {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0

    /// At least `count` bytes, valid until the next call or until this object goes away.
    func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if count > capacity || base == nil {
            base?.deallocate()
            capacity = max(count, capacity * 2, 64)
            base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }
        return base!
    }

    deinit { base?.deallocate() }
}
