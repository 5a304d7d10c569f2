/// How a sticker's pixels are stored: what the budget search chose. The raw values are the
/// report's strings.
public enum OutputMode: String, Sendable, Codable, CaseIterable {
    /// Lossless truecolour (RGBA).
    case truecolor
    /// Truecolour with every channel rounded to a step (`OutputReport.posterizeStep`): lossy, but
    /// millions of colours kept.
    case truecolorLossy = "truecolor-lossy"
    /// A palette of at most 256 colours with 8-bit alpha.
    case palette
    /// A palette holding every colour of the image: lossless.
    case paletteExact = "palette-exact"
    /// A lossy codec's own compression (WebP lossy, VP9 in WebM) at `OutputReport.level`.
    case lossy
}
