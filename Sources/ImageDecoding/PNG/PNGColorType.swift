/// IHDR's colour type: how a PNG stores its samples.
public enum PNGColorType: UInt8, Sendable, CaseIterable {
    case grayscale = 0
    case truecolor = 2
    case indexed = 3
    case grayscaleAlpha = 4
    case truecolorAlpha = 6

    /// The bit depths the PNG specification allows for this colour type.
    public var allowedBitDepths: [Int] {
        switch self {
        case .grayscale: [1, 2, 4, 8, 16]
        case .indexed: [1, 2, 4, 8]
        case .truecolor, .grayscaleAlpha, .truecolorAlpha: [8, 16]
        }
    }

    /// Samples per pixel.
    var channels: Int {
        switch self {
        case .grayscale, .indexed: 1
        case .grayscaleAlpha: 2
        case .truecolor: 3
        case .truecolorAlpha: 4
        }
    }

    /// True for the types that store an alpha sample with every pixel.
    public var hasAlphaChannel: Bool { self == .grayscaleAlpha || self == .truecolorAlpha }

    /// True for the grey types, which may not carry a PLTE chunk.
    var isGrayscale: Bool { self == .grayscale || self == .grayscaleAlpha }
}
