import CWebP
import ImageCore

/// Decodes WebP files with libwebp: stills (lossy or lossless, with or without alpha) with
/// `WebPDecode` into a buffer allocated after the limits check, animations with
/// `WebPAnimDecoder`, which composites frames on the canvas for us. An ICCP chunk is applied.
/// WebP's loop count is the number of plays (0 = forever) and is kept as is.
enum WebPDecoder {
    /// Decodes `bytes`, with delays as stored (`ImageDecoder` shows them as displayed). Order: features → limits → allocate → pixels.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        try FrameStreamInfo.collect { try decodeFrames(bytes, options: options, $0) }
    }

    /// Decodes `bytes` frame by frame: `body` gets each frame as soon as libwebp has composited
    /// it, so only libwebp's canvas and the current frame are held. Errors and warnings are those
    /// of `decode`.
    static func decodeFrames(_ file: [UInt8], options: DecodeOptions, _ body: (Frame) throws -> Void) throws -> FrameStreamInfo {
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
        try options.limits.check(width: Int(features.width), height: Int(features.height), format: .webp, what: "header says")
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
        try body(Frame(image: still.image, delay: .zero))
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

    /// Frames come from `WebPAnimDecoder` one at a time; an ICCP profile is applied to each as
    /// it comes (a profile that behaves like sRGB is dropped after the first frame, as nothing
    /// would change).
    private static func decodeAnimation(_ bytes: [UInt8], chunks: WebPChunks, truncated: Bool,
                                        options: DecodeOptions, _ body: (Frame) throws -> Void) throws -> FrameStreamInfo {
        var warnings: [String] = []
        var data = bytes
        if truncated {
            let truncation = WebPError.animationTruncated(chunks.cut, fileSize: bytes.count, declared: chunks.declaredLength)
            guard options.lenient, chunks.completeFrames > 0 else { throw ImageError(.webp, truncation) }
            data = WebPChunks.completePrefix(bytes, end: chunks.completeEnd)
            warnings.append("\(truncation.message); kept \(chunks.completeFrames) complete frames")
        }
        return try data.withUnsafeBufferPointer { buffer in
            var webpData = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            var animOptions = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&animOptions) != 0 else {
                throw ImageError(.webp, WebPError.animationDecoderVersion)
            }
            animOptions.color_mode = MODE_RGBA
            animOptions.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&webpData, &animOptions) else {
                throw ImageError(.webp, WebPError.cannotParseAnimation(bytes: buffer.count))
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
                throw ImageError(.webp, WebPError.cannotReadAnimationHeader)
            }
            let width = Int(info.canvas_width), height = Int(info.canvas_height)
            try options.limits.check(width: width, height: height, format: .webp, what: "canvas is")
            let frameCount = options.firstFrameOnly ? 1 : Int(info.frame_count)
            try options.limits.check(frames: frameCount, width: width, height: height, format: .webp)

            // The profile is applied frame by frame until one frame comes back unchanged (a profile
            // that behaves like sRGB) or it proves unusable; the note kept is the last frame's.
            var icc = WebPAnimDecoderGetDemuxer(decoder).flatMap { iccProfile($0) }
            var note: String?
            var delivered = 0
            var previousTimestamp: Int32 = 0
            let byteCount = width * height * 4
            while delivered < frameCount, WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var canvas: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                    let failure = WebPError.cannotDecodeFrame(frame: delivered + 1, of: Int(info.frame_count))
                    guard options.lenient, delivered > 0 else { throw ImageError(.webp, failure) }
                    warnings.append("\(failure.message); kept \(delivered) frames")
                    break
                }
                var image = Image(width: width, height: height, pixels: Array(UnsafeBufferPointer(start: canvas, count: byteCount)))
                let duration = max(0, Int(timestamp) - Int(previousTimestamp))
                previousTimestamp = timestamp
                if let profile = icc {
                    let outcome = ColorProfile.convertOrIgnore(&image, iccProfile: profile, format: .webp)
                    note = outcome.note
                    if case .converted = outcome {} else { icc = nil }
                }
                try body(Frame(image: image, delay: Delay(milliseconds: duration)))
                delivered += 1
            }
            guard delivered > 0 else { throw ImageError(.webp, WebPError.noFrames) }
            if let note { warnings.append(note) }
            return FrameStreamInfo(format: .webp, width: width, height: height, frameCount: delivered,
                                   loopCount: Int(info.loop_count), warnings: warnings)
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

    private static func iccProfile(_ demuxer: OpaquePointer) -> [UInt8]? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "ICCP", 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard let bytes = iterator.chunk.bytes, iterator.chunk.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: iterator.chunk.size))
    }
}
