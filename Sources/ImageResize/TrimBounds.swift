import ImageCore

/// The smallest rectangle holding every pixel with non-zero alpha, over all frames.
struct TrimBounds: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    /// The union over `frames` (all of one size) of their non-transparent pixels, or nil when
    /// every pixel of every frame is fully transparent.
    static func union(of frames: [Frame]) -> TrimBounds? {
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for frame in frames {
            let img = frame.image
            img.pixels.withUnsafeBufferPointer { p in
                guard let base = p.baseAddress else { return }
                for y in 0..<img.height {
                    let row = base + y * img.bytesPerRow
                    guard let first = firstVisible(row, img.width) else { continue }
                    let last = lastVisible(row, img.width)
                    y0 = min(y0, y); y1 = max(y1, y)
                    x0 = min(x0, first); x1 = max(x1, last)
                }
            }
        }
        guard x1 >= 0 else { return nil }
        return TrimBounds(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    private static func firstVisible(_ row: UnsafePointer<UInt8>, _ n: Int) -> Int? {
        var i = 0
        while i < n { if row[i &* 4 &+ 3] != 0 { return i }; i += 1 }
        return nil
    }

    private static func lastVisible(_ row: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var i = n - 1
        while i > 0 { if row[i &* 4 &+ 3] != 0 { return i }; i -= 1 }
        return i
    }
}
