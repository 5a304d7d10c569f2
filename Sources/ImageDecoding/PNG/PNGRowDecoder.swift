import CZlib
import ImageCore

/// A PNG still decoded row by row: zlib inflates the IDAT data chunk by chunk (in place in the
/// file's bytes, never joined) into one scanline at a time, which is unfiltered against the row
/// before, expanded and colour-converted by the code of the whole-image decode (`PNGRaster`,
/// `PNGPixelExpander`, `PNGColorSpace`), so the rows are its rows. Holds two scanlines and one
/// RGBA row, whatever the image's size.
///
/// Declined (nil, nothing delivered): animations, interlaced images (each Adam7 pass covers the
/// whole image, so a row is complete only at the last pass), and a gray ICC profile on colour
/// data (only the whole image can say whether it is gray). Errors and notes are the whole
/// decode's; the counts in "decoded X of Y bytes" are zlib's, and a file with several problems
/// reports the first met in stream order.
enum PNGRowDecoder {
    static func decodeRows(_ bytes: [UInt8], options: DecodeOptions, start: (_ width: Int, _ height: Int) throws -> Void,
                           row: (_ pixels: UnsafeRawPointer, _ y: Int) throws -> Void) throws -> FrameStreamInfo? {
        let layout = try PNGFileLayout.parse(bytes, options: options)
        let header = layout.header
        guard layout.animation == nil, !header.interlaced else { return nil }
        let format = layout.format, width = header.width, height = header.height, lenient = options.lenient
        func fail(_ reason: PNGError) -> ImageError { ImageError(format, reason) }
        var warnings = layout.warnings
        let color = PNGColorSpace.choose(hasSRGB: layout.hasSRGB, iccp: layout.iccp.map { bytes[$0] }, gamma: layout.gamma,
                                         warnings: &warnings)
        var conversion: ColorConversion?
        var gammaTable: [UInt8]?
        var colorNote: String?
        switch color {
        case .asIs: break
        case .icc(let profile):
            var undecided = false
            let c = ColorProfile.rgbConversion(iccProfile: profile, format: format, isGray: {
                let gray = header.colorType == .grayscale || header.colorType == .grayscaleAlpha
                undecided = !gray
                return gray
            })
            if undecided { return nil }
            conversion = c
            colorNote = c.outcome.note
        case .gamma(let table, _):
            gammaTable = table
            var probe = Image(width: 0, height: 0)
            colorNote = color.apply(to: &probe, format: format)
        }

        let pf = PNGPixelFormat(header: header, palette: layout.palette, transparency: layout.transparency)
        let what = PNGImageData.idat
        guard let expected = header.scanlineBytes(width: width, height: height), let rb = header.rowBytes(width: width),
              !width.multipliedReportingOverflow(by: 4).overflow else {
            throw fail(.imageSizeOverflows(what, width: width, height: height))
        }
        let compressed = layout.idat.reduce(0) { $0 + $1.count }
        let (maxOut, o) = compressed.multipliedReportingOverflow(by: 1032)
        if !lenient && !o && maxOut + 1024 < expected {
            throw fail(.imageDataCannotFill(compressed: compressed, in: what, needed: expected, width: width, height: height))
        }
        try start(width, height)

        // Two scanlines (filter byte + row), the current one and the one before, and the RGBA row.
        let lines = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * (rb + 1))
        lines.initialize(repeating: 0, count: 2 * (rb + 1))
        let rgba = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, width * 4))
        defer { lines.deallocate(); rgba.deallocate() }
        let paletteLimit = header.colorType == .indexed && !lenient && pf.paletteCount < (1 << header.bitDepth) ? pf.paletteCount : -1

        var stream = ZlibStream(bytes, ranges: layout.idat)
        var y = 0
        var note: String?
        func deliver(_ pixels: UnsafeMutablePointer<UInt8>, _ y: Int) throws {
            if let gammaTable {
                gammaTable.withUnsafeBufferPointer { PNGPixelExpander.mapColor(pixels, count: width, table: $0.baseAddress!) }
            }
            conversion?.apply(pixels, pixelCount: width)
            try row(pixels, y)
        }
        try pf.table.withUnsafeBufferPointer { table in
            while y < height {
                let line = lines + (y & 1) * (rb + 1)
                let prior = lines + ((y & 1) ^ 1) * (rb + 1) + 1
                guard stream.read(into: line, count: rb + 1) else { break }
                if !PNGUnfilter.unfilterRow(type: line[0], row: line + 1, prior: prior, count: rb, stride: header.filterStride) {
                    let invalid = PNGError.invalidFilterType(line[0], row: y, pass: nil, in: what)
                    if !lenient { throw fail(invalid) }
                    note = "\(invalid.message); the rest is transparent"
                    break
                }
                if paletteLimit >= 0 {
                    let m = PNGPixelExpander.maxIndex(line + 1, width: width, depth: header.bitDepth)
                    if m >= paletteLimit { throw fail(.paletteIndexOutOfRange(index: m, row: y, in: what, paletteEntries: pf.paletteCount)) }
                }
                PNGRaster.expand(line + 1, rgba, width: width, pixelFormat: pf, table: table.baseAddress!)
                try deliver(rgba, y)
                y += 1
            }
        }
        if note == nil {
            // The stream's end (or what stopped it) says what a whole inflate would have said.
            let outcome = stream.finish(expected: expected)
            let (_, judged) = try PNGRaster.judge(outcome, expected: expected, width: width, height: height, lenient: lenient,
                                                  format: format, what: what)
            note = judged
        }
        // What did not decode is transparent (lenient mode), coloured as the whole image is.
        while y < height {
            rgba.initialize(repeating: 0, count: width * 4)
            try deliver(rgba, y)
            y += 1
        }
        if let note { warnings.append(note) }
        if let colorNote, !warnings.contains(colorNote) { warnings.append(colorNote) }
        return FrameStreamInfo(format: format, width: width, height: height, frameCount: 1, loopCount: 0, warnings: warnings)
    }
}

/// zlib's inflate over a zlib stream split across ranges of a file (a PNG's IDAT chunks),
/// delivering exactly the bytes asked for, and saying at the end what `PNGInflater` says of a
/// whole stream.
struct ZlibStream {
    private let owner: Box
    private var range = 0
    private let ranges: [Range<Int>]
    private let bytes: [UInt8]
    /// Inflate stopped: the stream ended (`ended`) or broke.
    private var stopped = false
    private var ended = false

    /// The z_stream lives in a class: zlib keeps a pointer to it.
    final class Box {
        var z = z_stream()
        var ready = false
        init() {
            ready = inflateInit_(&z, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        }
        deinit { if ready { inflateEnd(&z) } }
    }

    init(_ bytes: [UInt8], ranges: [Range<Int>]) {
        self.bytes = bytes
        self.ranges = ranges.filter { !$0.isEmpty }
        owner = Box()
        stopped = !owner.ready
    }

    /// Inflates exactly `count` bytes into `out`; false when the stream ends or breaks first.
    mutating func read(into out: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        var filled = 0
        while filled < count && !stopped {
            let (n, more) = step(out + filled, count - filled)
            filled += n
            if !more { stopped = true }
        }
        return filled == count
    }

    /// Total bytes inflated so far.
    var produced: Int { Int(owner.z.total_out) }

    /// After the image's `expected` bytes were asked for: complete when the stream ends there,
    /// overlong when it holds more, short or damaged (with the bytes decoded) otherwise.
    mutating func finish(expected: Int) -> PNGInflater.Outcome {
        if !stopped && produced == expected {
            var extra: UInt8 = 0
            let (n, _) = step(&extra, 1)
            if n > 0 { return .overlong }
            stopped = true
        }
        if ended { return produced >= expected ? .complete : .short(produced: produced) }
        return .damaged(produced: produced)
    }

    /// One inflate call into `out` (up to `capacity` bytes), fed from the next range when the
    /// input runs out: the bytes written, and whether inflating can go on.
    private mutating func step(_ out: UnsafeMutablePointer<UInt8>, _ capacity: Int) -> (Int, Bool) {
        let z = owner
        if z.z.avail_in == 0 {
            guard range < ranges.count else { return (0, false) }
            let r = ranges[range]
            range += 1
            bytes.withUnsafeBufferPointer { p in
                // zlib reads the input only during inflate calls, and `bytes` is kept alive here.
                z.z.next_in = UnsafeMutablePointer(mutating: p.baseAddress! + r.lowerBound)
            }
            z.z.avail_in = UInt32(r.count)
        }
        let chunk = min(capacity, Int(UInt32.max))
        z.z.next_out = out
        z.z.avail_out = UInt32(chunk)
        let status = inflate(&z.z, Z_NO_FLUSH)
        let written = chunk - Int(z.z.avail_out)
        switch status {
        case Z_OK: return (written, true)
        case Z_STREAM_END: ended = true; return (written, false)
        case Z_BUF_ERROR: return (written, z.z.avail_in == 0 && range < ranges.count)
        default: return (written, false)
        }
    }
}
