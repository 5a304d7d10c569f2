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
    /// the decoder names the problem, or salvages the file when lenient.
    package static func preflight(_ bytes: [UInt8], options: DecodeOptions) throws {
        if bytes.isEmpty { throw ImageError(nil, SniffError.emptyFile) }
        guard let format = sniff(bytes) else { throw ImageError(nil, SniffError.unrecognised(bytes)) }
        guard ImageFormat.identify(bytes) != nil, let read = ImageOutline.read(bytes) else {
            guard try decodesFirstFrame(bytes, options: options) else { throw ImageError(format, SniffError.unrecognised(bytes)) }
            return
        }
        try options.limits.check(width: read.width, height: read.height, format: read.format, what: "header says")
        try options.limits.check(frameNumber: read.frameCount, format: read.format)
        if read.format == .jpeg {
            try bytes.withUnsafeBufferPointer { try options.limits.check(scans: JPEGScans.count($0), format: .jpeg) }
        }
        guard !options.lenient else { return }
        let inspected: ImageOutline?
        do {
            inspected = try ImageOutline.inspect(bytes)
        } catch let e as ImageError {
            // A GIF that ends between its records without a trailer is decoded, with a warning
            // (browsers show such files).
            if case .gifNoTrailer? = e.reason as? OutlineError { return }
            throw e
        }
        if let inspected { try options.limits.check(frameNumber: inspected.frameCount, format: inspected.format) }
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
