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
        try check(frames: frames, delays: delays, rate: rate, options: options)
        let (width, height) = (frames[0].width, frames[0].height)
        let times = Delay.millisecondTimeline(delays)
        guard let end = times.last, end <= Int(Int32.max) else {
            throw ImageError(nil, WebMEncodingError.tooLong(milliseconds: times.last ?? 0))
        }
        let hasAlpha = frames.contains { !$0.isOpaque }
        let colorSettings = VP9StreamSettings(rate: rate, maxKilobitsPerSecond: options.maxKilobitsPerSecond,
                                              speed: options.speed, lookahead: options.lookahead,
                                              keyframeInterval: options.keyframeInterval, twoPass: options.twoPass,
                                              fullRange: false)
        let color = try VP9StreamEncoder.encode(count: frames.count, width: width, height: height, times: times,
                                                settings: colorSettings) { i, picture in
            YUVConversion.writeColor(frames[i], into: picture)
        }
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
            alpha = try VP9StreamEncoder.encode(count: frames.count, width: width, height: height, times: times,
                                                settings: alphaSettings) { i, picture in
                YUVConversion.writeAlpha(frames[i], into: picture)
            }
        }
        guard color.count == frames.count, alpha.map({ $0.count == frames.count }) ?? true,
              alpha.map({ zip($0, color).allSatisfy { $0.keyframe == $1.keyframe } }) ?? true else {
            throw ImageError(nil, WebMEncodingError.streamsDisagree(colorFrames: color.count, alphaFrames: alpha?.count ?? 0,
                                                                   frames: frames.count))
        }
        let webmFrames = color.indices.map { i in
            WebMFrame(color: color[i].bytes, alpha: alpha?[i].bytes, start: times[i], duration: times[i + 1] - times[i],
                      keyframe: color[i].keyframe)
        }
        let muxer = WebMMuxer(width: width, height: height, hasAlpha: hasAlpha, defaultDuration: defaultDuration(delays))
        return muxer.file(webmFrames, totalMilliseconds: end)
    }

    /// Nanoseconds every frame lasts (rounded), when all delays are equal and positive.
    static func defaultDuration(_ delays: [Delay]) -> UInt64? {
        guard let first = delays.first, first > .zero, delays.allSatisfy({ $0 == first }) else { return nil }
        let (ns, overflow) = first.numerator.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? nil : UInt64((ns + first.denominator / 2) / first.denominator)
    }

    private static func check(frames: [Image], delays: [Delay], rate: VP9RateControl, options: WebMOptions) throws {
        guard let first = frames.first else { throw ImageError(nil, WebMEncodingError.noFrames) }
        guard delays.count == frames.count else {
            throw ImageError(nil, WebMEncodingError.delayCount(frames: frames.count, delays: delays.count))
        }
        guard (2...maxSide).contains(first.width), (2...maxSide).contains(first.height) else {
            throw ImageError(nil, WebMEncodingError.unwritableSize(width: first.width, height: first.height))
        }
        for (i, f) in frames.enumerated() where f.width != first.width || f.height != first.height {
            throw ImageError(nil, WebMEncodingError.frameSize(frame: i, width: f.width, height: f.height,
                                                              firstWidth: first.width, firstHeight: first.height))
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
        if let k = options.keyframeInterval, k < 1 { throw ImageError(nil, WebMEncodingError.keyframeInterval(k)) }
        guard (0...25).contains(options.lookahead) else { throw ImageError(nil, WebMEncodingError.lookahead(options.lookahead)) }
    }
}
