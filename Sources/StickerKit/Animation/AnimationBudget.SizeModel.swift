import Foundation
import ImageCore
import PNGEncoding

extension AnimationBudget {
    /// Sizes of settings before they are encoded: long timelines (more than `realProbeFrames`
    /// kept frames) are *predicted* from the sampled windows with the encoder's estimator, scaled
    /// to the whole timeline, anchored on the real encodes made so far; short ones are simply
    /// encoded (`Probes`).
    final class SizeModel {
        private let timeline: AnimationTimeline
        private let samples: Samples
        private let probes: Probes
        private let loops: Int
        private let clock: StageClock
        /// Raw predictions (the estimator's scale) by setting.
        private(set) var predictions: [Setting: Double] = [:]
        /// Real bytes per predicted byte by frame rate (step), learned from every real encode
        /// (the estimator alone runs 0–8 % above the real size; samples miss some of the
        /// animation, and miss more at some frame rates than at others).
        private var calibrations: [Int: Double] = [:]
        /// The ratio before any real encode.
        static let initialCalibration = 0.96

        /// The frame rates the search may try (`AnimationTimeline.steps`).
        private let steps: [Int]

        init(timeline: AnimationTimeline, steps: [Int], samples: Samples, probes: Probes, loops: Int, clock: StageClock) {
            self.timeline = timeline
            self.steps = steps
            self.samples = samples
            self.probes = probes
            self.loops = loops
            self.clock = clock
        }

        /// Whether sizes at decimation `step` come from real encodes (see `realProbeFrames`).
        func isExact(_ step: Int) -> Bool { timeline.keptCount(step) <= AnimationBudget.realProbeFrames }

        /// The steps predictions have been made for (their samples are worth keeping).
        var predictedSteps: Set<Int> { Set(predictions.keys.map(\.step)) }

        /// Learns how far the prediction of `e`'s setting was from its real size.
        func learn(from e: Encoded) {
            guard !isExact(e.step) else { return }
            let predicted = rawPrediction(e.colors, e.step)
            if e.size > 0, predicted > 0 { calibrations[e.step] = Double(e.size) / predicted }
        }

        /// Real bytes per predicted byte at `step`: learned there, else at the frame rate with
        /// real encodes nearest in kept frames (the larger ratio of two as near). The miss
        /// depends on the frame rate: the rlottie watchface at 408 px was 2.4 times its
        /// prediction at 271 frames and 1.6 times at 68; one ratio for all sent a 136-frame
        /// probe to 695 KB against a 500 KB budget.
        func calibration(_ step: Int) -> Double {
            if let c = calibrations[step] { return c }
            let kept = Double(timeline.keptCount(step))
            var best: (distance: Double, ratio: Double)? = nil
            for (s, c) in calibrations {
                let d = abs(log(Double(timeline.keptCount(s)) / kept))
                if best == nil || d < best!.distance - 1e-9 || (abs(d - best!.distance) <= 1e-9 && c > best!.ratio) { best = (d, c) }
            }
            return best?.ratio ?? SizeModel.initialCalibration
        }

        /// Predicted size of the whole file at `n` colours and decimation `step`, in real bytes.
        func predict(_ n: Int, _ step: Int) -> Double {
            if isExact(step) { return Double(probes.probe(n, step).size) }
            // Real sizes at this frame rate beat the sample: between two, interpolate (log size
            // is close to linear in log colours); beside one, scale the sample's prediction by
            // how far it missed there (the miss varies with the colour count, so the nearest
            // real size is the best anchor); else the last miss anywhere.
            let known = probes.realSizes(step)
            if let size = known[n] { return Double(size) }
            let below = known.keys.filter { $0 < n }.max(), above = known.keys.filter { $0 > n }.min()
            if let b = below, let a = above {
                let sb = log(Double(max(1, known[b]!))), sa = log(Double(max(1, known[a]!)))
                let t = (log(Double(n)) - log(Double(b))) / (log(Double(a)) - log(Double(b)))
                return exp(sb + t * (sa - sb))
            }
            // Two or more real sizes on one side: extrapolate along their own slope (the
            // sample's shape can be far off for animations unlike their sampled windows).
            let side = below != nil ? known.keys.filter { $0 < n }.sorted().suffix(2).map { $0 }
                                    : known.keys.filter { $0 > n }.sorted().prefix(2).map { $0 }
            // Two counts that made the same file say nothing of the slope (their palettes differ
            // only by colours no pixel takes): the sample's shape goes on from the nearer.
            if side.count == 2, known[side[0]] != known[side[1]] {
                let (k0, k1) = (side[0], side[1])
                let s0 = log(Double(max(1, known[k0]!))), s1 = log(Double(max(1, known[k1]!)))
                let slope = min(1.5, max(0.1, (s1 - s0) / (log(Double(k1)) - log(Double(k0)))))
                let anchor = below ?? above!
                return exp(log(Double(max(1, known[anchor]!))) + slope * (log(Double(n)) - log(Double(anchor))))
            }
            if let anchor = below ?? above {
                let raw = rawPrediction(anchor, step)
                if raw > 0 { return rawPrediction(n, step) * Double(known[anchor]!) / raw }
            }
            return rawPrediction(n, step) * calibration(step)
        }

        /// The frames a prediction at `step` copies out: its sample, or, when every walk decodes
        /// and fits the frames again and the store's share has room, every frame rate's samples
        /// at once (one walk instead of one per frame rate: a 1,000-frame GIF that changes
        /// everywhere spent 4 s on each). The frames and so the predictions are the same.
        private func framesToCopy(_ step: Int) -> [Int] {
            let own = timeline.sample(step).indices
            guard samples.replays else { return own }
            let all = Set(steps.filter { !isExact($0) }.flatMap { timeline.sample($0).indices })
            guard all.count > own.count, samples.hasRoomWhenReplayed(for: all.count) else { return own }
            return all.sorted()
        }

        /// The estimator's size of the sampled frames, scaled to the whole timeline.
        func rawPrediction(_ n: Int, _ step: Int) -> Double {
            let key = Setting(colors: n, step: step)
            if let p = predictions[key] { return p }
            var seconds = 0.0
            let p = clock.time(&seconds) { predicted(n, step) }
            clock.timings.search.predictions += 1
            clock.timings.search.predictionSeconds += seconds
            predictions[key] = p
            return p
        }

        /// `rawPrediction` made anew.
        private func predicted(_ n: Int, _ step: Int) -> Double {
            let s = timeline.sample(step)
            let kept = timeline.keptCount(step)
            // The whole sample at once: one walk over the frames.
            _ = samples.images(framesToCopy(step))
            /// The estimate of the frames at `idx`, and of the first of them alone (from the same
            /// encode: no second compression of a window's first frame).
            func estimate(_ idx: ArraySlice<Int>, _ d: ArraySlice<Delay>) -> (all: Double, first: Double) {
                let frames = idx.map { samples.indexed(n, $0).image }
                return clock.measure(\.encode) {
                    guard let r = try? PNGEncoder.estimatedAnimationSizes(frames: frames, delays: Array(d), loopCount: loops)
                    else { return (Double(Int.max), Double(Int.max)) }
                    return (Double(r.all), Double(r.first))
                }
            }
            /// What the frames at `idx` after the first add to it (the first is laid out, not
            /// compressed: only the first window's head is used).
            func later(_ idx: ArraySlice<Int>, _ d: ArraySlice<Delay>) -> Double {
                let frames = idx.map { samples.indexed(n, $0).image }
                return clock.measure(\.encode) {
                    (try? PNGEncoder.estimatedLaterFramesSize(frames: frames, delays: Array(d), loopCount: loops)).map(Double.init) ?? 0
                }
            }
            let p: Double
            if s.indices.count >= kept {
                p = estimate(s.indices[...], s.delays[...]).all
            } else {
                // Each window starts with a whole frame, which an animation pays for once: the
                // file is its first frame plus the windows' per-frame *differences* times the
                // rest. (Averaging whole windows over-predicted long, mostly still animations —
                // a terminal recording — several times over.) The file's head is the first
                // window's first frame alone, estimated from that window's own encode; the
                // other windows' heads are laid out but never compressed.
                var first = 0.0
                var diffs = 0.0, count = 0
                var w = 0
                while w < s.indices.count {
                    let end = min(w + AnimationBudget.windowLength, s.indices.count)
                    let head = w == 0 ? estimate(s.indices[w..<end], s.delays[w..<end]) : nil
                    if let head { first = head.first }
                    if end - w > 1 {
                        diffs += max(0, head.map { $0.all - $0.first } ?? later(s.indices[w..<end], s.delays[w..<end]))
                        count += end - w - 1
                    }
                    w = end
                }
                p = first + diffs / Double(max(1, count)) * Double(kept - 1)
            }
            return p
        }
    }
}
