/// A canvas that follows the artwork's shape instead of a fixed square (LINE): at most
/// `width × height`, the artwork fitted with its aspect kept and `margin` transparent pixels
/// around it, both sides even.
public struct CanvasBox: Sendable, Hashable {
    /// Largest width and height, in pixels.
    public var width: Int
    public var height: Int
    /// Transparent margin kept between the artwork and every edge, in pixels.
    public var margin: Int
    /// The longer side must be at least this long (LINE animations: 270), when set.
    public var minLongSide: Int?

    public init(width: Int, height: Int, margin: Int, minLongSide: Int? = nil) {
        self.width = width
        self.height = height
        self.margin = margin
        self.minLongSide = minLongSide
    }

    /// Whether a `w × h` file obeys the box: within it, both sides even, the longer side long
    /// enough.
    public func allows(width w: Int, height h: Int) -> Bool {
        w > 0 && h > 0 && w <= width && h <= height && w % 2 == 0 && h % 2 == 0 && max(w, h) >= (minLongSide ?? 0)
    }

    /// The rule for people: "≤ 320×270, even sides, long side ≥ 270".
    public var description: String {
        "≤ \(width)×\(height), even sides" + (minLongSide.map { ", long side ≥ \($0)" } ?? "")
    }

    /// The canvas for artwork of `w × h` (aspect kept) with `margin` pixels around it: the side
    /// `square` of the square it is fitted into (`margin` as inset: the artwork's long side spans
    /// `square - 2·margin`), and the `width × height` cut from that square's centre. Every figure
    /// is even, so the cut starts on a whole pixel.
    func canvas(forArtwork w: Int, _ h: Int, margin: Int) -> (square: Int, width: Int, height: Int) {
        let w = max(w, 1), h = max(h, 1), margin = min(max(margin, 0), (min(width, height) - 2) / 2)
        let scale = min(Double(width - 2 * margin) / Double(w), Double(height - 2 * margin) / Double(h))
        var long = max(1, Int((Double(max(w, h)) * scale + 1e-9).rounded(.down)))
        if long % 2 == 1 { long -= 1 }
        let square = max(2, long + 2 * margin)
        let shortArt = Double(long) * Double(min(w, h)) / Double(max(w, h))
        var short = Int((shortArt - 1e-9).rounded(.up)) + 2 * margin
        short = min(square, short + short % 2)
        return w >= h ? (square, square, short) : (square, short, square)
    }
}
