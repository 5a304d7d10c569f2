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
        /// A probe stops once it has written this many bytes (`AnimationBudget.stopPast` times
        /// the budget) and is known by its extrapolated size.
        private let stopPast: Int
        private(set) var byKey: [Setting: Encoded] = [:]
        /// The palette each probe in `byKey` was encoded with.
        private var paletteOf: [Setting: [RGBA]] = [:]
        /// Seconds the real encodes of each setting took (a stopped probe made again in full
        /// adds both; a setting whose palette was already encoded has that encode's).
        private var secondsOf: [Setting: Double] = [:]
        /// Bytes each kept frame added in the real encodes made in full, by setting
        /// (`APNGLayout.bytesByInputFrame`): where a later encode of the same frames stops early,
        /// they say where the rest of its bytes lie (`weights`).
        private var bytesByFrame: [Setting: [Int]] = [:]
        /// The real encodes made, in order (`probe`), for the report (`OutputReport.searched`).
        private(set) var steps: [SearchStep] = []
        /// The byte budget the steps are reported against.
        private let maxBytes: Int
        /// The most bytes a probe may weigh and still be written or shrunk (the search budget):
        /// a probe past it keeps its size but not its file or its layout's streams (`released`),
        /// which would otherwise stay held for the whole search, up to twice its file each.
        private let writable: Int
        private var remapped: [(setting: Setting, frames: IndexedFrames)] = []
        /// The kept frames of the frame rate encoded last (their copies, when the fitted frames
        /// are made again on every walk, serve its later encodes).
        private var kept: (step: Int, frames: KeptFrames)?
        /// Bytes held out of the fitted frames' room by others (the samples' copies), which the
        /// kept frames' copies leave to them.
        private let heldBeside: () -> Int

        init(_ frames: FittedFrames, timeline: AnimationTimeline, palettes: Palettes, loops: Int, indexedBudget: Int,
             maxBytes: Int, writable: Int, stopPast: Int, clock: StageClock, heldBeside: @escaping () -> Int = { 0 }) {
            self.maxBytes = maxBytes
            self.writable = writable
            self.heldBeside = heldBeside
            self.stopPast = stopPast
            self.frames = frames
            self.timeline = timeline
            self.palettes = palettes
            self.loops = loops
            self.indexedBudget = indexedBudget
            self.clock = clock
        }

        /// The `.fast` encode of `n` colours at decimation `step`, made once. On a short
        /// timeline (at most `realProbeFrames` kept frames) it stops once it has written
        /// `stopPast` bytes and gives the size extrapolated from the frames written; with
        /// `whole`, an encode that stopped is made again in full.
        ///
        /// The top colour count a short timeline tries first is often several times over (big
        /// buck bunny at 618 px: 3.0 MB at 256 colours against 500 KB), and such frames change
        /// alike: the extrapolation was within 1 % of the real size. Long timelines encode in
        /// full: their real sizes calibrate the predictions, and an extrapolation 15–20 % high
        /// (the rlottie watchface's first frames change more than the rest) or 3 % low (the
        /// terminal recording) sent their searches to other, worse settings. With `limit`, the
        /// encode stops past that many bytes whatever the timeline's length (the climb: there a
        /// probe over the budget only has to say so, and an estimate serves its interpolation),
        /// or once a quarter of its frames' expected bytes (`weights`) is written and the size
        /// extrapolated from them passes `projectedStop` times the limit.
        func probe(_ n: Int, _ step: Int, whole: Bool = false, stoppingPast limit: Int? = nil) -> Encoded {
            let key = Setting(colors: n, step: step)
            if let e = byKey[key], !whole || e.estimate == nil { return e }
            // A colour count whose palette is one already encoded at this frame rate gives the
            // same file: frames of few colours have the same palette for a run of counts (5,000
            // frames of a square moving over a 32² screen, 637 colours at 408 px: 14 to 17
            // colours, a second each).
            let colours = palettes.palette(n).colors
            if let same = byKey.first(where: { $0.key.step == step && $0.value.estimate == nil && paletteOf[$0.key] == colours }) {
                var e = same.value
                e.colors = n
                byKey[key] = e
                paletteOf[key] = colours
                // Chosen, its file is the one that encode made.
                secondsOf[key] = secondsOf[same.key]
                return e
            }
            let stops = !whole && (limit != nil || timeline.keptCount(step) <= AnimationBudget.realProbeFrames)
            var seconds = 0.0
            var e = clock.time(&seconds) {
                encode(n, step, effort: .fast, stopPast: stops ? limit ?? stopPast : nil,
                       projectedPast: limit.map { Int(Double($0) * AnimationBudget.projectedStop) })
            }
            if let layout = e.layout { bytesByFrame[key] = layout.bytesByInputFrame }
            if e.size > writable { e = e.released() }
            clock.timings.search.encodes += 1
            clock.timings.search.encodeSeconds += seconds
            secondsOf[key, default: 0] += seconds
            byKey[key] = e
            paletteOf[key] = colours
            steps.append(SearchStep(colors: n, frames: e.indices.count, bytes: e.size, fits: e.fits(maxBytes),
                                    estimated: e.estimate != nil ? true : nil))
            return e
        }

        /// Every kept frame remapped to `n` colours and encoded for real, at `effort` (the search
        /// probes at `.fast`). With the probe `from` of the same setting, its layout is reused
        /// (no candidate is ranked again); with `fitting` too, only as many of its frames are
        /// compressed again at `effort` as the file needs to fit that many bytes
        /// (`PNGEncoder.shrinkAnimation`). With `stopPast` (at `.fast`, without `from`), the
        /// encode stops once it has written that many bytes and the result has only its
        /// extrapolated size (`PNGEncoder.probeAnimation`).
        func encode(_ n: Int, _ step: Int, effort: Effort, from probe: Encoded? = nil, fitting: Int? = nil,
                    stopPast: Int? = nil, projectedPast: Int? = nil) -> Encoded {
            if let stopPast, effort == .fast, probe == nil, cached(n, step) == nil {
                return stoppingProbe(n, step, stopPast: stopPast, projectedPast: projectedPast)
            }
            let t = timeline.kept(step)
            let indexed = remap(n, step)
            let palette = indexed.palette.colors, used = indexed.used
            guard indexed.isComplete else {
                return Encoded(colors: n, step: step, effort: effort, indices: t.indices, bytes: [], palette: palette.count,
                               mse: 0, exact: false)
            }
            var layout: APNGLayout? = nil
            var estimate: Int? = nil
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
                if let stopPast, effort == .fast {
                    switch try? PNGEncoder.probeAnimation(frames: indexed, palette: palette, used: used, delays: t.delays,
                                                          loopCount: loops, alwaysAnimated: true, stopPast: stopPast,
                                                          projectedPast: projectedPast, weights: weights(n, step)) {
                    case .file(let bytes, let l)?:
                        layout = l
                        return bytes
                    case .over(let estimatedBytes)?:
                        estimate = estimatedBytes
                        return []
                    case nil:
                        return []
                    }
                }
                guard let r = try? PNGEncoder.encodeAnimationWithLayout(frames: indexed, palette: palette, used: used, delays: t.delays,
                                                                         loopCount: loops, effort: effort, alwaysAnimated: true)
                else { return [] }
                layout = r.layout
                return r.bytes
            }
            let mse = indexed.meanSquaredError
            return Encoded(colors: n, step: step, effort: effort, indices: t.indices, bytes: bytes,
                           palette: palette.count, mse: mse, exact: indexed.palette.exact && mse == 0, layout: layout,
                           estimate: estimate)
        }

        /// A `.fast` probe that stops past `stopPast` bytes, its frames remapped as the encoder
        /// reads them (`IndexedFrames` lazy): a probe that stops early — the top colour count of
        /// a short, busy timeline, several times over the budget — remaps only the frames it
        /// wrote. The palette entries in use are known only once every frame is read, so the
        /// encode assumes all of them; when it does not stop and fewer were in use, it is made
        /// again from the kept remap with the real ones (the file must not depend on how it
        /// was found).
        private func stoppingProbe(_ n: Int, _ step: Int, stopPast: Int, projectedPast: Int?) -> Encoded {
            let t = timeline.kept(step)
            let indexed = indexedFrames(n, step, lazy: true)
            let palette = indexed.palette.colors
            let all = (0..<256).map { $0 < palette.count }
            let weights = weights(n, step)
            func run(_ used: [Bool]) -> APNGProbe? {
                clock.measure(\.encode) {
                    try? PNGEncoder.probeAnimation(frames: indexed, palette: palette, used: used, delays: t.delays,
                                                   loopCount: loops, alwaysAnimated: true, stopPast: stopPast,
                                                   projectedPast: projectedPast, weights: weights)
                }
            }
            var result = run(all)
            if case .file? = result, indexed.isFilled, indexed.used != all { result = run(indexed.used) }
            switch result {
            case .file(let bytes, let layout)?:
                keep(indexed, n, step)
                let mse = indexed.meanSquaredError
                return Encoded(colors: n, step: step, effort: .fast, indices: t.indices, bytes: bytes, palette: palette.count,
                               mse: mse, exact: indexed.palette.exact && mse == 0, layout: layout)
            case .over(let estimatedBytes)?:
                return Encoded(colors: n, step: step, effort: .fast, indices: t.indices, bytes: [], palette: palette.count,
                               mse: 0, exact: false, estimate: estimatedBytes)
            case nil:
                return Encoded(colors: n, step: step, effort: .fast, indices: t.indices, bytes: [], palette: palette.count,
                               mse: 0, exact: false)
            }
        }

        /// Counts the encode of `e`'s setting as the one its sticker is made from.
        func countChosen(_ e: Encoded) {
            guard let seconds = secondsOf[Setting(colors: e.colors, step: e.step)] else { return }
            clock.timings.search.chosen += 1
            clock.timings.search.chosenSeconds += seconds
        }

        /// The remapped frames of a setting, if kept.
        private func cached(_ n: Int, _ step: Int) -> IndexedFrames? {
            let key = Setting(colors: n, step: step)
            return remapped.first(where: { $0.setting == key })?.frames
        }

        /// Where an encode of `n` colours at `step` that stops early expects the rest of its
        /// bytes, one weight per kept frame: the bytes each kept frame added in the real encode
        /// made in full at this frame rate nearest in colours (the same frames at another
        /// palette spread their bytes alike), else the pixels each changed (`changedPixels`).
        ///
        /// By changed pixels, the climb's probes of the rlottie watchface at 618 px (68 of 271
        /// frames; its first frames add more bytes than they change pixels) were put at 1.5–1.8
        /// times their size and stopped as over: at `--max-kb 400`, 15 colours at "557 KB"
        /// where 14 made 296 KB and 18 makes 378 KB, so the sticker kept 14.
        func weights(_ n: Int, _ step: Int) -> [Int] {
            let reference = bytesByFrame.filter { $0.key.step == step }.min { a, b in
                let da = abs(log(Double(a.key.colors) / Double(n))), db = abs(log(Double(b.key.colors) / Double(n)))
                return da < db || (da == db && a.key.colors > b.key.colors)
            }
            return reference?.value ?? changedPixels(kept: timeline.kept(step).indices)
        }

        /// Pixels that changed from each kept frame to the next (those of the frames dropped
        /// between them added, at most the whole frame).
        func changedPixels(kept indices: [Int]) -> [Int] {
            let changed = frames.changedByFrame, area = frames.width * frames.height
            return indices.indices.map { j in
                j == 0 ? 0 : min(area, changed[(indices[j - 1] + 1)...indices[j]].reduce(0, +))
            }
        }

        /// The kept frames at `step` remapped to `n` colours: the last setting or two are kept.
        func remap(_ n: Int, _ step: Int) -> IndexedFrames {
            if let hit = cached(n, step) { return hit }
            let indexed = clock.measure(\.quantize) { indexedFrames(n, step, lazy: false) }
            keep(indexed, n, step)
            return indexed
        }

        /// The kept frames at `step` remapped to `n` colours, made anew (with `lazy`, on their
        /// first walk).
        private func indexedFrames(_ n: Int, _ step: Int, lazy: Bool) -> IndexedFrames {
            IndexedFrames(keptFrames(step), mapper: palettes.mapper(n), budget: indexedBudget, lazy: lazy)
        }

        /// The kept frames at `step`, the same object for every encode of that frame rate while
        /// it is the last one encoded. When the fitted frames are made again on every walk, the
        /// first whole walk copies them within the room the fitted frames' budget leaves
        /// (counted with its stores, and beside what `heldBeside` holds); the encodes after it
        /// read the copies instead of decoding and fitting again.
        private func keptFrames(_ step: Int) -> KeptFrames {
            if let kept, kept.step == step { return kept.frames }
            let frames = self.frames, beside = heldBeside
            let k = KeptFrames(base: frames, indices: timeline.kept(step).indices,
                               copies: .init(make: { frames.storeForCopies() }, fits: { frames.fitsUnpacked(beside: beside()) }))
            kept = (step, k)
            return k
        }

        /// Keeps `indexed` as the remap of `n` colours at `step`, with the one kept before it
        /// while the two stay within `indexedBudget` together.
        private func keep(_ indexed: IndexedFrames, _ n: Int, _ step: Int) {
            remapped.append((Setting(colors: n, step: step), indexed))
            if remapped.count > 2 || (remapped.count == 2 && bytes > indexedBudget) { remapped.removeFirst() }
        }

        /// Bytes held by remapped frames.
        var bytes: Int { remapped.reduce(0) { $0 + $1.frames.bytes } }

        /// Sizes of the `.fast` encodes at frame-rate `step` (real, or estimated past `stopPast`),
        /// by colour count.
        func realSizes(_ step: Int) -> [Int: Int] {
            var sizes: [Int: Int] = [:]
            for (setting, e) in byKey where setting.step == step && e.size > 0 { sizes[setting.colors] = e.size }
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
            for (setting, e) in byKey where setting.colors == n && setting.step != step && e.size > 0 {
                let other = Double(e.indices.count)
                let distance = abs(log(other / kept))
                if best == nil || distance < best!.distance { best = (distance, Double(e.size) * kept / other) }
            }
            return best?.size
        }
    }
}
