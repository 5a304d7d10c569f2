extension Delay {
    /// When each frame starts, in whole milliseconds, for frames shown for `delays` in turn: the
    /// first starts at 0 and the last value is when the last frame ends (`delays.count + 1`
    /// values). Each is the exact running sum of the delays rounded to the nearest millisecond
    /// (halves up), so rounding never accumulates: every frame starts within half a millisecond of
    /// its exact time and the total is the exact duration rounded. A frame that would get no time
    /// at all (a delay under half a millisecond) is given 1 ms; later frames go back to their
    /// rounded exact times as soon as those are later.
    ///
    /// The one home of the rule by which exact delays become millisecond timestamps: what WebP's
    /// frame durations and WebM's block timestamps are written from.
    public static func millisecondTimeline(_ delays: [Delay]) -> [Int] {
        var times = [0]
        times.reserveCapacity(delays.count + 1)
        var sum = Delay.zero
        for delay in delays {
            sum = sum + delay
            times.append(max(times[times.count - 1] + 1, sum.roundedMilliseconds))
        }
        return times
    }

    /// The delay in whole milliseconds, rounded to the nearest (halves up). A delay beyond
    /// `Int.max / 2` milliseconds (no real file has one) answers `Int.max / 2`, so that sums and
    /// the checks encoders make on them cannot overflow.
    public var roundedMilliseconds: Int {
        let (scaled, overflow) = numerator.multipliedReportingOverflow(by: 1000)
        if !overflow { return (scaled + denominator / 2) / denominator }
        let ms = (seconds * 1000).rounded()
        return ms < Double(Int.max / 2) ? Int(ms) : Int.max / 2
    }
}
