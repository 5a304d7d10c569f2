import CWebP
import ImageCore

extension WebPDecoder {
    /// Frames come from the demuxer one at a time, each decoded on its own (libwebp) and
    /// composited here on the regions `CanvasLayout` gathers from the frames' rectangles
    /// (`WebPCompositor`; with an ICCP profile on their union, one box), so what is held is the
    /// regions, one frame's pixels, and the box again while the profile converts it. The profile is
    /// applied to each composited frame until one comes back unchanged (a profile that behaves
    /// like sRGB) or it proves unusable; the note kept is the last frame's.
    static func decodeAnimation(_ bytes: [UInt8], chunks: WebPChunks, truncated: Bool,
                                options: DecodeOptions, _ body: (CanvasFrame) throws -> Void) throws -> FrameStreamInfo {
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
            guard let demux = WebPDemux(&webpData) else {
                throw ImageError(.webp, WebPError.cannotParseAnimation(bytes: buffer.count))
            }
            defer { WebPDemuxDelete(demux) }
            let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            try options.limits.check(width: width, height: height, format: .webp, what: "canvas is")
            let declared = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
            let frameCount = options.firstFrameOnly ? 1 : declared
            try options.limits.check(frames: frameCount, width: width, height: height, format: .webp)

            // The regions: every frame's rectangle, from the demuxer (no pixel decoded yet). An ICC
            // profile is applied to one image per frame, so then the frames share one box.
            let rects = frameRects(demux, count: declared)
            guard !rects.isEmpty else { throw ImageError(.webp, WebPError.noFrames) }
            var icc = iccProfile(demux)
            let drawn = Array(rects.prefix(frameCount))
            let regions = icc == nil ? CanvasLayout.regions(drawn, in: PixelRect(x: 0, y: 0, width: width, height: height))
                : [drawn.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }]
            var compositor = WebPCompositor(width: width, height: height, regions: regions)

            var note: String?
            var delivered = 0
            var iter = WebPIterator()
            guard WebPDemuxGetFrame(demux, 1, &iter) != 0 else { throw ImageError(.webp, WebPError.noFrames) }
            defer { WebPDemuxReleaseIterator(&iter) }
            var pixels: [UInt8] = []
            repeat {
                let rect = PixelRect(x: Int(iter.x_offset), y: Int(iter.y_offset), width: Int(iter.width), height: Int(iter.height))
                let decoded = rect.area > 0 && compositor.holds(rect) && decodeFrame(iter.fragment, into: &pixels, width: rect.width, height: rect.height)
                guard decoded else {
                    let failure = WebPError.cannotDecodeFrame(frame: delivered + 1, of: declared)
                    guard options.lenient, delivered > 0 else { throw ImageError(.webp, failure) }
                    warnings.append("\(failure.message); kept \(delivered) frames")
                    break
                }
                pixels.withUnsafeBufferPointer {
                    compositor.draw($0.baseAddress!, rect: rect, blend: iter.blend_method == WEBP_MUX_BLEND,
                                    disposeAfter: iter.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND)
                }
                var shown = compositor.snapshot
                if let profile = icc {
                    let outcome = ColorProfile.convertOrIgnore(&shown[0].pixels, iccProfile: profile, format: .webp)
                    note = outcome.note
                    if case .converted = outcome {} else { icc = nil }
                }
                let damage = compositor.takeDamage()
                try body(CanvasFrame(canvasWidth: width, canvasHeight: height, regions: shown,
                                     damage: delivered == 0 ? nil : damage, delay: Delay(milliseconds: max(0, Int(iter.duration)))))
                delivered += 1
            } while delivered < frameCount && WebPDemuxNextFrame(&iter) != 0
            if let note { warnings.append(note) }
            return FrameStreamInfo(format: .webp, width: width, height: height, frameCount: delivered,
                                   loopCount: Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT)), warnings: warnings)
        }
    }

    /// Every frame's rectangle on the canvas, in order.
    static func frameRects(_ demux: OpaquePointer, count: Int) -> [PixelRect] {
        var rects: [PixelRect] = []
        var iter = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &iter) != 0 else { return [] }
        defer { WebPDemuxReleaseIterator(&iter) }
        repeat {
            rects.append(PixelRect(x: Int(iter.x_offset), y: Int(iter.y_offset), width: Int(iter.width), height: Int(iter.height)))
        } while WebPDemuxNextFrame(&iter) != 0 && rects.count < count
        return rects
    }

    /// One frame's bitstream (ALPH + VP8, or VP8L) decoded to straight RGBA in `pixels`, resized
    /// to `width × height`. False when libwebp refuses it or its size is not the frame's.
    static func decodeFrame(_ fragment: WebPData, into pixels: inout [UInt8], width: Int, height: Int) -> Bool {
        guard let bytes = fragment.bytes, fragment.size > 0 else { return false }
        var w: Int32 = 0, h: Int32 = 0
        guard WebPGetInfo(bytes, fragment.size, &w, &h) != 0, Int(w) == width, Int(h) == height else { return false }
        let count = width * height * 4
        if pixels.count != count { pixels = [UInt8](repeating: 0, count: count) }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { return false }
        let status = pixels.withUnsafeMutableBufferPointer { out in
            config.output.colorspace = MODE_RGBA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = out.baseAddress
            config.output.u.RGBA.stride = Int32(width * 4)
            config.output.u.RGBA.size = out.count
            let status = WebPDecode(bytes, fragment.size, &config)
            WebPFreeDecBuffer(&config.output)
            return status
        }
        return status == VP8_STATUS_OK
    }
}
