import Dispatch

/// Accumulates stage times inside one conversion (one thread).
final class StageClock {
    var timings = StageTimings()

    @inline(__always) func measure<T>(_ stage: WritableKeyPath<StageTimings, Double>, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings[keyPath: stage] += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        return try body()
    }
}
