/// Wall time spent in each stage of one conversion, for `stickerkit bench` and the report.
public struct StageTimings: Sendable, Codable, Equatable {
    /// Seconds decoding the input.
    public var decode: Double = 0
    /// Seconds fitting and resizing frames.
    public var resize: Double = 0
    /// Seconds building palettes and remapping.
    public var quantize: Double = 0
    /// Seconds encoding PNG/APNG, probes included.
    public var encode: Double = 0
    /// Everything else in the budget search (metrics, bookkeeping).
    public var other: Double = 0
    /// The animation searches' encodes and predictions (their time is inside the stages above).
    public var search = SearchWork()

    /// All stages at zero.
    public init() {}

    /// Seconds in all stages.
    public var total: Double { decode + resize + quantize + encode + other }

    /// Stage by stage sums, for totals over many conversions.
    public static func + (a: StageTimings, b: StageTimings) -> StageTimings {
        var r = a
        r.decode += b.decode; r.resize += b.resize; r.quantize += b.quantize
        r.encode += b.encode; r.other += b.other
        r.search = r.search + b.search
        return r
    }
}
