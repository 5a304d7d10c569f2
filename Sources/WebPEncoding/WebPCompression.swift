/// How a WebP frame is compressed: the knob the budget search turns.
public enum WebPCompression: Hashable, Sendable {
    /// VP8L: every pixel exact (the colour of fully transparent pixels too, when
    /// `WebPOptions.exact` is set). Effort is `WebPOptions.method` and `losslessEffort`.
    case lossless
    /// VP8 with an alpha plane: libwebp's `quality`, 0 (smallest) … 100 (best). Size grows with
    /// quality on nearly every image, which is what lets a search bisect it. The alpha plane is
    /// compressed as `WebPOptions.alphaQuality` says.
    case lossy(quality: Int)
}
