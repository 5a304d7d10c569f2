import CZlib
import ImageCore

/// A PNG still decoded row by row: zlib inflates the IDAT data chunk by chunk (in place in the
/// file's bytes, never joined) into one scanline at a time, which is unfiltered against the row
/// before, expanded and colour-converted by the code of the whole-image decode (`PNGRaster`,
/// `PNGPixelExpander`, `PNGColorSpace`), so the rows are its rows. Holds two scanlines and one
/// RGBA row, whatever the image's size.
///
/// An interlaced image is decoded in bands of whole rows (`bandRows`): each Adam7 pass covers the
/// whole image, so a row is complete only at the last pass. A first inflate checks the whole
/// stream (its errors and notes come before any row) and keeps a copy of zlib's state where each
/// pass starts; the bands then read each pass's rows in turn from its own copy.
///
/// Declined (nil, nothing delivered): animations, and a gray ICC profile on colour data (only the
/// whole image can say whether it is gray). Errors and notes are the whole decode's; the counts in
/// "decoded X of Y bytes" are zlib's, and a file with several problems reports the first met in
/// stream order.
enum PNGRowDecoder {
    /// RGBA bytes of an interlaced image's band (a 10000² image at the 100 MP limit, 400 MB of
    /// RGBA, in 13 bands).
    static let bandBytes = 32 << 20

    /// Rows of an interlaced image's band: the most whose RGBA fits `bandBytes` (at least one).
    static func bandRows(width: Int, height: Int, bandBytes: Int = bandBytes) -> Int {
        max(1, min(height, bandBytes / max(1, width * 4)))
    }

    /// With `passRows`, an interlaced image's rows are not put together: each pass's rows are
    /// handed to it as they are decoded (`count` RGBA pixels, coloured), in one inflate and no
    /// bands, and `row` is not called; a plain image's rows go to `row` as always.
    static func decodeRows(_ bytes: [UInt8], options: DecodeOptions, bandBytes: Int = bandBytes,
                           start: (_ width: Int, _ height: Int) throws -> Void,
                           row: (_ pixels: UnsafeRawPointer, _ y: Int) throws -> Void,
                           passRows: ((_ pixels: UnsafeRawPointer, _ count: Int) throws -> Void)? = nil) throws -> FrameStreamInfo? {
        let layout = try PNGFileLayout.parse(bytes, options: options)
        let header = layout.header
        guard layout.animation == nil else { return nil }
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
        /// `count` RGBA pixels coloured as the whole image is.
        func colour(_ pixels: UnsafeMutablePointer<UInt8>, _ count: Int) {
            if let gammaTable {
                gammaTable.withUnsafeBufferPointer { PNGPixelExpander.mapColor(pixels, count: count, table: $0.baseAddress!) }
            }
            conversion?.apply(pixels, pixelCount: count)
        }
        /// A whole RGBA row, coloured, to the caller.
        func deliver(_ pixels: UnsafeMutablePointer<UInt8>, _ y: Int) throws {
            colour(pixels, width)
            try row(pixels, y)
        }
        if header.interlaced {
            let scan = passRows.map { passRows in
                { (pixels: UnsafeMutablePointer<UInt8>, count: Int) throws in
                    colour(pixels, count)
                    try passRows(pixels, count)
                }
            }
            if let note = try decodeBands(bytes, layout: layout, pixelFormat: pf, expected: expected,
                                          bandRows: bandRows(width: width, height: height, bandBytes: bandBytes),
                                          lenient: lenient, deliver: deliver, passRows: scan) {
                warnings.append(note)
            }
            if let colorNote, !warnings.contains(colorNote) { warnings.append(colorNote) }
            return FrameStreamInfo(format: format, width: width, height: height, frameCount: 1, loopCount: 0, warnings: warnings)
        }

        // Two scanlines (filter byte + row), the current one and the one before, and the RGBA row.
        let lines = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * (rb + 1))
        lines.initialize(repeating: 0, count: 2 * (rb + 1))
        let rgba = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, width * 4))
        defer { lines.deallocate(); rgba.deallocate() }
        let paletteLimit = header.colorType == .indexed && !lenient && pf.paletteCount < (1 << header.bitDepth) ? pf.paletteCount : -1

        var stream = ZlibStream(bytes, ranges: layout.idat)
        var y = 0
        var note: String?
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

extension PNGRowDecoder {
    /// zlib's inflate state with its 32 KB window, and a margin: what one pass's stream copy holds.
    static let passStreamBytes = 48 << 10

    /// What an interlaced image's band decode holds beyond the two scanlines and the RGBA row of
    /// every row decode: the band, and for each pass a copy of the stream and two scanlines.
    static func interlacedMemory(width: Int, height: Int, bitsPerPixel: Int, bandBytes: Int = bandBytes) -> Int {
        let rows = bandRows(width: width, height: height, bandBytes: bandBytes)
        let passes = PNGHeader.passes(width: width, height: height, interlaced: true)
        let perPass = passes.reduce(0) { sum, pass in
            let (bits, o) = pass.width.multipliedReportingOverflow(by: bitsPerPixel)
            return o ? Int.max / 4 : min(Int.max / 4, sum + passStreamBytes + 2 * ((bits + 7) / 8 + 1))
        }
        let (band, o) = rows.multipliedReportingOverflow(by: width * 4)
        return o ? Int.max / 4 : min(Int.max / 4, band + perPass)
    }

    /// An interlaced image's rows, `bandRows` at a time. A first inflate runs through the whole
    /// stream, checking it as the whole decode does (filter types; palette indices, which need
    /// the rows unfiltered, in strict mode), and keeps a copy of the stream where each pass
    /// starts. Then each band takes, pass by pass, the pass's next rows that fall in it from that
    /// pass's own stream, unfiltered against the pass's row before, expanded and scattered as
    /// the whole decode does: the stream is inflated twice in all and unfiltered once, whatever
    /// the band count. Returns the note a whole decode would make (a damaged or short stream in
    /// lenient mode, extra data); what did not decode (after the point where the first inflate
    /// stopped) is transparent.
    ///
    /// With `passRows`, the first inflate also unfilters and expands every pass's rows and hands
    /// them over as they come (`count` pixels each), and there are no bands.
    static func decodeBands(_ bytes: [UInt8], layout: PNGFileLayout, pixelFormat pf: PNGPixelFormat, expected: Int,
                            bandRows: Int, lenient: Bool,
                            deliver: (UnsafeMutablePointer<UInt8>, Int) throws -> Void,
                            passRows: ((UnsafeMutablePointer<UInt8>, Int) throws -> Void)? = nil) throws -> String? {
        let header = layout.header, format = layout.format, width = header.width, height = header.height
        let what = PNGImageData.idat
        func fail(_ reason: PNGError) -> ImageError { ImageError(format, reason) }
        let passes = PNGHeader.passes(width: width, height: height, interlaced: true)
        let rowBytes = passes.map { header.rowBytes(width: $0.width)! }
        // Two scanlines per pass (the row and the one before), side by side.
        let offsets = rowBytes.reduce(into: [0]) { $0.append($0.last! + 2 * ($1 + 1)) }
        let lines = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, offsets.last!))
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, width * 4))
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, bandRows * width * 4))
        defer { lines.deallocate(); scratch.deallocate(); band.deallocate() }
        lines.initialize(repeating: 0, count: max(1, offsets.last!))
        let paletteLimit = header.colorType == .indexed && !lenient && pf.paletteCount < (1 << header.bitDepth) ? pf.paletteCount : -1
        var note: String?

        // The first inflate: where each pass starts, where the data stops, and what it says.
        var starts = [ZlibStream?](repeating: nil, count: passes.count)
        /// Rows of each pass the data holds (fewer where it stops).
        var held = passes.map(\.height)
        var stream = ZlibStream(bytes, ranges: layout.idat)
        var stopped = false
        for (p, pass) in passes.enumerated() {
            if stopped { held[p] = 0; continue }
            let rb = rowBytes[p]
            // A copy zlib cannot make (out of memory): the pass inflates from the start instead.
            starts[p] = stream.copy() ?? ZlibStream(bytes, ranges: layout.idat, skipping: stream.produced)
            let pair = lines + offsets[p]
            for r in 0..<pass.height {
                let line = pair + (r & 1) * (rb + 1)
                guard stream.read(into: line, count: rb + 1) else { held[p] = r; stopped = true; break }
                guard line[0] <= 4 else {
                    let invalid = PNGError.invalidFilterType(line[0], row: r, pass: p + 1, in: what)
                    if !lenient { throw fail(invalid) }
                    note = "\(invalid.message); the rest is transparent"
                    held[p] = r
                    stopped = true
                    break
                }
                if paletteLimit >= 0 || passRows != nil {
                    let prior = pair + ((r & 1) ^ 1) * (rb + 1) + 1
                    _ = PNGUnfilter.unfilterRow(type: line[0], row: line + 1, prior: prior, count: rb, stride: header.filterStride)
                }
                if paletteLimit >= 0 {
                    let m = PNGPixelExpander.maxIndex(line + 1, width: pass.width, depth: header.bitDepth)
                    if m >= paletteLimit {
                        throw fail(.paletteIndexOutOfRange(index: m, row: pass.y0 + r * pass.dy, in: what, paletteEntries: pf.paletteCount))
                    }
                }
                if let passRows {
                    pf.table.withUnsafeBufferPointer { PNGRaster.expand(line + 1, scratch, width: pass.width, pixelFormat: pf, table: $0.baseAddress!) }
                    try passRows(scratch, pass.width)
                }
            }
        }
        if note == nil {
            // The stream's end (or what stopped it) says what a whole inflate would have said.
            note = try PNGRaster.judge(stream.finish(expected: expected), expected: expected, width: width, height: height,
                                       lenient: lenient, format: format, what: what).note
        }
        if passRows != nil { return note }

        // The bands: each pass's rows in turn from its own stream.
        lines.update(repeating: 0, count: max(1, offsets.last!))
        var next = [Int](repeating: 0, count: passes.count)
        try pf.table.withUnsafeBufferPointer { table in
            var y0 = 0
            while y0 < height {
                let y1 = min(height, y0 + bandRows)
                band.initialize(repeating: 0, count: (y1 - y0) * width * 4)
                for (p, pass) in passes.enumerated() {
                    let rb = rowBytes[p], pair = lines + offsets[p]
                    while next[p] < held[p] && pass.y0 + next[p] * pass.dy < y1 {
                        let r = next[p]
                        let line = pair + (r & 1) * (rb + 1)
                        let prior = pair + ((r & 1) ^ 1) * (rb + 1) + 1
                        guard starts[p]!.read(into: line, count: rb + 1),
                              PNGUnfilter.unfilterRow(type: line[0], row: line + 1, prior: prior, count: rb, stride: header.filterStride)
                        else { held[p] = r; break }
                        PNGRaster.expand(line + 1, scratch, width: pass.width, pixelFormat: pf, table: table.baseAddress!)
                        PNGPixelExpander.scatter(scratch, band + (pass.y0 + r * pass.dy - y0) * width * 4, width: pass.width,
                                                 x0: pass.x0, dx: pass.dx)
                        next[p] = r + 1
                    }
                }
                for y in y0..<y1 { try deliver(band + (y - y0) * width * 4, y) }
                y0 = y1
            }
        }
        return note
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
    /// The zlib header's check bits (or its window size) were wrong and zlib was given a good
    /// header instead, as the whole decode's salvage inflater reads past them: the stream then
    /// counts as damaged whatever it holds, as libdeflate refuses it there.
    private var headerRepaired = false

    /// The z_stream lives in a class: zlib keeps a pointer to it.
    final class Box {
        var z = z_stream()
        var ready = false
        init() {
            ready = inflateInit_(&z, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
        }
        /// A copy of `other`'s inflate state and window (`inflateCopy`).
        init(copying other: Box) {
            ready = other.ready && inflateCopy(&z, &other.z) == Z_OK
        }
        deinit { if ready { inflateEnd(&z) } }
    }

    private init(_ other: ZlibStream, owner: Box) {
        self.owner = owner
        range = other.range
        ranges = other.ranges
        bytes = other.bytes
        stopped = other.stopped
        ended = other.ended
        headerRepaired = other.headerRepaired
    }

    /// The stream with its first `skip` bytes inflated and dropped (fewer when it stops first).
    init(_ bytes: [UInt8], ranges: [Range<Int>], skipping skip: Int) {
        self.init(bytes, ranges: ranges)
        var left = skip
        let sink = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
        defer { sink.deallocate() }
        while left > 0 && read(into: sink, count: min(left, 1 << 16)) { left -= min(left, 1 << 16) }
    }

    /// An independent copy of the stream where it is now (its own zlib state and window):
    /// reading the copy goes on from here and leaves this one where it is. nil when zlib cannot
    /// copy its state.
    func copy() -> ZlibStream? {
        let box = Box(copying: owner)
        return box.ready ? ZlibStream(self, owner: box) : nil
    }

    init(_ bytes: [UInt8], ranges: [Range<Int>]) {
        self.bytes = bytes
        var ranges = ranges.filter { !$0.isEmpty }
        owner = Box()
        stopped = !owner.ready
        // The header as `SalvageInflater` reads it (`readsHeader`); zlib also checks its check
        // bits and window size, so a header that fails only those is replaced by a good one, and
        // the stream goes on after it.
        var head: [UInt8] = []
        for r in ranges where head.count < 2 { head += bytes[r].prefix(2 - head.count) }
        let cmf = head.first ?? 0, flg = head.count == 2 ? head[1] : 0
        let zlibReads = (Int(cmf) << 8 | Int(flg)) % 31 == 0 && cmf >> 4 <= 7
        if !stopped, head.count == 2, SalvageInflater.readsHeader(cmf: cmf, flg: flg), !zlibReads {
            var good: [UInt8] = [0x78, 0x9C]
            var sink: UInt8 = 0
            let z = owner
            let consumed = good.withUnsafeMutableBufferPointer { g -> Bool in
                z.z.next_in = g.baseAddress
                z.z.avail_in = 2
                z.z.next_out = withUnsafeMutablePointer(to: &sink) { $0 }
                z.z.avail_out = 1
                let status = inflate(&z.z, Z_NO_FLUSH)
                let done = (status == Z_OK || status == Z_BUF_ERROR) && z.z.avail_in == 0 && z.z.total_out == 0
                z.z.next_in = nil
                z.z.avail_in = 0
                return done
            }
            stopped = !consumed
            headerRepaired = true
            // Drop the file's two header bytes from the ranges zlib reads next.
            var left = 2
            while left > 0, let first = ranges.first {
                let cut = min(left, first.count)
                left -= cut
                if cut == first.count { ranges.removeFirst() } else { ranges[0] = (first.lowerBound + cut)..<first.upperBound }
            }
        }
        self.ranges = ranges
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
        let outcome = finishStream(expected: expected)
        // The whole decode counts a repaired header's stream by what its salvage inflater
        // decodes, up to the image: damaged, however it ends.
        return headerRepaired ? .damaged(produced: min(produced, expected)) : outcome
    }

    private mutating func finishStream(expected: Int) -> PNGInflater.Outcome {
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
