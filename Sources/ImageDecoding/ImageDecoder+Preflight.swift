import ImageCore

extension ImageDecoder {
    /// What can be told of `bytes` without decoding a pixel, as `decode` would find it: throws
    /// the `ImageError` of an empty or unknown file, a damaged signature, a canvas or frame count
    /// over `options.limits`, a JPEG's scans over `maxScans`, and, unless `options.lenient`, the
    /// first problem of the structure (`ImageOutline.inspect`: a truncated file, a bad CRC, a
    /// broken chunk, block or marker), which `decode` refuses too. Damage inside compressed data
    /// is found only by decoding.
    ///
    /// Time is that of the outline's walk (proportional to the chunks, blocks or markers, plus
    /// one pass over a JPEG's bytes for its scans). A file whose outline cannot be read (a
    /// damaged signature, an end before the canvas size) is decoded as far as its first frame:
    /// the decoder names the problem (a PNG signature's damage at once, whatever the mode), or
    /// salvages the file when lenient.
    package static func preflight(_ bytes: [UInt8], options: DecodeOptions) throws {
        if bytes.isEmpty { throw ImageError(nil, SniffError.emptyFile) }
        guard let format = sniff(bytes) else { throw ImageError(nil, SniffError.unrecognised(bytes)) }
        // No outline without an intact signature (`ImageFormat.identify`) and a canvas size.
        guard let read = ImageOutline.read(bytes) else {
            guard try decodesFirstFrame(bytes, options: options) else { throw ImageError(format, SniffError.unrecognised(bytes)) }
            return
        }
        try options.limits.check(width: read.width, height: read.height, format: read.format, what: canvasSource(read.format))
        // An APNG's count is acTL's claim: the decoder counts fcTL chunks (a false claim is an
        // invalid animation, shown as its default image).
        if read.format != .apng { try options.limits.check(frameNumber: read.frameCount, format: read.format) }
        if read.format == .jpeg {
            try bytes.withUnsafeBufferPointer { try options.limits.check(scans: JPEGScans.count($0), format: .jpeg) }
        }
        guard !options.lenient else { return }
        let inspected: ImageOutline?
        do {
            inspected = try ImageOutline.inspect(bytes)
        } catch let e as ImageError {
            if let reason = e.reason as? OutlineError, Self.isShownAnyway(reason) { return }
            throw e
        }
        if let inspected { try options.limits.check(frameNumber: inspected.frameCount, format: inspected.format) }
    }

    /// How a limits error names where a file's canvas size comes from ("IHDR says 100000×100000").
    static func canvasSource(_ format: ImageFormat) -> String {
        switch format {
        case .png, .apng: "IHDR says"
        case .gif: "logical screen is"
        case .jpeg, .webp: "header says"
        }
    }

    /// Problems `inspect` names that the decoder shows a picture despite: a GIF that ends
    /// between its records without a trailer (decoded with a warning, as browsers show such
    /// files), and an APNG's invalid animation control (its default image is shown as a still,
    /// with a note: APNG's rule for errors found before the animation starts).
    static func isShownAnyway(_ reason: OutlineError) -> Bool {
        switch reason {
        case .gifNoTrailer, .apngControlLength, .apngFrameControlLength, .apngZeroFrames, .apngFrameCount: true
        default: false
        }
    }

    /// Decodes `bytes` until their first frame: true when it arrives; the decoder's error when
    /// it fails before.
    private static func decodesFirstFrame(_ bytes: [UInt8], options: DecodeOptions) throws -> Bool {
        do {
            _ = try decodeFrames(bytes, options: options) { _ in throw FirstFrameReached() }
            return false
        } catch is FirstFrameReached {
            return true
        }
    }

    /// Stops a preflight's decode at the first frame.
    private struct FirstFrameReached: Error {}
}
