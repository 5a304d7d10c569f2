import CWebP
import ImageCore

/// Decodes WebP files with libwebp: stills (lossy or lossless, with or without alpha) with
/// `WebPDecode` into a buffer allocated after the limits check, animations with
/// `WebPAnimDecoder`, which composites frames on the canvas for us. An ICCP chunk is applied.
/// WebP's loop count is the number of plays (0 = forever) and is kept as is.
public enum WebPDecoder {
    /// Decodes `bytes`. Order: features → limits → allocate → pixels.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        let chunks = WebPChunks(bytes)
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        let truncated = bytes.count < chunks.declaredLength
        guard status == VP8_STATUS_OK else {
            if truncated || status == VP8_STATUS_NOT_ENOUGH_DATA {
                throw ImageError.decoding(.webp, "data ends after \(bytes.count) bytes (header only)")
            }
            throw ImageError.decoding(.webp, "libwebp cannot read the header: \(describe(status))")
        }
        try options.limits.check(width: Int(features.width), height: Int(features.height), format: .webp, what: "header says")
        if features.has_animation != 0 {
            return try decodeAnimation(bytes, chunks: chunks, truncated: truncated, options: options)
        }
        return try decodeStill(bytes, width: Int(features.width), height: Int(features.height),
                               chunks: chunks, truncated: truncated, options: options)
    }

    private static func decodeStill(_ bytes: [UInt8], width: Int, height: Int, chunks: WebPChunks,
                                    truncated: Bool, options: DecodeOptions) throws -> DecodedImage {
        var warnings: [String] = []
        if truncated {
            guard let start = chunks.imageDataStart, bytes.count > start + 10 else {
                throw ImageError.decoding(.webp, "data ends after \(bytes.count) bytes (header only)")
            }
            if !options.lenient {
                throw ImageError.decoding(.webp, "data ends after \(bytes.count) of \(chunks.declaredLength) bytes, in the image data")
            }
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let rows: Int
        if truncated {
            rows = decodePartial(bytes, into: &pixels, width: width, height: height)
            guard rows > 0 else {
                throw ImageError.decoding(.webp, "data ends after \(bytes.count) of \(chunks.declaredLength) bytes, before the first row")
            }
            warnings.append("data ends after \(bytes.count) of \(chunks.declaredLength) bytes; kept the first \(rows) of \(height) rows")
        } else {
            let status = decodeWhole(bytes, into: &pixels, width: width, height: height)
            guard status == VP8_STATUS_OK else {
                throw ImageError.decoding(.webp, "libwebp cannot decode the image: \(describe(status))")
            }
        }
        var image = Image(width: width, height: height, pixels: pixels)
        if !truncated, let icc = iccProfile(bytes) {
            if let note = try applyProfile(icc, to: &image, lenient: options.lenient) { warnings.append(note) }
        }
        return DecodedImage(format: .webp, animation: Animation(still: image), warnings: warnings)
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

    private static func decodeAnimation(_ bytes: [UInt8], chunks: WebPChunks, truncated: Bool,
                                        options: DecodeOptions) throws -> DecodedImage {
        var warnings: [String] = []
        var data = bytes
        if truncated {
            // Cut inside a frame, or in a chunk around the frames (metadata after the last one).
            let place = chunks.cutChunk == "ANMF" || chunks.cutChunk == nil
                ? "animation truncated in frame \(chunks.completeFrames + 1)"
                : "animation truncated in its '\(chunks.cutChunk!)' chunk after \(chunks.completeFrames) frames"
            let message = "\(place) (data ends after \(bytes.count) of \(chunks.declaredLength) bytes)"
            guard options.lenient, chunks.completeFrames > 0 else { throw ImageError.decoding(.webp, message) }
            data = WebPChunks.completePrefix(bytes, end: chunks.completeEnd)
            warnings.append("\(message); kept \(chunks.completeFrames) complete frames")
        }
        return try data.withUnsafeBufferPointer { buffer in
            var webpData = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            var animOptions = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&animOptions) != 0 else {
                throw ImageError.decoding(.webp, "libwebp animation decoder version mismatch")
            }
            animOptions.color_mode = MODE_RGBA
            animOptions.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&webpData, &animOptions) else {
                throw ImageError.decoding(.webp, "libwebp cannot parse the animation (\(buffer.count) bytes)")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
                throw ImageError.decoding(.webp, "libwebp cannot read the animation header")
            }
            let width = Int(info.canvas_width), height = Int(info.canvas_height)
            try options.limits.check(width: width, height: height, format: .webp, what: "canvas is")
            let frameCount = options.firstFrameOnly ? 1 : Int(info.frame_count)
            try options.limits.check(frames: frameCount, width: width, height: height, format: .webp)

            var frames: [Frame] = []
            frames.reserveCapacity(frameCount)
            var previousTimestamp: Int32 = 0
            let byteCount = width * height * 4
            while frames.count < frameCount, WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var canvas: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                    let message = "libwebp cannot decode frame \(frames.count + 1) of \(info.frame_count)"
                    guard options.lenient, !frames.isEmpty else { throw ImageError.decoding(.webp, message) }
                    warnings.append("\(message); kept \(frames.count) frames")
                    break
                }
                let pixels = Array(UnsafeBufferPointer(start: canvas, count: byteCount))
                let duration = max(0, Int(timestamp) - Int(previousTimestamp))
                previousTimestamp = timestamp
                frames.append(Frame(image: Image(width: width, height: height, pixels: pixels),
                                    delay: Delay(milliseconds: duration)))
            }
            guard !frames.isEmpty else { throw ImageError.decoding(.webp, "animation has no frames") }
            if let demuxer = WebPAnimDecoderGetDemuxer(decoder), let icc = iccProfile(demuxer) {
                var note: String?
                for i in frames.indices {
                    note = try applyProfile(icc, to: &frames[i].image, lenient: options.lenient)
                    if note == nil { break }
                }
                if let note { warnings.append(note) }
            }
            let animation = Animation(width: width, height: height, frames: frames, loopCount: Int(info.loop_count))
            return DecodedImage(format: .webp, animation: animation, warnings: warnings)
        }
    }

    /// Converts with the profile; in lenient mode an unusable profile becomes a note.
    private static func applyProfile(_ icc: [UInt8], to image: inout Image, lenient: Bool) throws -> String? {
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

    private static func iccProfile(_ demuxer: OpaquePointer) -> [UInt8]? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "ICCP", 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard let bytes = iterator.chunk.bytes, iterator.chunk.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: iterator.chunk.size))
    }

    private static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_SUSPENDED: "suspended"
        case VP8_STATUS_USER_ABORT: "aborted"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data"
        default: "status \(status.rawValue)"
        }
    }
}
