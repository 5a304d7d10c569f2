import ImageCore

/// One decoded PNG image (the IDAT image or one APNG frame's region) in 8-bit RGBA, and how
/// much of it the data really held.
struct PNGRaster {
    var image: Image
    /// Rows that hold decoded data, from the top. `height` unless lenient mode kept a partial
    /// image (interlaced partial images count as whole: their missing pixels are transparent).
    var rowsDecoded: Int
    /// Set when lenient mode kept a damaged or truncated image, or extra data was ignored.
    var note: String?
    var isComplete: Bool { rowsDecoded == image.height && note == nil }

    /// Inflates, unfilters and expands `width × height` pixels from the zlib stream `compressed`.
    /// `what` names the data in errors and notes.
    static func decode(_ compressed: UnsafeRawBufferPointer, width: Int, height: Int, pixelFormat pf: PNGPixelFormat,
                       lenient: Bool, format: ImageFormat, what: PNGImageData) throws -> PNGRaster {
        func fail(_ reason: PNGError) -> ImageError { ImageError(format, reason) }
        let header = pf.header
        let (pixelBytes, overflow) = width.multipliedReportingOverflow(by: height * 4)
        guard !overflow, height <= Int.max / 4, let expected = header.scanlineBytes(width: width, height: height) else {
            throw fail(.imageSizeOverflows(what, width: width, height: height))
        }
        // Deflate cannot expand more than 1032:1; refuse before allocating for a stream that
        // cannot possibly fill the image.
        let (maxOut, o) = compressed.count.multipliedReportingOverflow(by: 1032)
        if !lenient && !o && maxOut + 1024 < expected {
            throw fail(.imageDataCannotFill(compressed: compressed.count, in: what, needed: expected, width: width, height: height))
        }
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: max(expected, 1))
        defer { buffer.deallocate() }
        let outcome = PNGInflater.inflate(compressed, into: buffer, count: expected)
        let (available, judged) = try judge(outcome, expected: expected, width: width, height: height, lenient: lenient,
                                            format: format, what: what)
        var note = judged

        let pixelCount = pixelBytes / 4
        var failure: Failure?
        var rows = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: pixelCount * 4) { out, initialized in
            if available < expected || lenient { out.initialize(repeating: 0) }
            pf.table.withUnsafeBufferPointer { table in
                (rows, failure) = reconstruct(buffer, available: available, into: out.baseAddress!, width: width, height: height,
                                              pixelFormat: pf, table: table.baseAddress!, checkPalette: !lenient)
            }
            initialized = pixelCount * 4
        }
        if let failure {
            switch failure {
            case .filter(let type, let row, let pass):
                let invalid = PNGError.invalidFilterType(type, row: row, pass: pass, in: what)
                if !lenient { throw fail(invalid) }
                note = "\(invalid.message); the rest is transparent"
            case .palette(let index, let row):
                throw fail(.paletteIndexOutOfRange(index: index, row: row, in: what, paletteEntries: pf.paletteCount))
            }
        }
        return PNGRaster(image: Image(width: width, height: height, pixels: pixels), rowsDecoded: rows, note: note)
    }

    /// What an inflate's outcome leaves (the bytes to reconstruct from) and says (a note), or
    /// the error strict decoding stops with: one rule for whole images and row decodes.
    static func judge(_ outcome: PNGInflater.Outcome, expected: Int, width: Int, height: Int, lenient: Bool,
                      format: ImageFormat, what: PNGImageData) throws -> (available: Int, note: String?) {
        func fail(_ reason: PNGError) -> ImageError { ImageError(format, reason) }
        switch outcome {
        case .complete:
            return (expected, nil)
        case .overlong:
            return (expected, "\(what) holds more data than a \(width)×\(height) image needs; the rest was ignored")
        case .short(let n):
            let short = PNGError.imageDataShort(decoded: n, expected: expected, in: what)
            if !lenient { throw fail(short) }
            return (n, "\(short.message); the rest is transparent")
        case .damaged(let n):
            if !lenient {
                if n == expected { throw fail(.badAdler32(bytes: expected, in: what)) }
                throw fail(.imageDataDamaged(decoded: n, expected: expected, in: what))
            }
            if n < expected {
                return (n, "\(PNGError.imageDataDamaged(decoded: n, expected: expected, in: what).message); the rest is transparent")
            }
            return (n, nil)
        }
    }

    enum Failure {
        case filter(type: UInt8, row: Int, pass: Int?)
        case palette(index: Int, row: Int)
    }

    /// Unfilters the first `available` bytes of scanlines in place and expands every complete
    /// row into `out`. Returns the rows done (see `rowsDecoded`) and the first failure.
    static func reconstruct(_ data: UnsafeMutablePointer<UInt8>, available: Int, into out: UnsafeMutablePointer<UInt8>,
                            width: Int, height: Int, pixelFormat pf: PNGPixelFormat, table: UnsafePointer<UInt32>,
                            checkPalette: Bool) -> (Int, Failure?) {
        let header = pf.header
        let passes = PNGHeader.passes(width: width, height: height, interlaced: header.interlaced)
        let stride = header.filterStride
        let depth = header.bitDepth
        let paletteLimit = header.colorType == .indexed && checkPalette && pf.paletteCount < (1 << depth) ? pf.paletteCount : -1
        // rowBytes cannot overflow here: scanlineBytes succeeded for the whole image.
        let maxRowBytes = header.rowBytes(width: width)!
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: maxRowBytes + 1)
        zeros.initialize(repeating: 0, count: maxRowBytes + 1)
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 4)
        defer { zeros.deallocate(); scratch.deallocate() }
        var offset = 0
        for (p, pass) in passes.enumerated() {
            let rb = header.rowBytes(width: pass.width)!
            for r in 0..<pass.height {
                if offset + 1 + rb > available {
                    return (header.interlaced ? height : r, nil)
                }
                let type = data[offset]
                let row = data + offset + 1
                let prior = r == 0 ? UnsafePointer(zeros) : UnsafePointer(row - (rb + 1))
                if !PNGUnfilter.unfilterRow(type: type, row: row, prior: prior, count: rb, stride: stride) {
                    return (header.interlaced ? height : r, .filter(type: type, row: r, pass: header.interlaced ? p + 1 : nil))
                }
                let y = pass.y0 + r * pass.dy
                if paletteLimit >= 0 {
                    let m = PNGPixelExpander.maxIndex(row, width: pass.width, depth: depth)
                    if m >= paletteLimit { return (header.interlaced ? height : r, .palette(index: m, row: y)) }
                }
                let dst = header.interlaced ? scratch : out + y * width * 4
                expand(row, dst, width: pass.width, pixelFormat: pf, table: table)
                if header.interlaced {
                    PNGPixelExpander.scatter(scratch, out + y * width * 4, width: pass.width, x0: pass.x0, dx: pass.dx)
                }
                offset += 1 + rb
            }
        }
        return (height, nil)
    }

    @inline(__always)
    static func expand(_ src: UnsafePointer<UInt8>, _ dst: UnsafeMutablePointer<UInt8>, width: Int,
                       pixelFormat pf: PNGPixelFormat, table: UnsafePointer<UInt32>) {
        switch pf.layout {
        case .lookup: PNGPixelExpander.lookup(src, dst, width: width, depth: pf.header.bitDepth, table: table)
        case .gray16: PNGPixelExpander.gray16(src, dst, width: width, key: pf.key)
        case .rgb8: PNGPixelExpander.rgb8(src, dst, width: width, key: pf.key)
        case .rgb16: PNGPixelExpander.rgb16(src, dst, width: width, key: pf.key)
        case .grayAlpha8: PNGPixelExpander.grayAlpha8(src, dst, width: width)
        case .grayAlpha16: PNGPixelExpander.grayAlpha16(src, dst, width: width)
        case .rgba8: PNGPixelExpander.rgba8(src, dst, width: width)
        case .rgba16: PNGPixelExpander.rgba16(src, dst, width: width)
        }
    }
}
