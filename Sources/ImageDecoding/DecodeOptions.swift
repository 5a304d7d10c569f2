import ImageCore

/// How strict and how large decoding may be.
public struct DecodeOptions: Sendable {
    public var limits: Limits
    /// Salvage what decodes from damaged files (bad CRCs, truncated data) instead of failing.
    public var lenient: Bool
    /// Decode only the first frame of an animation (cheaper; used by `check` and previews).
    public var firstFrameOnly: Bool
    /// The smallest long side the caller needs: a JPEG at least twice as large may be decoded
    /// reduced by libjpeg's DCT scaling (1/2, 1/4 or 1/8, the most that keeps its long side at
    /// least this), except CMYK files. The frame then has the reduced size and
    /// `FrameStreamInfo.sourceWidth`/`sourceHeight` keep the real one. Nil: full size.
    public var minimumLongSide: Int?

    public init(limits: Limits = .default, lenient: Bool = false, firstFrameOnly: Bool = false, minimumLongSide: Int? = nil) {
        self.limits = limits
        self.lenient = lenient
        self.firstFrameOnly = firstFrameOnly
        self.minimumLongSide = minimumLongSide
    }
}
