/// libjpeg-turbo's DCT scaling: a JPEG far larger than its use is decoded at 1/2, 1/4 or 1/8 of
/// its size (each 8×8 block through a reduced inverse DCT), which skips most of the IDCT, the
/// colour conversion and the rows a resampler would then average away.
enum JPEGScale {
    /// The denominators libjpeg-turbo scales by with scale_num 1, largest first.
    static let denominators = [8, 4, 2]

    /// The largest denominator d in {1, 2, 4, 8} whose reduced image keeps its long side at least
    /// `minimumLongSide` (exactly: long side ÷ d, before libjpeg rounds up), so the short side keeps
    /// its proportion of it too; 1 when nil.
    static func denominator(width: Int, height: Int, minimumLongSide: Int?) -> Int {
        guard let floor = minimumLongSide, floor > 0 else { return 1 }
        let long = max(width, height)
        return denominators.first { long >= $0 * floor } ?? 1
    }

    /// libjpeg's reduced size for `size` at denominator `d`: ceil(size / d).
    static func reduced(_ size: Int, by d: Int) -> Int { (size + d - 1) / d }
}
