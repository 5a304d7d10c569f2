/// How artwork is placed in the output square or rectangle.
public enum FitMode: String, Sendable, CaseIterable, Codable {
    /// Whole artwork inside, scaled to touch two opposite sides, centred, transparent padding
    /// (default for stickers).
    case contain
    /// Fill the output and crop the overflow evenly on both sides (the centre stays).
    case cover
}
