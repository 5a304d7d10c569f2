import ImageCore

/// Why the seam refused a request before any encoder ran: a quality the codec does not have
/// (`ImageError.Kind.parameter`), with the values. Encoders' own errors pass through unchanged.
public enum StickerEncodingError: ImageErrorReason {
    /// The codec writing `container` has no lossless form (VP9 here).
    case noLossless(container: StickerContainer)
    /// The codec writing `container` takes no quality level (PNG: quantize the frames instead).
    case noLevels(container: StickerContainer)
    /// `level` is outside the codec's `qualityLevels`.
    case levelOutOfRange(level: Int, range: ClosedRange<Int>, container: StickerContainer)

    public var kind: ImageError.Kind { .parameter }

    public var message: String {
        switch self {
        case .noLossless(let c): "\(c.rawValue): this codec has no lossless form"
        case .noLevels(let c): "\(c.rawValue): this codec takes no quality level (quantize the frames instead)"
        case let .levelOutOfRange(level, range, c):
            "\(c.rawValue): quality level \(level) is outside \(range.lowerBound)…\(range.upperBound)"
        }
    }
}
