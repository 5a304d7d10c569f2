import Dispatch

/// Wall time spent in each stage of one conversion, for `stickerkit bench` and the report.
public struct StageTimings: Sendable, Codable, Equatable {
    public var decode: Double = 0
    public var resize: Double = 0
    public var quantize: Double = 0
    public var encode: Double = 0
    /// Everything else in the budget search (metrics, bookkeeping).
    public var other: Double = 0

    public init() {}

    public var total: Double { decode + resize + quantize + encode + other }

    public static func + (a: StageTimings, b: StageTimings) -> StageTimings {
        var r = a
        r.decode += b.decode; r.resize += b.resize; r.quantize += b.quantize
        r.encode += b.encode; r.other += b.other
        return r
    }
}

/// Accumulates stage times inside one conversion (one thread).
final class StageClock {
    var timings = StageTimings()

    @inline(__always) func measure<T>(_ stage: WritableKeyPath<StageTimings, Double>, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings[keyPath: stage] += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        return try body()
    }
}
