import CWebPEncode
import ImageCore

extension WebPEncoder {
    /// An animated WebP made by libwebpmux's `WebPAnimEncoder`, which crops each frame to what
    /// changed, chooses its blend and dispose methods, and (with `options.allowMixed`) lossy or
    /// lossless per frame.
    ///
    /// - Parameters:
    ///   - frames: the whole canvas at each step, all the same size.
    ///   - delays: how long each frame is shown; `delays.count == frames.count`. WebP counts
    ///     whole milliseconds: frames start at `Delay.millisecondTimeline(delays)`, each within
    ///     half a millisecond of its exact time, the total exact to the millisecond.
    ///   - loopCount: times to play, 0 = forever (0…65535).
    ///
    /// Decoding gives `frames` (exactly, when lossless with `options.exact`) with those
    /// durations, except that consecutive frames libwebp finds identical are merged into one
    /// whose duration is their sum, and a result of one frame is a still WebP unless
    /// `alwaysAnimated` is set. The ANIM background colour is transparent black, which is also
    /// how decoders clear the canvas.
    ///   - alwaysAnimated: keep an animated container even when every frame merged into one, for
    ///     an input that was animated: of several frames, two frames of the same image (the first
    ///     frame's duration, then the rest: an animation still counts as one by its frames); of
    ///     one, one frame with the whole duration.
    ///
    /// - Throws: as `encode(_:compression:options:)`, plus `.parameter` errors for no frames, a
    ///   delay count that differs from the frame count, frames of different sizes, a loop count
    ///   outside 0…65535 or a duration past WebP's timestamps.
    public static func encodeAnimation(frames: [Image], delays: [Delay], loopCount: Int = 0,
                                       compression: WebPCompression, options: WebPOptions = .init(),
                                       alwaysAnimated: Bool = false) throws -> [UInt8] {
        guard let first = frames.first else { throw ImageError(.webp, WebPEncodingError.noFrames) }
        guard delays.count == frames.count else {
            throw ImageError(.webp, WebPEncodingError.delayCount(frames: frames.count, delays: delays.count))
        }
        for (i, f) in frames.enumerated() where f.width != first.width || f.height != first.height {
            throw ImageError(.webp, WebPEncodingError.frameSize(frame: i, width: f.width, height: f.height,
                                                                firstWidth: first.width, firstHeight: first.height))
        }
        return try encodeAnimation(width: first.width, height: first.height, delays: delays, loopCount: loopCount,
                                   compression: compression, options: options, alwaysAnimated: alwaysAnimated) { body in
            for (i, f) in frames.enumerated() { try f.pixels.withUnsafeBytes { try body(i, $0) } }
        }
    }

    /// `encodeAnimation(frames:…)` with the frames given one at a time: `walk` calls its
    /// argument with each frame's number and its `width × height` RGBA bytes, in order, one per
    /// delay. Only the encoder's own state is held between frames (libwebp keeps the previous
    /// canvases and the encoded frames, not the input).
    public static func encodeAnimation(width: Int, height: Int, delays: [Delay], loopCount: Int = 0,
                                       compression: WebPCompression, options: WebPOptions = .init(),
                                       alwaysAnimated: Bool = false,
                                       walk: ((Int, UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> [UInt8] {
        guard !delays.isEmpty else { throw ImageError(.webp, WebPEncodingError.noFrames) }
        try checkSize(width: width, height: height)
        guard (0...65535).contains(loopCount) else { throw ImageError(.webp, WebPEncodingError.loopCount(loopCount)) }
        let times = Delay.millisecondTimeline(delays)
        guard let end = times.last, end <= Int(Int32.max) else {
            throw ImageError(.webp, WebPEncodingError.tooLong(milliseconds: times.last ?? 0))
        }
        var config = try WebPSettings.config(compression, options)

        var animOptions = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&animOptions) != 0 else {
            throw ImageError(.webp, WebPEncodingError.animationEncoderFailed(frame: nil, detail: "libwebpmux version mismatch"))
        }
        animOptions.anim_params.loop_count = Int32(loopCount)
        animOptions.anim_params.bgcolor = 0
        animOptions.minimize_size = options.minimizeSize ? 1 : 0
        if case .lossy = compression { animOptions.allow_mixed = options.allowMixed ? 1 : 0 } else { animOptions.allow_mixed = 0 }
        if let k = options.keyframeSpacing {
            animOptions.kmin = Int32(k.lowerBound)
            animOptions.kmax = Int32(k.upperBound)
        }
        animOptions.verbose = 0
        guard let encoder = WebPAnimEncoderNew(Int32(width), Int32(height), &animOptions) else {
            throw ImageError(.webp, WebPEncodingError.animationEncoderFailed(frame: nil, detail: "could not create the encoder"))
        }
        defer { WebPAnimEncoderDelete(encoder) }
        func failure(_ frame: Int?) -> ImageError {
            ImageError(.webp, WebPEncodingError.animationEncoderFailed(frame: frame, detail: WebPAnimEncoderGetError(encoder).map { String(cString: $0) } ?? ""))
        }
        var hasAlpha = false
        var added = 0
        try walk { i, pixels in
            guard i == added, i < delays.count else {
                throw ImageError(.webp, WebPEncodingError.delayCount(frames: max(i, added) + 1, delays: delays.count))
            }
            guard pixels.count == width * height * 4 else {
                throw ImageError(.webp, WebPEncodingError.frameSize(frame: i, width: pixels.count / 4 / max(1, height), height: height,
                                                                    firstWidth: width, firstHeight: height))
            }
            if !hasAlpha, !Image.isOpaque(rgba: pixels) { hasAlpha = true }
            let ok = try WebPFrame.withPicture(pixels, width: width, height: height) {
                WebPAnimEncoderAdd(encoder, $0, Int32(times[i]), &config)
            }
            guard ok != 0 else { throw failure(i) }
            added += 1
        }
        guard added == delays.count else {
            throw ImageError(.webp, WebPEncodingError.delayCount(frames: added, delays: delays.count))
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(end), nil) != 0 else { throw failure(nil) }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0 else { throw failure(nil) }
        defer { WebPDataClear(&data) }
        let bytes = Array(UnsafeBufferPointer(start: data.bytes, count: data.size))
        if alwaysAnimated {
            let cut = times.count > 1 ? times[1] : 0
            if let repeated = try WebPAnimationWrapper.repeatingItsOneFrame(
                bytes, width: width, height: height, hasAlpha: hasAlpha,
                durations: cut > 0 && cut < end ? [cut, end - cut] : [end], loopCount: loopCount) {
                return repeated
            }
        }
        return bytes
    }
}
