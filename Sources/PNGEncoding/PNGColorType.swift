/// The PNG colour types (IHDR byte 9) this encoder writes.
enum PNGColorType: UInt8, Sendable {
    /// One gray sample per pixel (1, 2, 4 or 8 bits).
    case gray = 0
    /// Red, green, blue.
    case rgb = 2
    /// One palette index per pixel (1, 2, 4 or 8 bits), with PLTE and optionally tRNS.
    case palette = 3
    /// Gray, alpha.
    case grayAlpha = 4
    /// Red, green, blue, alpha.
    case rgba = 6

    /// Samples per pixel.
    var channels: Int {
        switch self {
        case .gray, .palette: 1
        case .grayAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// Whether every pixel carries its own alpha sample.
    var hasAlpha: Bool { self == .grayAlpha || self == .rgba }
}
