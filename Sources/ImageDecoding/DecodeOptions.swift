import ImageCore

/// How strict and how large decoding may be.
public struct DecodeOptions: Sendable {
    public var limits: Limits
    /// Salvage what decodes from damaged files (bad CRCs, truncated data) instead of failing.
    public var lenient: Bool
    /// Decode only the first frame of an animation (cheaper; used by `check` and previews).
    public var firstFrameOnly: Bool

    public init(limits: Limits = .default, lenient: Bool = false, firstFrameOnly: Bool = false) {
        self.limits = limits
        self.lenient = lenient
        self.firstFrameOnly = firstFrameOnly
    }
}
