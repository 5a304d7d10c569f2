import ImageCore
import ImageQuantize

extension AnimationBudget {
    /// The frames size predictions are made from (a few short windows per frame rate, see
    /// `AnimationTimeline.sample`) and their remaps by colour count. Frames are copied out of
    /// the fitted frames when first asked for, a frame rate at a time; copies and remaps of
    /// frame rates and colour counts no longer in play are dropped (`release`).
    final class Samples {
        private let frames: FittedFrames
        private let timeline: AnimationTimeline
        private let palettes: Palettes
        private let clock: StageClock
        private var images: [Int: Image] = [:]
        /// Bytes of frame copies and remaps kept between requests; past it, frames not asked
        /// for last go, and the remaps of colour counts not in use.
        private let imageBudget: Int
        /// Remaps by colour count, then frame index, with their row errors so that the next
        /// frame of a window copies the rows it shares.
        private var remaps: [Int: [Int: RowRemap]] = [:]
        /// The colour counts of `remaps`, least recently used first: past `imageBudget`, theirs
        /// are dropped first (a remap made again is the same bytes).
        private var remapOrder: [Int] = []

        init(_ frames: FittedFrames, timeline: AnimationTimeline, palettes: Palettes, imageBudget: Int, clock: StageClock) {
            self.frames = frames
            self.imageBudget = imageBudget
            self.timeline = timeline
            self.palettes = palettes
            self.clock = clock
        }

        /// Bytes held.
        var bytes: Int {
            images.values.reduce(0) { $0 + $1.pixels.count }
                + remaps.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.image.indices.count } }
        }

        /// The RGBA frames at `indices`, copied out of the fitted frames in one walk if needed.
        /// When the copies held and those to make would pass `imageBudget`, the frames not asked
        /// for (and their remaps) go first, before the walk makes the new ones beside them.
        func images(_ indices: [Int]) -> [Image] {
            let missing = Set(indices).subtracting(images.keys)
            if !missing.isEmpty {
                if (images.count + missing.count) * frames.width * frames.height * 4 > imageBudget {
                    let wanted = Set(indices)
                    for i in Array(images.keys) where !wanted.contains(i) { forget(i) }
                }
                if let got = try? frames.images(missing) { images.merge(got) { a, _ in a } }
            }
            return indices.map { images[$0] ?? Image(width: frames.width, height: frames.height) }
        }

        /// Whether every walk makes the frames again (decodes and fits them) and what the fitted
        /// frames' budget has left, with the other sizes' stores counted (`FittedFrames.room`),
        /// has room for copies of `count` frames: a walk then costs a decode and fit of the
        /// whole animation, so copying more frames in one walk beats walking again.
        func hasRoomWhenReplayed(for count: Int) -> Bool {
            frames.replays && count * frames.width * frames.height * 4 <= frames.room
        }

        /// Bytes of copies and remaps held past `imageBudget` (the copies `hasRoomWhenReplayed`
        /// let in, out of the fitted frames' room).
        var bytesPastBudget: Int { max(0, bytes - imageBudget) }

        /// Whether every walk makes the frames again.
        var replays: Bool { frames.replays }

        /// Drops frame `i` and its remaps.
        private func forget(_ i: Int) {
            images[i] = nil
            for n in Array(remaps.keys) { remaps[n]![i] = nil }
        }

        /// Frame `i` remapped to `n` colours: rows equal to those of the nearest earlier frame
        /// remapped at `n` are copied from it (same bytes, same error, no searches).
        func indexed(_ n: Int, _ i: Int) -> (image: IndexedImage, mse: Double) {
            if remapOrder.last != n {
                remapOrder.removeAll { $0 == n }
                remapOrder.append(n)
            }
            if let r = remaps[n]?[i] { return (r.image, r.meanSquaredError) }
            let m = palettes.mapper(n)
            let frame = images([i])[0]
            let earlier = remaps[n].flatMap { done in done.keys.filter { $0 < i && images[$0] != nil }.max() }
            let previous = earlier.map { (frame: images[$0]!, remap: remaps[n]![$0]!) }
            let r = clock.measure(\.quantize) { m.remapUndithered(frame, after: previous) }
            remaps[n, default: [:]][i] = r
            trimRemaps(keeping: n)
            return (r.image, r.meanSquaredError)
        }

        /// Drops the remaps of the least recently used colour counts other than `n` while the
        /// copies and remaps held pass `imageBudget`.
        private func trimRemaps(keeping n: Int) {
            var over = bytes - imageBudget
            while over > 0, let m = remapOrder.first(where: { $0 != n }) {
                over -= remaps[m]?.values.reduce(0) { $0 + $1.image.indices.count } ?? 0
                remaps[m] = nil
                remapOrder.removeAll { $0 == m }
            }
        }

        /// Drops remaps of colour counts other than `colours`, and frames no sample of `steps`
        /// uses (with their remaps).
        func release(keeping colours: [Int], steps: Set<Int>) {
            var wanted = Set<Int>()
            for step in steps { wanted.formUnion(timeline.sample(step).indices) }
            for i in Array(images.keys) where !wanted.contains(i) { images[i] = nil }
            for n in Array(remaps.keys) {
                if !colours.contains(n) {
                    remaps[n] = nil
                } else {
                    remaps[n] = remaps[n]!.filter { wanted.contains($0.key) }
                }
            }
            remapOrder.removeAll { remaps[$0] == nil }
        }
    }
}
