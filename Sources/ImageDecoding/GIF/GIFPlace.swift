/// Where in a GIF's records decoding stopped, as messages say it.
public enum GIFPlace: Sendable, Equatable, CustomStringConvertible {
    case beforeFirstFrame
    /// In the image data of frame `n` (1-based).
    case inFrame(Int)
    case afterFrame(Int)
    case inExtensionBeforeFirstFrame
    case inExtensionAfterFrame(Int)

    public var description: String {
        switch self {
        case .beforeFirstFrame: "before the first frame"
        case .inFrame(let n): "in frame \(n)"
        case .afterFrame(let n): "after frame \(n)"
        case .inExtensionBeforeFirstFrame: "in an extension before the first frame"
        case .inExtensionAfterFrame(let n): "in an extension after frame \(n)"
        }
    }
}
