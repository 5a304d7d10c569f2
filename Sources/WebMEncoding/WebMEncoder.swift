import ImageCore

/// Entry point of the WebM writer: frames → VP9 (libvpx) → a WebM file of our own muxing
/// (`WebMMuxer`), with alpha the way browsers and Telegram play it: a second VP9 stream whose
/// luma is the alpha plane, carried frame by frame in a Matroska BlockAdditional, the track
/// marked `AlphaMode` 1. Frames that are all opaque give a file with the colour stream only.
///
/// Deterministic: the same frames, delays, rate control and options give the same bytes, on any
/// thread and at any concurrency (libvpx runs single-threaded, without tiles or row threads, and
/// the file has no date or random IDs). Safe to call from several threads at once.
public enum WebMEncoder {
    /// The longest side written.
    public static let maxSide = 16384

    /// A WebM of one VP9 video track.
    ///
    /// - Parameters:
    ///   - frames: the whole canvas at each step, all the same size (2…16384 pixels a side).
    ///     Colour is written as BT.601 studio-range 4:2:0 (lossy even at `cqLevel` 0).
    ///   - delays: how long each frame is shown; `delays.count == frames.count`. Blocks are
    ///     timestamped in milliseconds at `Delay.millisecondTimeline(delays)` (each frame within
    ///     half a millisecond of its exact start; the Info duration is the exact total rounded).
    ///     Equal delays give the track a `DefaultDuration` (in nanoseconds, rounded); otherwise
    ///     every block carries its own duration.
    ///   - rate: the rate control, the knob a search turns.
    ///
    /// A WebM has no loop count: players loop stickers themselves.
    ///
    /// - Throws: `ImageError` (no format) with a `WebMEncodingError`: bad frames or options
    ///   (`.parameter`), or libvpx's failure (`.encoding`).
    public static func encode(frames: [Image], delays: [Delay], rate: VP9RateControl,
                              options: WebMOptions = .init()) throws -> [UInt8] {
        guard let first = frames.first else { throw ImageError(nil, WebMEncodingError.noFrames) }
        guard delays.count == frames.count else {
            throw ImageError(nil, WebMEncodingError.delayCount(frames: frames.count, delays: delays.count))
        }
        for (i, f) in frames.enumerated() where f.width != first.width || f.height != first.height {
            throw ImageError(nil, WebMEncodingError.frameSize(frame: i, width: f.width, height: f.height,
                                                              firstWidth: first.width, firstHeight: first.height))
        }
        return try encode(width: first.width, height: first.height, delays: delays, rate: rate, options: options) { body in
            for (i, f) in frames.enumerated() { try f.pixels.withUnsafeBytes { try body(i, $0) } }
        }
    }

    /// `encode(frames:…)` with the frames given one at a time: `walk` calls its argument with
    /// each frame's number and its `width × height` RGBA bytes, in order, one per delay. It is
    /// walked once per VP9 pass of the colour stream and once more for the alpha stream when
    /// the first walk saw a pixel that is not opaque; no frame is held between calls.
    ///
    /// With `stopPast`, the encode ends with `WebMStopped` as soon as the packets coded pass that
    /// many bytes (so the file does too), in the colour stream while every frame so far is
    /// opaque, else in the alpha stream (the colour stream's bytes counted): the estimate then
    /// holds the colour stream whole. (A colour stream stopped before a later frame's alpha is
    /// seen estimates the colour alone.)
    public static func encode(width: Int, height: Int, delays: [Delay], rate: VP9RateControl, options: WebMOptions = .init(),
                              stopPast: Int? = nil,
                              walk: ((Int, UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws -> [UInt8] {
        try check(width: width, height: height, delays: delays, rate: rate, options: options)
        let times = Delay.millisecondTimeline(delays)
        guard let end = times.last, end <= Int(Int32.max) else {
            throw ImageError(nil, WebMEncodingError.tooLong(milliseconds: times.last ?? 0))
        }
        var hasAlpha = false
        /// The frames as images, each writing its colour (or its alpha plane) into the picture.
        func frames(alpha: Bool, _ each: (Int, (PlanarPicture) -> Void) throws -> Void) throws {
            // `walk` and `each` are both the caller's closures, called in turn, never re-entered.
            try withoutActuallyEscaping(each) { each in
                try walk { i, pixels in
                    guard pixels.count == width * height * 4 else {
                        throw ImageError(nil, WebMEncodingError.frameSize(frame: i, width: pixels.count / 4 / max(1, height),
                                                                          height: height, firstWidth: width, firstHeight: height))
                    }
                    if alpha {
                        try each(i) { YUVConversion.writeAlpha(rgba: pixels, width: width, height: height, into: $0) }
                        return
                    }
                    let opaque = Image.isOpaque(rgba: pixels)
                    if !opaque { hasAlpha = true }
                    try each(i) { YUVConversion.writeColor(rgba: pixels, width: width, height: height, opaque: opaque, into: $0) }
                }
            }
        }
        let colorSettings = VP9StreamSettings(rate: rate, maxKilobitsPerSecond: options.maxKilobitsPerSecond,
                                              speed: options.speed, lookahead: options.lookahead,
                                              keyframeInterval: options.keyframeInterval, twoPass: options.twoPass,
                                              fullRange: false, realtime: options.realtime)
        let color: [VP9Packet]
        do {
            color = try VP9StreamEncoder.encode(count: delays.count, width: width, height: height, times: times,
                                                settings: colorSettings, stop: stopPast.map { past in { !hasAlpha && $0 > past } },
                                                walk: { try frames(alpha: false, $0) })
        } catch let s as VP9StreamEncoder.Stopped {
            throw WebMStopped(estimatedBytes: extrapolated(s, of: delays.count), framesCoded: s.coded)
        }
        let colorBytes = color.reduce(0) { $0 + $1.bytes.count }
        var alpha: [VP9Packet]?
        if hasAlpha {
            var alphaSettings = colorSettings
            alphaSettings.fullRange = true
            if let level = options.alphaCQLevel {
                alphaSettings.rate = .constantQuality(cqLevel: level)
                alphaSettings.maxKilobitsPerSecond = nil
            } else if case .bitrate(let kbps) = rate {
                alphaSettings.rate = .bitrate(kilobitsPerSecond: max(1, kbps / 10))
            }
            do {
                alpha = try VP9StreamEncoder.encode(count: delays.count, width: width, height: height, times: times,
                                                    settings: alphaSettings, stop: stopPast.map { past in { colorBytes + $0 > past } },
                                                    walk: { try frames(alpha: true, $0) })
            } catch let s as VP9StreamEncoder.Stopped {
                throw WebMStopped(estimatedBytes: colorBytes + extrapolated(s, of: delays.count), framesCoded: s.coded)
            }
        }
        guard color.count == delays.count, alpha.map({ $0.count == delays.count }) ?? true,
              alpha.map({ zip($0, color).allSatisfy { $0.keyframe == $1.keyframe } }) ?? true else {
            throw ImageError(nil, WebMEncodingError.streamsDisagree(colorFrames: color.count, alphaFrames: alpha?.count ?? 0,
                                                                   frames: delays.count))
        }
        let webmFrames = color.indices.map { i in
            WebMFrame(color: color[i].bytes, alpha: alpha?[i].bytes, start: times[i], duration: times[i + 1] - times[i],
                      keyframe: color[i].keyframe)
        }
        let muxer = WebMMuxer(width: width, height: height, hasAlpha: hasAlpha, defaultDuration: defaultDuration(delays))
        return muxer.file(webmFrames, totalMilliseconds: end)
    }

    /// The bytes of a stream of `count` frames whose first `stopped.coded` came to
    /// `stopped.bytes`: the first frame (a keyframe, coded alone) once, and every later frame as
    /// the mean of the later frames coded.
    static func extrapolated(_ stopped: VP9StreamEncoder.Stopped, of count: Int) -> Int {
        let later = Double(stopped.bytes - stopped.first) / Double(max(1, stopped.coded - 1))
        return stopped.first + Int((later * Double(count - 1)).rounded())
    }

    /// Nanoseconds every frame lasts (rounded), when all delays are equal and positive.
    static func defaultDuration(_ delays: [Delay]) -> UInt64? {
        guard let first = delays.first, first > .zero, delays.allSatisfy({ $0 == first }) else { return nil }
        let (ns, overflow) = first.numerator.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? nil : UInt64((ns + first.denominator / 2) / first.denominator)
    }

    private static func check(width: Int, height: Int, delays: [Delay], rate: VP9RateControl, options: WebMOptions) throws {
        guard !delays.isEmpty else { throw ImageError(nil, WebMEncodingError.noFrames) }
        guard (2...maxSide).contains(width), (2...maxSide).contains(height) else {
            throw ImageError(nil, WebMEncodingError.unwritableSize(width: width, height: height))
        }
        switch rate {
        case .constantQuality(let q): guard (0...63).contains(q) else { throw ImageError(nil, WebMEncodingError.cqLevel(q)) }
        case .bitrate(let b): guard (1...1_000_000).contains(b) else { throw ImageError(nil, WebMEncodingError.bitrate(b)) }
        }
        if let cap = options.maxKilobitsPerSecond, !(1...1_000_000).contains(cap) {
            throw ImageError(nil, WebMEncodingError.bitrate(cap))
        }
        if let q = options.alphaCQLevel, !(0...63).contains(q) { throw ImageError(nil, WebMEncodingError.cqLevel(q)) }
        guard (0...8).contains(options.speed) else { throw ImageError(nil, WebMEncodingError.speed(options.speed)) }
        if options.realtime, options.twoPass { throw ImageError(nil, WebMEncodingError.realtimeTwoPass) }
        if let k = options.keyframeInterval, k < 1 { throw ImageError(nil, WebMEncodingError.keyframeInterval(k)) }
        guard (0...25).contains(options.lookahead) else { throw ImageError(nil, WebMEncodingError.lookahead(options.lookahead)) }
    }
}
