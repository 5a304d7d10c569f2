/// The fixed knobs of the WebM (VP9) encoder, beside the rate control (`VP9RateControl`) that a
/// search varies. Every value is checked before encoding; one out of range throws
/// `WebMEncodingError`.
///
/// Threads are pinned to one and tiles and row multithreading are off, so the bytes depend on the
/// frames, delays, rate control and these options only.
public struct WebMOptions: Hashable, Sendable {
    /// libvpx's `cpu-used` at the "good" deadline: 0 (slowest, smallest) … 8 (fastest). Default
    /// 2 (NOTES.md has the measured trade-off).
    public var speed: Int
    /// A keyframe every `keyframeInterval` frames (both streams together); nil: only the first
    /// frame. A sticker is played from the start and loops by seeking there, so the default
    /// spends no bytes on more. Each keyframe starts a cluster and gets a cue.
    public var keyframeInterval: Int?
    /// Analyse the whole animation first (libvpx's two-pass mode): at equal bytes 0.3–1 dB better
    /// on sticker artwork (about even on video), for up to twice the time. Default on.
    public var twoPass: Bool
    /// Let libvpx code hidden alt-reference frames from frames it looks ahead to (up to
    /// `lookahead` frames, 0 … 25). Default 25 with alt-refs on, libvpx's own default.
    public var lookahead: Int
    /// With `.constantQuality`, cap the bitrate at this many kbps (constrained quality, libvpx's
    /// `VPX_CQ`). Default nil: pure constant quality.
    public var maxKilobitsPerSecond: Int?
    /// Quantizer level of the alpha stream (0 … 63), when the frames have alpha; nil (the
    /// default): the colour stream's rate control (with `.bitrate`, a tenth of it), so that one
    /// knob scales the whole file (NOTES.md has the measured cost of a fixed level).
    public var alphaCQLevel: Int?
    /// Encode at libvpx's realtime deadline instead of "good": its own faster tools, one pass
    /// (`twoPass` must be off). A 69-frame 512² animation with alpha at speed 5: 1.1 s against
    /// 5.9 s at speed 2 with two passes, for larger files at equal quality (NOTES.md). Default off.
    public var realtime: Bool

    public init(speed: Int = 2, keyframeInterval: Int? = nil, twoPass: Bool = true, lookahead: Int = 25,
                maxKilobitsPerSecond: Int? = nil, alphaCQLevel: Int? = nil, realtime: Bool = false) {
        self.speed = speed
        self.keyframeInterval = keyframeInterval
        self.twoPass = twoPass
        self.lookahead = lookahead
        self.maxKilobitsPerSecond = maxKilobitsPerSecond
        self.alphaCQLevel = alphaCQLevel
        self.realtime = realtime
    }

    /// These options at libvpx's realtime deadline and `speed`: one pass, no lookahead.
    public func atRealtime(speed: Int) -> WebMOptions {
        var o = self
        o.speed = speed
        o.twoPass = false
        o.lookahead = 0
        o.realtime = true
        return o
    }
}
