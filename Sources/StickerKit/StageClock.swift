import Dispatch

/// Accumulates stage times inside one conversion (one thread).
final class StageClock {
    var timings = StageTimings()
    /// The real encodes of an animation's codec search (`CodecBudgetSearch`), in order, for its
    /// report (`OutputReport.searched`).
    var steps: [SearchStep] = []

    @inline(__always) func measure<T>(_ stage: WritableKeyPath<StageTimings, Double>, _ body: () throws -> T) rethrows -> T {
        var seconds = 0.0
        defer { timings[keyPath: stage] += seconds }
        return try time(&seconds, body)
    }

    /// Runs `body` and adds its wall time to `seconds` (which `body` must not touch: a local, then
    /// added to a counter of `timings` such as `SearchWork`'s).
    @inline(__always) func time<T>(_ seconds: inout Double, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { seconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        return try body()
    }
}
