/// The fixed knobs of the WebP encoder, beside the compression (`WebPCompression`) that a search
/// varies. The defaults are libwebp's (cwebp's) except where noted. Every value is checked before
/// encoding; one outside its range throws `WebPEncodingError`.
///
/// Encoding is single-threaded (libwebp's `thread_level` 0), so the bytes depend on the input and
/// these options only.
public struct WebPOptions: Hashable, Sendable {
    /// Speed against size, 0 (fastest) … 6 (smallest), in both modes. Default 4.
    public var method: Int
    /// Lossless mode only: libwebp's `quality` there, 0 … 100, how hard the lossless coder
    /// searches (pixels are exact whatever it is). Default 75.
    public var losslessEffort: Int
    /// Lossy mode only: quality of the alpha plane, 0 … 100; 100 keeps alpha lossless (it is
    /// coded with VP8L beside the lossy colour). Default 100: sticker edges are alpha.
    public var alphaQuality: Int
    /// Keep the colour of fully transparent pixels as given. Off (the default), libwebp may
    /// change it to whatever compresses best, which no viewer can see.
    public var exact: Bool
    /// Lossy mode only: libwebp's iterative RGB→YUV conversion, sharper on colour edges, slower.
    /// Default off.
    public var sharpYUV: Bool

    /// Animations only: let each frame be lossy or lossless, whichever is smaller (libwebpmux's
    /// `allow_mixed`); with `WebPCompression.lossy` only. Default off.
    public var allowMixed: Bool
    /// Animations only: try every way of coding each frame against the previous ones and keep
    /// the smallest (libwebpmux's `minimize_size`); slow, and it turns off keyframe insertion.
    /// Default off.
    public var minimizeSize: Bool
    /// Animations only: how far apart keyframes (frames that need no earlier frame) may be,
    /// `minimum ... maximum` frames (libwebpmux's `kmin`, `kmax`), or nil for libwebp's default.
    /// `maximum` 1 makes every frame a keyframe; otherwise `minimum` must be at least
    /// `maximum / 2 + 1` and below `maximum`. Keyframes cost bytes and make seeking cheap; a
    /// sticker is played from the start, so the default (nil) leaves them to libwebp.
    public var keyframeSpacing: ClosedRange<Int>?

    public init(method: Int = 4, losslessEffort: Int = 75, alphaQuality: Int = 100, exact: Bool = false,
                sharpYUV: Bool = false, allowMixed: Bool = false, minimizeSize: Bool = false,
                keyframeSpacing: ClosedRange<Int>? = nil) {
        self.method = method
        self.losslessEffort = losslessEffort
        self.alphaQuality = alphaQuality
        self.exact = exact
        self.sharpYUV = sharpYUV
        self.allowMixed = allowMixed
        self.minimizeSize = minimizeSize
        self.keyframeSpacing = keyframeSpacing
    }
}
