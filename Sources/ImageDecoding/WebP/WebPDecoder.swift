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
    static func decodeFrames(_ bytes: [UInt8], options: DecodeOptions, _ body: (CanvasFrame) throws -> Void) throws -> FrameStreamInfo {
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
            return try decodeAnimation(bytes, chunks: chunks, truncated: truncated, options: options, body)
        }
        let still = try decodeStill(bytes, width: Int(features.width), height: Int(features.height),
                                    chunks: chunks, truncated: truncated, options: options)
        try body(CanvasFrame(canvasWidth: still.image.width, canvasHeight: still.image.height,
                             box: PixelRect(x: 0, y: 0, width: still.image.width, height: still.image.height),
                             pixels: still.image, damage: nil, delay: .zero))
        return FrameStreamInfo(format: .webp, width: still.image.width, height: still.image.height, frameCount: 1,
                               loopCount: 0, warnings: still.warnings)
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
        if !truncated, let icc = iccProfile(bytes) {
            if let note = try applyProfile(icc, to: &image, lenient: options.lenient) { warnings.append(note) }
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

    /// Converts with the profile; in lenient mode an unusable profile becomes a note.
    static func applyProfile(_ icc: [UInt8], to image: inout Image, lenient: Bool) throws -> String? {
        do {
            return try ColorProfile.convertToSRGB(&image, iccProfile: icc, format: .webp)
        } catch let error as ImageError where lenient {
            return "ignored: \(error.message)"
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
