/// Which image's compressed data a PNG error is about.
public enum PNGImageData: Sendable, Equatable, CustomStringConvertible {
    /// The IDAT chunks of a still PNG.
    case idat
    /// The IDAT chunks of an APNG whose first frame is the default image.
    case firstFrameIDAT
    /// The fdAT chunks of APNG frame `n` (0-based).
    case frame(Int)

    /// As messages name it: "IDAT", "frame 0 (IDAT)", "frame 3".
    public var description: String {
        switch self {
        case .idat: "IDAT"
        case .firstFrameIDAT: "frame 0 (IDAT)"
        case .frame(let n): "frame \(n)"
        }
    }
}
