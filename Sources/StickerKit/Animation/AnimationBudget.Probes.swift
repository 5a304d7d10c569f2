import Foundation
import ImageCore
import ImageQuantize
import PNGEncoding

extension AnimationBudget {
    /// Real encodes of settings: every kept frame remapped (`IndexedFrames`) and encoded as an
    /// APNG, once per setting at `.fast` (the search's probes), and again at a higher effort
    /// for the file written. Keeps the probes' results (bytes, layout, error) by setting, and
    /// the remapped frames of the last setting or two so that the written file does not remap
    /// again.
    final class Probes {
        private let frames: FittedFrames
        private let timeline: AnimationTimeline
        private let palettes: Palettes
        private let loops: Int
        private let clock: StageClock
        /// Bytes the remapped frames of one setting may keep (beyond that they are remapped on
        /// each walk).
        private let indexedBudget: Int
        private(set) var byKey: [Setting: Encoded] = [:]
        private var remapped: [(setting: Setting, frames: IndexedFrames)] = []

        init(_ frames: FittedFrames, timeline: AnimationTimeline, palettes: Palettes, loops: Int, indexedBudget: Int,
             clock: StageClock) {
            self.frames = frames
            self.timeline = timeline
            self.palettes = palettes
            self.loops = loops
            self.indexedBudget = indexedBudget
            self.clock = clock
        }

        /// The real `.fast` encode of `n` colours at decimation `step`, made once.
        func probe(_ n: Int, _ step: Int) -> Encoded {
            let key = Setting(colors: n, step: step)
            if let e = byKey[key] { return e }
            let e = encode(n, step, effort: .fast)
            byKey[key] = e
            return e
        }

        /// Every kept frame remapped to `n` colours and encoded for real, at `effort` (the search
        /// probes at `.fast`). With the probe `from` of the same setting, its layout is reused
        /// (no candidate is ranked again); with `fitting` too, only as many of its frames are
        /// compressed again at `effort` as the file needs to fit that many bytes
        /// (`PNGEncoder.shrinkAnimation`).
        func encode(_ n: Int, _ step: Int, effort: Effort, from probe: Encoded? = nil, fitting: Int? = nil) -> Encoded {
            let t = timeline.kept(step)
            let indexed = remap(n, step)
            let palette = indexed.palette.colors, used = indexed.used
            guard indexed.isComplete else {
                return Encoded(colors: n, step: step, effort: effort, indices: t.indices, bytes: [], palette: palette.count,
                               mse: 0, exact: false)
            }
            var layout: APNGLayout? = nil
            let bytes: [UInt8] = clock.measure(\.encode) {
                if let reused = probe?.layout {
                    if let fitting {
                        return (try? PNGEncoder.shrinkAnimation(frames: indexed, palette: palette, used: used, delays: t.delays,
                                                                loopCount: loops, alwaysAnimated: true, layout: reused,
                                                                effort: effort, maxBytes: fitting)) ?? []
                    }
                    return (try? PNGEncoder.encodeAnimation(frames: indexed, palette: palette, used: used, delays: t.delays,
                                                            loopCount: loops, effort: effort, alwaysAnimated: true, layout: reused)) ?? []
                }
                guard let r = try? PNGEncoder.encodeAnimationWithLayout(frames: indexed, palette: palette, used: used, delays: t.delays,
                                                                         loopCount: loops, effort: effort, alwaysAnimated: true)
                else { return [] }
                layout = r.layout
                return r.bytes
            }
            let mse = indexed.meanSquaredError
            return Encoded(colors: n, step: step, effort: effort, indices: t.indices, bytes: bytes,
                           palette: palette.count, mse: mse, exact: indexed.palette.exact && mse == 0, layout: layout)
        }

        /// The kept frames at `step` remapped to `n` colours: the last setting or two are kept.
        func remap(_ n: Int, _ step: Int) -> IndexedFrames {
            let key = Setting(colors: n, step: step)
            if let hit = remapped.first(where: { $0.setting == key }) { return hit.frames }
            let mapper = palettes.mapper(n)
            let kept = KeptFrames(base: frames, indices: timeline.kept(step).indices)
            let indexed = clock.measure(\.quantize) { IndexedFrames(kept, mapper: mapper, budget: indexedBudget) }
            remapped.append((key, indexed))
            if remapped.count > 2 { remapped.removeFirst() }
            return indexed
        }

        /// Drops remapped frames of settings other than `keeping`.
        func release(keeping: [Setting]) {
            remapped.removeAll { !keeping.contains($0.setting) }
        }

        /// Bytes held by remapped frames.
        var bytes: Int { remapped.reduce(0) { $0 + $1.frames.bytes } }

        /// Sizes of the real `.fast` encodes at frame-rate `step`, by colour count.
        func realSizes(_ step: Int) -> [Int: Int] {
            var sizes: [Int: Int] = [:]
            for (setting, e) in byKey where setting.step == step && !e.bytes.isEmpty { sizes[setting.colors] = e.bytes.count }
            return sizes
        }

        /// For an exact frame rate: the real size of `n` colours at another frame rate, scaled by
        /// the kept frames (the nearest such rate), or nil. Where every frame changes alike it
        /// was within 1 % of the real size (spinfox 25 → 13 frames, big buck bunny 24 → 12 → 8);
        /// otherwise it runs low (the first frame is paid once; kept frames differ more when
        /// their neighbours are dropped), the safe side for settling an end as over. An end it
        /// puts under the target is confirmed by a real encode before it is the answer.
        func scaledSize(_ n: Int, _ step: Int) -> Double? {
            let kept = Double(timeline.keptCount(step))
            var best: (distance: Double, size: Double)? = nil
            for (setting, e) in byKey where setting.colors == n && setting.step != step && !e.bytes.isEmpty {
                let other = Double(e.indices.count)
                let distance = abs(log(other / kept))
                if best == nil || distance < best!.distance { best = (distance, Double(e.bytes.count) * kept / other) }
            }
            return best?.size
        }
    }
}
