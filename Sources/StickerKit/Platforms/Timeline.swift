import ImageCore

/// Retiming an animation's frames to a platform's limits, on a millisecond grid (the precision
/// of WebP and WebM; APNG keeps it exactly). Pure functions over frames or picks of frames
/// (`TimedFrame`: `Frame`, `PickedFrame`): they only choose frames and change delays.
enum Timeline {
    /// The start of each frame and the end of the last, in whole milliseconds, from the delays as
    /// they are (take `displayed` first: retimed frames may be shorter than 10 ms on their way).
    static func times<F: TimedFrame>(_ frames: [F]) -> [Int] {
        Delay.millisecondTimeline(frames.map(\.delay))
    }

    /// `frames` with the delays players show (`Delay.displayed`: 10 ms or less is 100 ms), so
    /// that retiming starts from what is seen.
    static func displayed<F: TimedFrame>(_ frames: [F]) -> [F] {
        frames.map { $0.shown(for: $0.delay.displayed) }
    }

    /// `frames` played `durationMs / total` times as fast, so one loop lasts `durationMs` (frame
    /// starts scaled and rounded down, so the total is exact and no frame moves later).
    static func speedUp<F: TimedFrame>(_ frames: [F], toMilliseconds durationMs: Int) -> [F] {
        let t = times(frames)
        guard let total = t.last, total > durationMs else { return frames }
        let scaled = t.map { $0 * durationMs / total }
        return retimed(frames, starts: scaled)
    }

    /// `speedUp`, with no frame shown for less than `shortestMs`: frames that would be shorter
    /// are given `shortestMs`, and the others share what is left in proportion to their time, so
    /// one loop still lasts `durationMs` exactly. A loop played several times in a row to reach a
    /// platform's fewest frames keeps every frame this way, where thinning afterwards would drop
    /// the short ones again (a 100 ms frame beside a 12.8 s one, played three times and sped up
    /// to 4 s, came to 10 ms, which players show for 100 ms: 4.18 s). Nil when `durationMs`
    /// cannot give every frame `shortestMs`.
    static func speedUp<F: TimedFrame>(_ frames: [F], toMilliseconds durationMs: Int, shortestMs: Int) -> [F]? {
        let t = times(frames)
        guard let total = t.last, total > durationMs else { return frames }
        guard frames.count * shortestMs <= durationMs else { return nil }
        let lengths = zip(t.dropFirst(), t).map { $0 - $1 }
        // Frames at the floor, found until the rest, scaled into what is left (`left` ms for
        // `rest` ms of frames), all stay over it (with a millisecond to spare for the rounding
        // below).
        var floored = [Bool](repeating: false, count: frames.count)
        var left = durationMs, rest = lengths.reduce(0, +)
        while true {
            let under = lengths.indices.filter { !floored[$0] && (rest == 0 || lengths[$0] * left < (shortestMs + 1) * rest) }
            if under.isEmpty { break }
            for i in under {
                floored[i] = true
                left -= shortestMs
                rest -= lengths[i]
            }
        }
        // Starts rounded down along the scaled frames, so their total is exact.
        var starts = [0], scaled = 0, atFloor = 0
        for i in lengths.indices {
            if floored[i] { atFloor += 1 } else { scaled += lengths[i] }
            starts.append(atFloor * shortestMs + scaled * left / max(1, rest))
        }
        starts[starts.count - 1] = durationMs
        return retimed(frames, starts: starts)
    }

    /// The frames that start before `durationMs`, the last cut to end there.
    static func trim<F: TimedFrame>(_ frames: [F], toMilliseconds durationMs: Int) -> [F] {
        let t = times(frames)
        guard let total = t.last, total > durationMs else { return frames }
        let kept = max(1, t.dropLast().filter { $0 < durationMs }.count)
        var starts = Array(t.prefix(kept))
        starts.append(durationMs)
        return retimed(Array(frames.prefix(kept)), starts: starts)
    }

    /// Frames dropped so that no kept frame is shown for less than `1 / maxFPS` s. The timeline
    /// is cut into runs: a run starts at the first frame, and at each frame that starts at least
    /// a gap after the run before it began; a last run shorter than the gap joins the one before.
    /// Each run shows, from where it starts to where the next begins, its frame that was shown
    /// longest (the earliest of equals: with even delays, the run's first frame), so the total is
    /// unchanged and no frame is kept more than a gap away from where it started. Only when one
    /// run is left can it be shorter than the gap. (Keeping each run's first frame instead lost
    /// what the animation mostly shows when a short frame came before a long one: a 20 ms first
    /// frame ahead of a 1 s one was shown for 1.02 s at 30 fps.)
    static func thin<F: TimedFrame>(_ frames: [F], maxFPS: Double) -> [F] {
        guard frames.count > 1, maxFPS > 0 else { return frames }
        let t = times(frames)
        let gap = 1000 / maxFPS
        var runs = [0]
        for i in 1..<frames.count where Double(t[i] - t[runs.last!]) >= gap - 0.5 {
            runs.append(i)
        }
        // The last run lasts until the loop ends: when that is shorter than the gap, it joins the
        // run before it.
        while runs.count > 1, Double(t[frames.count] - t[runs.last!]) < gap - 0.5 { runs.removeLast() }
        if runs.count == frames.count { return frames }
        var shown: [F] = []
        for (r, first) in runs.enumerated() {
            let end = r + 1 < runs.count ? runs[r + 1] : frames.count
            var longest = first
            for i in first..<end where t[i + 1] - t[i] > t[longest + 1] - t[longest] { longest = i }
            shown.append(frames[longest])
        }
        var starts = runs.map { t[$0] }
        starts.append(t.last!)
        return retimed(shown, starts: starts)
    }

    /// At most `maxFrames` frames, resampled on the time grid: the frame on screen at each of
    /// `maxFrames` evenly spaced instants is kept, from its own start until the next kept frame
    /// starts (the total is unchanged; a frame spanning several instants is kept once).
    static func atMost<F: TimedFrame>(_ frames: [F], _ maxFrames: Int) -> [F] {
        let t = times(frames)
        guard frames.count > maxFrames, maxFrames > 0, let total = t.last, total > 0 else { return frames }
        var keep: [Int] = []
        var i = 0
        for k in 0..<maxFrames {
            let instant = k * total / maxFrames
            while i + 1 < frames.count, t[i + 1] <= instant { i += 1 }
            if keep.last != i { keep.append(i) }
        }
        var starts = keep.map { t[$0] }
        starts.append(total)
        return retimed(keep.map { frames[$0] }, starts: starts)
    }

    /// `frames` with each run of identical neighbours made one frame shown for the whole run (what
    /// an APNG writer merges anyway), so that frame counts are counts of distinct frames.
    /// `sameAsBefore[i]` says whether frame `i` shows what frame `i - 1` shows (picks' pixels are
    /// in a store: `PlatformFrames.sameAsBefore`).
    static func mergingRepeats<F: TimedFrame>(_ frames: [F], sameAsBefore: [Bool]) -> [F] {
        guard frames.count > 1 else { return frames }
        let t = times(frames)
        var keep = [0]
        for i in 1..<frames.count where !sameAsBefore[i] { keep.append(i) }
        if keep.count == frames.count { return frames }
        var starts = keep.map { t[$0] }
        starts.append(t.last!)
        return retimed(keep.map { frames[$0] }, starts: starts)
    }

    /// A one-frame loop as two showings of its frame, for a container in which one frame is a
    /// still (`StickerContainer.holdsAnimation`): its time split in two halves, or, when a half
    /// would be shorter than `shortestMs`, `shortestMs` each (a loop of one picture looks the
    /// same at any length). Any other loop is returned as it is.
    static func shownTwice<F: TimedFrame>(_ frames: [F], shortestMs: Int) -> [F] {
        guard frames.count == 1, let total = times(frames).last else { return frames }
        let half = total / 2
        let (first, second) = half >= shortestMs ? (half, total - half) : (shortestMs, shortestMs)
        return [frames[0].shown(for: Delay(milliseconds: first)), frames[0].shown(for: Delay(milliseconds: second))]
    }

    /// The loop played `times` times in a row, as one loop.
    static func repeated<F: TimedFrame>(_ frames: [F], times: Int) -> [F] {
        Array(repeating: frames, count: max(1, times)).flatMap { $0 }
    }

    /// The frames with delays `starts[i+1] - starts[i]` ms; frames given no time merge into the
    /// one before them. A first frame given no time keeps 1 ms, taken from the frames after it,
    /// so the total stays `starts.last` (a 10.8-minute frame after eleven of 30 ms, sped up to
    /// Signal's 3 s, once came to 3.001 s).
    private static func retimed<F: TimedFrame>(_ frames: [F], starts: [Int]) -> [F] {
        var out: [F] = []
        var owed = 0   // milliseconds the first frame was given beyond its own
        for (i, f) in frames.enumerated() {
            var ms = starts[i + 1] - starts[i]
            if out.isEmpty {
                owed = max(0, 1 - ms)
                out.append(f.shown(for: Delay(milliseconds: max(ms, 1))))
                continue
            }
            let paid = min(owed, max(0, ms))
            owed -= paid
            ms -= paid
            if ms <= 0 { continue }
            out.append(f.shown(for: Delay(milliseconds: ms)))
        }
        return out
    }

    /// Frames per second of a loop of `frameCount` frames lasting `milliseconds`.
    static func fps(frames frameCount: Int, milliseconds: Int) -> Double {
        milliseconds > 0 ? Double(frameCount) * 1000 / Double(milliseconds) : 0
    }
}
