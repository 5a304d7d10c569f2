import Foundation

/// The search for the highest quality level whose file fits, over levels whose size grows about
/// exponentially (WebP and VP9 quality levels), given a way to measure a level (`size`, a probe
/// encode: 0.05–0.3 s each, so the fewer the better).
///
/// Levels measured before bound the search first: the lowest of them in the range that does not
/// fit, and the highest below it that does (a search run again after a real encode changed the
/// calibration probes only between them). Otherwise the middle level is measured first, then the
/// top (when the middle fits) or the bottom (when it does not). Between a level that fits and one
/// that does not, the next level measured is where the logarithm of the size, interpolated
/// between the two, meets the budget; after a step that did not halve the interval, the middle,
/// so the search never takes more than about twice the steps of halving. On the WhatsApp corpus
/// it measures about five levels where halving measured eight (StickerKit NOTES.md).
enum LevelSearch {
    /// The highest level in `range` whose size is within `budget`, to `resolution` levels (a
    /// level that fits with none that does not at most `resolution` above it); nil when the lowest
    /// level does not fit or `size` returned nil (a failed measure). `known` lists levels whose
    /// size costs nothing (measured before); `size` may be called for any level in `range`.
    static func highestFitting(in range: ClosedRange<Int>, budget: Double, resolution: Int, known: [Int],
                               size: (Int) -> Double?) -> Int? {
        var failed = false
        func measure(_ level: Int) -> Double? {
            guard let s = size(level) else { failed = true; return nil }
            return s
        }
        func fits(_ level: Int) -> Bool { measure(level).map { $0 <= budget } ?? false }
        let known = known.filter { range.contains($0) }.sorted()
        var lo: Int, hi: Int   // lo fits, hi does not
        if let over = known.first(where: { !fits($0) }) {
            hi = over
            if let f = known.last(where: { $0 < over && fits($0) }) {
                lo = f
            } else {
                guard !failed, range.lowerBound < hi, fits(range.lowerBound) else { return nil }
                lo = range.lowerBound
            }
        } else {
            let first = known.last ?? (range.lowerBound + range.upperBound) / 2
            if fits(first) {
                guard !failed else { return nil }
                if first == range.upperBound || fits(range.upperBound) { return failed ? nil : range.upperBound }
                (lo, hi) = (first, range.upperBound)
            } else {
                guard !failed, range.lowerBound < first, fits(range.lowerBound) else { return nil }
                (lo, hi) = (range.lowerBound, first)
            }
        }
        var halveNext = false
        while hi - lo > resolution, !failed {
            var next = (lo + hi) / 2
            if !halveNext, let a = measure(lo), let b = measure(hi), a > 0, b > a {
                let t = (log(budget) - log(a)) / (log(b) - log(a))
                next = min(hi - 1, max(lo + 1, lo + Int((t * Double(hi - lo)).rounded())))
            }
            let width = hi - lo
            if fits(next) { lo = next } else { hi = next }
            halveNext = !halveNext && 2 * (hi - lo) > width
        }
        return failed ? nil : lo
    }
}
