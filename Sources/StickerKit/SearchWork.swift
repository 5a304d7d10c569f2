/// What the budget searches of animations did in one conversion: the real encodes of candidate
/// settings (APNG: `.fast` probes, every kept frame remapped and encoded; WebP and WebM: every
/// kept frame encoded at a level), and the size predictions made from sampled frames for long
/// timelines (WebP and WebM: every probe of a sample or at faster settings), with the wall time
/// each took (inside the stages of `StageTimings`). `stickerkit bench` prints it: an encode
/// that did not become the sticker and every prediction are what the search costs beyond the
/// sticker itself.
public struct SearchWork: Sendable, Codable, Equatable {
    /// Real encodes of candidate settings.
    public var encodes = 0
    /// Seconds in them.
    public var encodeSeconds = 0.0
    /// Of those, the encodes of the setting each search settled on (its sticker written as the
    /// encode was, shrunk, or encoded again at a higher effort; a search that ends in a lossless
    /// truecolour sticker or in an error settles on none).
    public var chosen = 0
    /// Seconds in them.
    public var chosenSeconds = 0.0
    /// Size predictions from sampled frames.
    public var predictions = 0
    /// Seconds in them.
    public var predictionSeconds = 0.0

    /// Nothing done yet.
    public init() {}

    /// Sums, for totals over many conversions.
    public static func + (a: SearchWork, b: SearchWork) -> SearchWork {
        var r = a
        r.encodes += b.encodes; r.encodeSeconds += b.encodeSeconds
        r.chosen += b.chosen; r.chosenSeconds += b.chosenSeconds
        r.predictions += b.predictions; r.predictionSeconds += b.predictionSeconds
        return r
    }
}
