import ImageCore

/// The frames an animation keeps at each decimation step and how long each is shown: every
/// `step`-th frame is kept, and shown for its own time plus that of the frames dropped after
/// it, so the total duration and the timeline stay as they were.
struct AnimationTimeline {
    /// Each input frame's delay.
    let delays: [Delay]
    /// One loop as shown (`Delay.displayed` of every delay).
    let duration: Delay

    init(delays: [Delay]) {
        self.delays = delays
        duration = delays.reduce(Delay.zero) { $0 + $1.displayed }
    }

    var frameCount: Int { delays.count }

    /// The frames kept at decimation `step` (every step-th) and their delays.
    func kept(_ step: Int) -> (indices: [Int], delays: [Delay]) {
        var idx: [Int] = [], d: [Delay] = []
        var i = 0
        while i < delays.count {
            let end = min(i + step, delays.count)
            idx.append(i)
            d.append(delays[i..<end].reduce(Delay.zero, +))
            i = end
        }
        return (idx, d)
    }

    /// Frames kept at decimation `step`.
    func keptCount(_ step: Int) -> Int { (delays.count + step - 1) / step }

    /// Frames per second at decimation `step`.
    func fps(_ step: Int) -> Double {
        Double(keptCount(step)) / max(duration.seconds, 1e-9)
    }

    /// The decimation steps the search may use, fewest frames dropped first: each keeps fewer
    /// frames than the one before, and none goes under `minFPS` or one frame.
    func steps(minFPS: Double) -> [Int] {
        var steps = [1]
        var k = 2
        while k <= delays.count, fps(k) >= minFPS, keptCount(k) > 1 {
            if keptCount(k) < keptCount(steps.last!) { steps.append(k) }
            k += 1
        }
        return steps
    }

    /// Runs of consecutive kept frames a sample takes (`sample`).
    static let sampleWindows = 3
    /// The most frames a sample holds: a timeline this short is sampled whole.
    static let maxSampleFrames = sampleWindows * AnimationBudget.windowLength + 4

    /// A few short runs of consecutive kept frames spread over the timeline (all of them for
    /// short animations): what size predictions are made from.
    func sample(_ step: Int) -> (indices: [Int], delays: [Delay]) {
        let t = kept(step)
        let windows = Self.sampleWindows, length = AnimationBudget.windowLength
        if t.indices.count <= Self.maxSampleFrames { return t }
        var idx: [Int] = [], d: [Delay] = []
        for w in 0..<windows {
            let start = (t.indices.count - length) * w / (windows - 1)
            for j in start..<(start + length) { idx.append(t.indices[j]); d.append(t.delays[j]) }
        }
        return (idx, d)
    }
}
