/// Where an animated WebP's data is cut, as messages say it.
public enum WebPCut: Sendable, Equatable, CustomStringConvertible {
    /// Inside frame `n` (1-based), or before any chunk after the last complete frame.
    case inFrame(Int)
    /// Inside a chunk that is not a frame (metadata after the frames), after `afterFrames` frames.
    case inChunk(String, afterFrames: Int)

    public var description: String {
        switch self {
        case .inFrame(let n): "animation truncated in frame \(n)"
        case let .inChunk(fourCC, frames): "animation truncated in its '\(fourCC)' chunk after \(frames) frames"
        }
    }
}
