import CWebP
import ImageCore

/// Decodes WebP files with libwebp: stills (lossy or lossless, with or without alpha) with
/// `WebPDecode` into a buffer allocated after the limits check, animations frame by frame from
/// the demuxer, composited here (`WebPCompositor`). An ICCP chunk is applied.
/// WebP's loop count is the number of plays (0 = forever) and is kept as is.
enum WebPDecoder {
    /// Decodes `bytes`, with delays as stored (`ImageDecoder` shows them as displayed). Order: features → limits → allocate → pixels.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        try FrameStreamInfo.collectCanvas { try decodeFrames(bytes, options: options, $0) }
    }

    /// Decodes `bytes` frame by frame: `body` gets each frame as soon as it is composited, so
    /// only the canvas's box and the current frame are held. Errors and warnings are those of
    /// `decode`.
    static func decodeFrames(_ file: [UInt8], options: DecodeOptions, _ body: (CanvasFrame) throws -> Void) throws -> FrameStreamInfo {
        var (bytes, notes) = try checkRIFFSize(file, lenient: options.lenient)
        let chunks = WebPChunks(bytes)
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        let truncated = bytes.count < chunks.declaredLength
        guard status == VP8_STATUS_OK else {
            if truncated || status == VP8_STATUS_NOT_ENOUGH_DATA {
                throw ImageError(.webp, WebPError.endsInHeader(fileSize: bytes.count))
            }
            throw ImageError(.webp, WebPError.cannotReadHeader(status: Int(status.rawValue)))
        }
        try options.limits.check(width: Int(features.width), height: Int(features.height), format: .webp, what: ImageDecoder.canvasSource(.webp))
        if features.has_animation != 0 {
            var data = bytes
            if let canvas = chunks.canvas {
                let frames = try checkFrames(chunks.frames, canvasWidth: canvas.width, canvasHeight: canvas.height,
                                             lenient: options.lenient, notes: &notes)
                if frames < chunks.frames.count {
                    // Lenient: the frames before the one that does not fit.
                    data = WebPChunks.completePrefix(bytes, end: chunks.frames[frames].chunkOffset)
                }
            }
            bytes = []
            var info = try decodeAnimation(data, chunks: WebPChunks(data), truncated: truncated, options: options, body)
            info.warnings = notes + info.warnings
            return info
        }
        let still = try decodeStill(bytes, width: Int(features.width), height: Int(features.height),
                                    chunks: chunks, truncated: truncated, options: options)
        try body(CanvasFrame(canvasWidth: still.image.width, canvasHeight: still.image.height,
                             box: PixelRect(x: 0, y: 0, width: still.image.width, height: still.image.height),
                             pixels: still.image, damage: nil, delay: .zero))
        return FrameStreamInfo(format: .webp, width: still.image.width, height: still.image.height, frameCount: 1,
                               loopCount: 0, warnings: notes + still.warnings)
    }

    /// What the RIFF header's size says, checked against the file before libwebp reads it: the
    /// bytes to decode and the notes. A size of 0, or one that ends inside a chunk, is an error
    /// (libwebp and browsers refuse such files); lenient mode reads the whole file, or the
    /// declared bytes as a file cut short. A size that ends at a chunk boundary before the end
    /// of the file leaves trailing bytes, ignored with a note, as libwebp and browsers do. A
    /// size past the end is a truncated file, for the callers to handle.
    private static func checkRIFFSize(_ file: [UInt8], lenient: Bool) throws -> (bytes: [UInt8], notes: [String]) {
        guard file.count >= 12 else { throw ImageError(.webp, WebPError.endsInHeader(fileSize: file.count)) }
        let chunks = WebPChunks(file)
        if chunks.riffSize == 0 {
            let problem = WebPError.riffSizeZero(fileSize: file.count)
            guard lenient else { throw ImageError(.webp, problem) }
            return (WebPChunks.completePrefix(file, end: file.count), ["\(problem.message); read the whole file"])
        }
        let declared = chunks.declaredLength
        guard declared < file.count else { return (file, []) }
        if let cut = chunks.chunk(endingInside: declared, in: file) {
            let problem = WebPError.riffSizeEndsInChunk(declared: declared, fileSize: file.count, chunk: cut.fourCC, chunkOffset: cut.offset)
            // Lenient: the chunks before the one the size cuts, when they hold an image.
            let before = WebPChunks.completePrefix(file, end: cut.offset)
            let kept = WebPChunks(before)
            guard lenient, kept.completeFrames > 0 || kept.imageDataStart != nil else {
                throw ImageError(.webp, problem)
            }
            return (before, ["\(problem.message); read the chunks before it"])
        }
        return (file, ["ignored \(file.count - declared) bytes after the \(declared) the RIFF header declares"])
    }

    /// Checks each frame's place on the canvas before libwebp, which would only say it cannot
    /// parse the animation: a frame whose image does not fit is an error naming it (lenient mode
    /// keeps the frames before it); a frame whose ANMF size and bitstream size disagree but
    /// which fits gets a note. Returns how many frames to decode.
    private static func checkFrames(_ frames: [WebPFrameHeader], canvasWidth: Int, canvasHeight: Int,
                                    lenient: Bool, notes: inout [String]) throws -> Int {
        for (k, frame) in frames.enumerated() {
            if !frame.fits(canvasWidth: canvasWidth, canvasHeight: canvasHeight) {
                let problem: WebPError = frame.matchesBitstream
                    ? .frameOutsideCanvas(frame: frame.number, x: frame.x, y: frame.y, width: frame.width, height: frame.height,
                                          canvasWidth: canvasWidth, canvasHeight: canvasHeight)
                    : .frameBitstreamOutsideCanvas(frame: frame.number, width: frame.width, height: frame.height,
                                                   bitstreamWidth: frame.bitstreamWidth ?? frame.width,
                                                   bitstreamHeight: frame.bitstreamHeight ?? frame.height,
                                                   x: frame.x, y: frame.y, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
                guard lenient, k > 0 else { throw ImageError(.webp, problem) }
                notes.append("\(problem.message); kept the \(k) frame\(k == 1 ? "" : "s") before it")
                return k
            }
            if !frame.matchesBitstream { notes.append(WebPError.sizeMismatchNote(frame)) }
        }
        return frames.count
    }

    private static func decodeStill(_ bytes: [UInt8], width: Int, height: Int, chunks: WebPChunks,
                                    truncated: Bool, options: DecodeOptions) throws -> (image: Image, warnings: [String]) {
        var warnings: [String] = []
        if truncated {
            guard let start = chunks.imageDataStart, bytes.count > start + 10 else {
                throw ImageError(.webp, WebPError.endsInHeader(fileSize: bytes.count))
            }
            if !options.lenient {
                throw ImageError(.webp, WebPError.endsInImageData(fileSize: bytes.count, declared: chunks.declaredLength))
            }
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let rows: Int
        if truncated {
            rows = decodePartial(bytes, into: &pixels, width: width, height: height)
            guard rows > 0 else {
                throw ImageError(.webp, WebPError.endsBeforeFirstRow(fileSize: bytes.count, declared: chunks.declaredLength))
            }
            warnings.append("data ends after \(bytes.count) of \(chunks.declaredLength) bytes; kept the first \(rows) of \(height) rows")
        } else {
            let status = decodeWhole(bytes, into: &pixels, width: width, height: height)
            guard status == VP8_STATUS_OK else {
                throw ImageError(.webp, WebPError.cannotDecodeImage(status: Int(status.rawValue)))
            }
        }
        var image = Image(width: width, height: height, pixels: pixels)
        if !truncated, let icc = iccProfile(bytes), let note = ColorProfile.convertOrIgnore(&image, iccProfile: icc, format: .webp).note {
            warnings.append(note)
        }
        return (image, warnings)
    }

    private static func decodeWhole(_ bytes: [UInt8], into pixels: inout [UInt8], width: Int, height: Int) -> VP8StatusCode {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { return VP8_STATUS_INVALID_PARAM }
        return pixels.withUnsafeMutableBufferPointer { out in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = out.baseAddress
            config.output.u.RGBA.stride = Int32(width * 4)
            config.output.u.RGBA.size = out.count
            let status = bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
            WebPFreeDecBuffer(&config.output)
            return status
        }
    }

    /// Decodes what there is of a cut still with the incremental decoder; returns the rows done.
    private static func decodePartial(_ bytes: [UInt8], into pixels: inout [UInt8], width: Int, height: Int) -> Int {
        pixels.withUnsafeMutableBufferPointer { out in
            var buffer = WebPDecBuffer()
            guard WebPInitDecBuffer(&buffer) != 0 else { return 0 }
            buffer.colorspace = MODE_RGBA
            buffer.is_external_memory = 1
            buffer.u.RGBA.rgba = out.baseAddress
            buffer.u.RGBA.stride = Int32(width * 4)
            buffer.u.RGBA.size = out.count
            guard let idec = WebPINewDecoder(&buffer) else { return 0 }
            defer { WebPIDelete(idec) }
            let status = bytes.withUnsafeBufferPointer { WebPIAppend(idec, $0.baseAddress, $0.count) }
            guard status == VP8_STATUS_OK || status == VP8_STATUS_SUSPENDED else { return 0 }
            var lastY: Int32 = 0, w: Int32 = 0, h: Int32 = 0, stride: Int32 = 0
            guard WebPIDecGetRGB(idec, &lastY, &w, &h, &stride) != nil else { return 0 }
            return min(Int(lastY), height)
        }
    }

    private static func iccProfile(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let demuxer = WebPDemux(&data) else { return nil }
            defer { WebPDemuxDelete(demuxer) }
            return iccProfile(demuxer)
        }
    }

    static func iccProfile(_ demuxer: OpaquePointer) -> [UInt8]? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "ICCP", 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard let bytes = iterator.chunk.bytes, iterator.chunk.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: iterator.chunk.size))
    }
}
