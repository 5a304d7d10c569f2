import ImageCore

/// Fits a still into an `options.size` square from its rows as a decoder delivers them, top to
/// bottom, holding only the window of source rows the output rows being computed read (about
/// `1 / scale + 1` rows) and the output: a 10000² source reduced to 618 px holds some 17 rows,
/// not 400 MB. The bytes are those of `FrameFitter.fit` (and `Resizer.fit`) on the whole image:
/// the same tables and the same render pass, run in pieces as the rows arrive.
///
/// With `options.trim`, `visibleBounds` must hold the whole image (a first pass over its rows,
/// `VisibleBounds.add(row:y:width:)`).
package final class RowFitter {
    /// Width of the output (the sticker's side for a fit).
    package let width: Int
    /// Height of the output.
    package let height: Int
    /// Side of the output of a fit (a square).
    package var size: Int { width }
    package let upscaled: Bool
    package let warnings: [String]
    /// Source rows a fitter of this geometry holds at most (the window), for memory estimates.
    package let windowRows: Int

    private let canvasWidth: Int
    private let canvasHeight: Int
    private let output: UnsafeMutablePointer<UInt8>
    private let pass: AreaResampler.RenderPass?
    /// Per output row: the source rows every output row up to it reads end before this row.
    private let ready: [Int]
    /// Per output row: the first source row it or any later output row reads.
    private let firstNeeded: [Int]
    private var window: RowWindow
    /// Rows delivered so far.
    private var received = 0

    /// A fitter for a `canvasWidth × canvasHeight` still; see `FrameFitter.init` for the options.
    package convenience init(canvasWidth: Int, canvasHeight: Int, options: FitOptions, visibleBounds: VisibleBounds? = nil) {
        let setup = FitSetup(canvasWidth: canvasWidth, canvasHeight: canvasHeight, options: options, visibleBounds: visibleBounds)
        self.init(canvasWidth: canvasWidth, canvasHeight: canvasHeight, resampler: setup.resampler, width: setup.size,
                  height: setup.size, upscaled: setup.upscaled, warnings: setup.warnings)
    }

    /// A fitter whose `resampler` makes a `width × height` output (nil: all transparent).
    init(canvasWidth: Int, canvasHeight: Int, resampler: AreaResampler?, width: Int, height: Int, upscaled: Bool,
         warnings: [String]) {
        self.width = width
        self.height = height
        self.upscaled = upscaled
        self.warnings = warnings
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        let count = width * height * 4
        output = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        output.initialize(repeating: 0, count: count)
        var ready = [Int](repeating: 0, count: height)
        var firstNeeded = [Int](repeating: Int.max, count: height + 1)
        var taps = 1
        if let resampler {
            var end = 0
            for oy in 0..<height {
                let (start, n) = resampler.sourceRows(of: oy)
                if n > 0 { end = max(end, start + n); firstNeeded[oy] = start; taps = max(taps, n) }
                ready[oy] = end
            }
            for oy in stride(from: height - 1, through: 0, by: -1) { firstNeeded[oy] = min(firstNeeded[oy], firstNeeded[oy + 1]) }
            let whole = resampler.wholeRows
            pass = AreaResampler.RenderPass(resampler, first: whole.first, end: whole.end, previous: nil, output: output)
        } else {
            pass = nil
        }
        self.ready = ready
        self.firstNeeded = firstNeeded
        windowRows = 2 * taps + 1
        window = RowWindow(width: canvasWidth, capacity: windowRows)
    }

    deinit { output.deallocate() }

    /// Source rows a fitter of `options` on a `width × height` still holds at most, without
    /// building one (the memory estimate of a streamed still is this × `width × 4` bytes).
    package static func windowRows(width: Int, height: Int, options: FitOptions) -> Int {
        let side = max(1, min(max(options.size, 1), Resizer.maxSize) - 2 * max(0, options.inset))
        let long = options.fit == .contain ? max(width, height) : min(width, height)
        return windowRows(reduction: (long + side - 1) / side)
    }

    /// Source rows a fitter holds at most when each output pixel covers at most `reduction`
    /// source pixels each way (⌈source ÷ output⌉ on the tighter axis).
    package static func windowRows(reduction: Int) -> Int {
        // A reduction reads ⌈1/scale⌉ + 1 rows per output row; an enlargement at most 3.
        2 * max(3, reduction + 2) + 1
    }

    /// Adds source row `y` (the next one: rows come in order from 0), `canvasWidth` RGBA pixels.
    package func add(row pixels: UnsafeRawPointer, y: Int) {
        precondition(y == received && y < canvasHeight, "RowFitter: row \(y), expected \(received) of \(canvasHeight)")
        received += 1
        guard let pass else { return }
        let done = pass.done
        // Rows before the first an unfinished output row reads are no longer needed; a row no
        // output row reads (a crop, or past the last) is never kept.
        guard done < height, y >= firstNeeded[done] else { return }
        window.drop(before: firstNeeded[done])
        window.append(pixels, y: y)
        var upTo = done
        while upTo < height && ready[upTo] <= received { upTo += 1 }
        if upTo > done { pass.run(upTo: upTo, &window) }
    }

    /// The fitted image, once every row was added.
    package func finish() -> Image {
        precondition(received == canvasHeight, "RowFitter: \(received) of \(canvasHeight) rows added")
        if let pass, pass.done < height { pass.run(upTo: height, &window) }
        return Image(width: width, height: height, pixels: [UInt8](UnsafeBufferPointer(start: output, count: width * height * 4)))
    }
}

/// The source rows a `RowFitter` holds: consecutive rows `[first, first + count)`, each the
/// whole width, at one stride, so that a block of them is read in place.
struct RowWindow: RowBlocks {
    let rowBytes: Int
    let capacity: Int
    private let storage: UnsafeMutableRawPointer
    /// Index in `storage` of row `first`.
    private var offset = 0
    private(set) var first = 0
    private(set) var count = 0
    private let owner: Storage

    final class Storage {
        let base: UnsafeMutableRawPointer
        init(bytes: Int) { base = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 16) }
        deinit { base.deallocate() }
    }

    init(width: Int, capacity: Int) {
        rowBytes = width * 4
        self.capacity = capacity
        owner = Storage(bytes: rowBytes * capacity)
        storage = owner.base
    }

    /// Forgets the rows before `row`.
    mutating func drop(before row: Int) {
        let n = min(count, max(0, row - first))
        offset += n
        first += n
        count -= n
        if count == 0 { offset = 0; first = row }
    }

    /// Appends row `y`, which must follow the last one held (or start the window when empty).
    mutating func append(_ pixels: UnsafeRawPointer, y: Int) {
        if count == 0 { first = y; offset = 0 }
        precondition(y == first + count, "RowWindow: row \(y) after \(first + count - 1)")
        if offset + count == capacity {
            // Move the rows held to the start: at most half the capacity, once per half.
            storage.copyMemory(from: storage + offset * rowBytes, byteCount: count * rowBytes)
            offset = 0
        }
        precondition(count < capacity, "RowWindow: more than \(capacity) rows needed at once")
        (storage + (offset + count) * rowBytes).copyMemory(from: pixels, byteCount: rowBytes)
        count += 1
    }

    mutating func block(rows r0: Int, count n: Int, x0: Int, x1: Int) -> (UnsafeRawPointer, Int)? {
        guard n > 0, x0 < x1 else { return nil }
        precondition(r0 >= first && r0 + n <= first + count, "RowWindow: rows \(r0)..<\(r0 + n) outside \(first)..<\(first + count)")
        return (UnsafeRawPointer(storage + (offset + r0 - first) * rowBytes + x0 * 4), rowBytes)
    }
}
