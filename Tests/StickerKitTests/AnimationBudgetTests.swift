import ImageDecoding
import PNGEncoding
import XCTest
@testable import StickerKit

final class AnimationBudgetTests: XCTestCase {
    /// A square moving over a noisy gradient: every frame differs, colours are many.
    static func animation(frames n: Int, side: Int, delay: Delay, loops: Int) -> Animation {
        var rand = BudgetSearchTests.Rand(state: 42)
        let base = BudgetSearchTests.photoLike(side, seed: 7)
        var frames: [Frame] = []
        for f in 0..<n {
            var img = base
            let ox = f * (side / 2) / max(1, n - 1)
            for y in side / 4..<(side / 4 + side / 3) {
                for x in ox..<min(side, ox + side / 3) {
                    img[x, y] = RGBA(rand.byte() | 0x80, 40, UInt8(f * 255 / max(1, n - 1)), 255)
                }
            }
            frames.append(Frame(image: img, delay: delay))
        }
        return Animation(width: side, height: side, frames: frames, loopCount: loops)
    }

    func encode(_ a: Animation) throws -> [UInt8] {
        let delays = a.frames.map(\.delay)
        return try PNGEncoder.encodeAnimation(frames: a.frames.map(\.image), delays: delays, loopCount: a.loopCount, effort: .fast)
    }

    func testAnimationFitsKeepsDurationAndLoops() throws {
        let input = Self.animation(frames: 12, side: 300, delay: Delay(numerator: 1, denominator: 12), loops: 3)
        let bytes = try encode(input)
        for budget in [500_000, 150_000] {
            let r = try StickerConverter.convert(bytes, options: ConversionOptions(sizes: [.small], maxBytes: budget))
            let s = try r.outputs[0].result.get()
            XCTAssertLessThanOrEqual(s.bytes.count, budget)
            let out = try ImageDecoder.decode(s.bytes)
            XCTAssertEqual(out.format, .apng)
            XCTAssertEqual(out.animation.loopCount, 3)
            XCTAssertEqual(out.animation.duration, input.duration, "never a silent speed-up")
            XCTAssertEqual(s.report.frames, out.animation.frames.count)
            XCTAssertEqual(s.report.framesInput, 12)
        }
    }

    func testNothingGivenUpKeepsTheFastProbeUnlessMaxEffort() throws {
        // Many colours (no lossless palette); 256 colours and every frame fit the budget at the
        // fast setting.
        let input = Self.animation(frames: 12, side: 300, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let bytes = try encode(input)
        var sizes: [String: Int] = [:]
        for effort in [Effort.fast, .default, .max] {
            var o = ConversionOptions(sizes: [.small], maxBytes: 2_000_000)
            o.effort = effort
            o.maxColors = 256   // a palette, not the lossless-truecolour try
            let s = try StickerConverter.convert(bytes, options: o).outputs[0].result.get()
            XCTAssertEqual(s.report.frames, 12)
            if s.report.mode != .palette { throw XCTSkip("the test animation came out as \(s.report.mode), not a palette") }
            sizes[effort.rawValue] = s.bytes.count
            XCTAssertEqual(s.report.effort, effort == .max ? .max : .fast, "effort written for \(effort)")
        }
        XCTAssertEqual(sizes["default"], sizes["fast"], "nothing given up: the probe is kept")
        XCTAssertLessThan(sizes["max"]!, sizes["fast"]!)
    }

    /// Under `.default`, a setting that gave something up is written as probed when the probe
    /// fits (the same pixels a level-10 encode would hold); `.max` re-encodes it smaller, with
    /// the same pixels.
    func testGivenUpSettingKeepsAFittingProbeUnderDefaultEffort() throws {
        let input = Self.animation(frames: 12, side: 300, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let bytes = try encode(input)
        var keptProbe = 0
        // 12 frames at 12 fps; 64 colours at most; at these budgets frames are dropped.
        for budget in [26_000, 38_000] {
            var outputs: [Effort: StickerOutput] = [:]
            for effort in [Effort.default, .max] {
                var o = ConversionOptions(sizes: [.small], maxBytes: budget)
                o.effort = effort
                o.maxColors = 64
                o.minFPS = 2
                outputs[effort] = try StickerConverter.convert(bytes, options: o).outputs[0].result.get()
            }
            let d = outputs[.default]!, m = outputs[.max]!
            XCTAssertLessThanOrEqual(d.bytes.count, budget)
            XCTAssertLessThanOrEqual(m.bytes.count, budget)
            let gaveUp = (d.report.colors ?? 64) < 64 || d.report.frames < 12
            if gaveUp && d.report.effort == .fast {
                keptProbe += 1
                // The same setting, so the same pixels; `.max` only packs them tighter.
                if m.report.colors == d.report.colors && m.report.frames == d.report.frames {
                    XCTAssertLessThan(m.bytes.count, d.bytes.count)
                    let a = try ImageDecoder.decode(d.bytes).animation, b = try ImageDecoder.decode(m.bytes).animation
                    XCTAssertEqual(a.frames.map(\.image), b.frames.map(\.image), "budget \(budget)")
                }
            }
        }
        XCTAssertGreaterThan(keptProbe, 0, "some budget gave something up and kept its fitting probe")
    }

    /// Real sizes at one frame rate, scaled by the kept frames, stand in for encodes at another:
    /// below the real size (the first frame is paid once, and kept frames differ more when their
    /// neighbours are dropped), which is the safe side for settling ends as over; a frame rate
    /// they show to be hopeless is not encoded at all.
    func testScaledSizesSkipHopelessFrameRates() throws {
        let input = Self.animation(frames: 24, side: 160, delay: Delay(numerator: 1, denominator: 24), loops: 0)
        func search(_ maxBytes: Int) throws -> AnimationBudget.Search { try self.search(input, maxBytes: maxBytes) }
        let first = try search(10_000)
        _ = first.probes.probe(64, 1)
        let half = first.probes.probe(64, 2)
        let scaled = try XCTUnwrap(first.probes.scaledSize(64, 2))
        XCTAssertLessThanOrEqual(scaled, Double(half.size) * 1.02)
        XCTAssertGreaterThan(scaled, Double(half.size) * 0.6)
        XCTAssertNil(first.probes.scaledSize(100, 2), "no real size at 100 colours anywhere")
        // Step 3 (8 frames) scaled from step 2 (12) well over the target: settled without an encode.
        let third = Double(half.size) * 8 / 12
        let tight = try search(Int(third / 1.3))
        _ = tight.probes.probe(64, 1)
        _ = tight.probes.probe(64, 2)
        XCTAssertNil(tight.predictedColours(step: 3, lo: 64, hi: 256))
        XCTAssertFalse(tight.probes.byKey.keys.contains { $0.step == 3 }, "nothing encoded at the hopeless frame rate")
        // With room at step 3 the answer is a real encode that fits.
        let roomy = try search(Int(third * 1.5))
        _ = roomy.probes.probe(64, 1)
        _ = roomy.probes.probe(64, 2)
        let n = try XCTUnwrap(roomy.predictedColours(step: 3, lo: 64, hi: 256))
        XCTAssertTrue(roomy.probes.probe(n, 3).fits(Int(roomy.searchBudget)))
    }

    /// The search over `input` (frames at sticker size) under `maxBytes`, frame rates down to 2 fps.
    func search(_ input: Animation, maxBytes: Int) throws -> AnimationBudget.Search {
        var o = ConversionOptions(sizes: [.small], maxBytes: maxBytes)
        o.minFPS = 2
        let builder = StickerBuilder(size: .small, side: input.width, fitWarnings: [], loopCount: input.loopCount)
        return try AnimationBudget.Search(FittedFrames(input.frames), loopCount: input.loopCount, options: o,
                                          budgets: MemoryPlan(options: o).search(side: input.width), builder: builder,
                                          clock: StageClock())
    }

    /// When every walk decodes and fits the frames again (the store gave up), the first
    /// prediction copies the sampled frames of every frame rate in its walk, so predictions at
    /// the other frame rates walk no more; with a store, each frame rate's copies are made when
    /// it is first predicted. The predictions are the same either way.
    func testPredictionsOfEveryFrameRateShareOneWalkWhenFramesAreMadeAgain() throws {
        // 150 frames of 64² noise (16 KB each, 2.4 MB in all): a 1 MB store gives up, and has
        // room for the samples of the four predicted frame rates (kept counts 150, 75, 50, 38).
        var rand = BudgetSearchTests.Rand(state: 11)
        let frames = (0..<150).map { _ in
            Frame(image: Image(width: 64, height: 64, pixels: (0..<(64 * 64 * 4)).map { $0 % 4 == 3 ? 255 : rand.byte() }),
                  delay: Delay(milliseconds: 40))
        }
        let input = Animation(width: 64, height: 64, frames: frames)
        func search(replaying: Bool) throws -> (AnimationBudget.Search, () -> Int) {
            var o = ConversionOptions(sizes: [.small], maxBytes: 20_000)
            o.minFPS = 2
            let frames = FittedFrames(side: 64, budget: replaying ? 1_000_000 : .max)
            for (i, f) in input.frames.enumerated() {
                frames.append(f.image, damage: i == 0 ? nil : RowDamage.between(f.image, input.frames[i - 1].image), delay: f.delay)
            }
            XCTAssertEqual(frames.replays, replaying)
            var walks = 0
            frames.replaying { _, body in
                walks += 1
                for (i, f) in input.frames.enumerated() {
                    let damage = i == 0 ? nil : RowDamage.between(f.image, input.frames[i - 1].image)
                    try f.image.pixels.withUnsafeBytes { try body(i, $0, damage) }
                }
            }
            let builder = StickerBuilder(size: .small, side: 64, fitWarnings: [], loopCount: 0)
            let s = try AnimationBudget.Search(frames, loopCount: 0, options: o, budgets: MemoryPlan(options: o).search(side: 64),
                                               builder: builder, clock: StageClock())
            return (s, { walks })
        }
        let (replayed, walks) = try search(replaying: true)
        let (stored, _) = try search(replaying: false)
        let before = walks()
        for step in [1, 2, 3, 4] {
            XCTAssertGreaterThan(replayed.timeline.keptCount(step), AnimationBudget.realProbeFrames, "a predicted frame rate")
            XCTAssertEqual(replayed.model.rawPrediction(64, step), stored.model.rawPrediction(64, step), "step \(step)")
            XCTAssertEqual(walks() - before, 1, "after step \(step)")
        }
    }

    /// On a short timeline, a top far over the target (more than `hopeless` over even at the
    /// square-root fall `floorSlope` allows) settles the floor as over without encoding it.
    func testFarOverTopSettlesTheFloorWithoutAnEncode() throws {
        let input = Self.animation(frames: 12, side: 160, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let top = try search(input, maxBytes: 1_000_000_000).probes.probe(256, 1).bytes.count
        // The target a quarter of the top: 256 → 64 colours would have to shrink the file 4×.
        let tight = try search(input, maxBytes: Int(Double(top) / 4 / ProbeAllowance.animation.factor))
        XCTAssertNil(tight.predictedColours(step: 1, lo: 64, hi: 256))
        XCTAssertEqual(Set(tight.probes.byKey.keys), [AnimationBudget.Setting(colors: 256, step: 1)], "the floor is not encoded")
        // A top within reach of the floor still has the floor encoded.
        let near = try search(input, maxBytes: Int(Double(top) / 1.5 / ProbeAllowance.animation.factor))
        _ = near.predictedColours(step: 1, lo: 64, hi: 256)
        XCTAssertNotNil(near.probes.byKey[AnimationBudget.Setting(colors: 64, step: 1)])
    }

    /// On a short timeline, a top over the target guesses the answer from its own size
    /// (`guessSlope`): a guess that fits settles the bottom, and the floor is not encoded; a
    /// guess over the target becomes the top, and the floor is encoded as before.
    func testTopOverTheTargetGuessesTheAnswer() throws {
        let input = Self.animation(frames: 12, side: 160, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let free = try search(input, maxBytes: 1_000_000_000).probes
        let top = Double(free.probe(256, 1).bytes.count)
        func guess(_ target: Double) -> Int { Int(256 * pow(target / top, 1 / AnimationBudget.guessSlope)) }
        func maxBytes(_ target: Double) -> Int { Int((target / ProbeAllowance.animation.factor).rounded(.up)) }
        func floorEncoded(_ s: AnimationBudget.Search) -> Bool { s.probes.byKey[AnimationBudget.Setting(colors: 64, step: 1)] != nil }
        // 40 % over: the guess lands where the real size fits.
        let far = top / 1.4
        let g = guess(far)
        XCTAssertGreaterThan(g, 64)
        XCTAssertLessThanOrEqual(Double(free.probe(g, 1).bytes.count), far, "sizes fall at least as fast as guessSlope here")
        let s = try search(input, maxBytes: maxBytes(far))
        let n = try XCTUnwrap(s.predictedColours(step: 1, lo: 64, hi: 256))
        XCTAssertGreaterThanOrEqual(n, g)
        XCTAssertFalse(floorEncoded(s), "the floor is not encoded")
        XCTAssertLessThanOrEqual(Double(s.probes.probe(n, 1).bytes.count), s.searchBudget)
        // 8 % over: near the top this animation's sizes fall more slowly, so the guess is over;
        // it becomes the top, and the floor is encoded.
        let near = top / 1.08
        let h = guess(near)
        XCTAssertGreaterThan(h, 64)
        XCTAssertGreaterThan(Double(free.probe(h, 1).bytes.count), near)
        let t = try search(input, maxBytes: maxBytes(near))
        let m = try XCTUnwrap(t.predictedColours(step: 1, lo: 64, hi: 256))
        XCTAssertTrue(floorEncoded(t), "the floor is encoded")
        XCTAssertLessThan(m, h)
        XCTAssertLessThanOrEqual(Double(t.probes.probe(m, 1).bytes.count), t.searchBudget)
    }

    /// The climb from a probe far under the budget tries the top first: on a long timeline
    /// (more than `realProbeFrames` kept frames) a probe over the search budget stops once it
    /// has written that many bytes, with its size extrapolated, instead of encoding every frame
    /// (5,000 frames of a square moving over a 32² screen at 408 px: four such probes, 1.5–3
    /// times over, 7.8 s of 12.8). Probes that fit are encoded in full, the same files.
    func testClimbStopsProbesPastTheBudget() throws {
        let input = Self.animation(frames: 48, side: 96, delay: Delay(numerator: 1, denominator: 24), loops: 0)
        let free = try search(input, maxBytes: 1_000_000_000).probes
        let low = free.probe(8, 1), top = free.probe(256, 1)
        XCTAssertGreaterThan(input.frames.count, AnimationBudget.realProbeFrames)
        XCTAssertNil(top.estimate, "a long timeline's probes are whole outside the climb")
        // A budget the 8-colour file fills to 60 %, where 256 colours are far over.
        let s = try search(input, maxBytes: Int(Double(low.bytes.count) / 0.6 / ProbeAllowance.animation.factor))
        XCTAssertGreaterThan(Double(top.bytes.count), s.searchBudget * 1.5, "the test needs a top far over")
        let start = s.probes.probe(8, 1)
        XCTAssertEqual(start.bytes, low.bytes)
        var fitting: AnimationBudget.Encoded? = start
        let b = s.climb(from: start, fitting: &fitting)
        let stopped = try XCTUnwrap(s.probes.byKey[AnimationBudget.Setting(colors: 256, step: 1)])
        XCTAssertTrue(stopped.bytes.isEmpty)
        XCTAssertGreaterThan(Double(try XCTUnwrap(stopped.estimate)), s.searchBudget)
        for (setting, e) in s.probes.byKey where setting.colors != 8 {
            if e.estimate != nil {
                XCTAssertGreaterThan(free.probe(setting.colors, 1).bytes.count, Int(s.searchBudget), "only probes over stop")
            } else {
                XCTAssertEqual(e.bytes, free.probe(setting.colors, 1).bytes, "a probe that fits is the whole file")
            }
        }
        XCTAssertTrue(b.fits(Int(s.searchBudget)))
        XCTAssertEqual(b.bytes, free.probe(b.colors, 1).bytes)
    }

    /// A real encode within `closeEnough` of the target ends the search on real encodes: no
    /// encode between it and the top.
    func testRealEncodeCloseToTheTargetIsTheAnswer() throws {
        let input = Self.animation(frames: 12, side: 160, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let probe = try search(input, maxBytes: 1_000_000_000).probes
        let floor = probe.probe(64, 1).bytes.count, top = probe.probe(256, 1).bytes.count
        XCTAssertGreaterThan(Double(top), Double(floor) * 1.1, "the test needs room between floor and top")
        XCTAssertLessThan(Double(top), Double(floor) * 2, "a top this far over would settle the floor unencoded")
        // The floor at 99 % of the target.
        let s = try search(input, maxBytes: Int(Double(floor) / 0.99 / ProbeAllowance.animation.factor))
        XCTAssertEqual(s.predictedColours(step: 1, lo: 64, hi: 256), 64)
        XCTAssertEqual(Set(s.probes.byKey.keys), [AnimationBudget.Setting(colors: 256, step: 1), AnimationBudget.Setting(colors: 64, step: 1)])
    }

    /// The size model's real/predicted ratio is kept per frame rate; a frame rate without real
    /// encodes takes the ratio of the nearest one in kept frames (the larger of two as near).
    func testCalibrationIsPerFrameRate() throws {
        // 200 frames: steps 1, 2, 3 and 4 keep 200, 100, 67 and 50 frames (all predicted).
        let input = Self.animation(frames: 200, side: 32, delay: Delay(numerator: 1, denominator: 24), loops: 0)
        let s = try search(input, maxBytes: 500_000)
        XCTAssertFalse(s.model.isExact(4))
        XCTAssertEqual(s.model.calibration(2), AnimationBudget.SizeModel.initialCalibration)
        let dense = s.probes.probe(64, 1), sparse = s.probes.probe(64, 4)
        s.model.learn(from: dense)
        s.model.learn(from: sparse)
        let c1 = Double(dense.bytes.count) / s.model.rawPrediction(64, 1)
        let c4 = Double(sparse.bytes.count) / s.model.rawPrediction(64, 4)
        XCTAssertNotEqual(c1, c4, accuracy: 1e-6)
        XCTAssertEqual(s.model.calibration(1), c1, accuracy: 1e-12)
        XCTAssertEqual(s.model.calibration(4), c4, accuracy: 1e-12)
        XCTAssertEqual(s.model.calibration(3), c4, accuracy: 1e-12, "67 kept frames are nearer 50 than 200")
        XCTAssertEqual(s.model.calibration(2), max(c1, c4), accuracy: 1e-12, "100 is as near 200 as 50: the larger ratio")
    }

    /// A prediction does not depend on what was predicted before it: one-frame estimates are
    /// shared between frame rates and windows (`SizeModel`'s heads), and a model that made other
    /// predictions first gives the same numbers as a fresh one.
    func testPredictionsDoNotDependOnTheirOrder() throws {
        let input = Self.animation(frames: 120, side: 48, delay: Delay(numerator: 1, denominator: 24), loops: 0)
        let settings = [(64, 1), (64, 2), (100, 2), (64, 3), (100, 1), (32, 3)]
        let warm = try search(input, maxBytes: 500_000)
        let inOrder = settings.map { warm.model.rawPrediction($0.0, $0.1) }
        for (k, (n, step)) in settings.enumerated() {
            let fresh = try search(input, maxBytes: 500_000)
            XCTAssertEqual(fresh.model.rawPrediction(n, step), inOrder[k], "\(n) colours at step \(step)")
        }
        XCTAssertEqual(Set(inOrder).count, settings.count, "every setting predicts its own size")
    }

    func testTightBudgetDropsFramesButKeepsTheTimeline() throws {
        let input = Self.animation(frames: 40, side: 300, delay: Delay(centiseconds: 4), loops: 0)
        let r = try StickerConverter.convert(try encode(input), options: ConversionOptions(sizes: [.small], maxBytes: 60_000, minFPS: 5))
        switch r.outputs[0].result {
        case .success(let s):
            XCTAssertLessThanOrEqual(s.bytes.count, 60_000)
            let out = try ImageDecoder.decode(s.bytes).animation
            XCTAssertEqual(out.duration, input.duration)
            XCTAssertGreaterThanOrEqual(Double(out.frames.count) / input.duration.seconds, 5 - 1e-9, "fps floor")
            if s.report.frames < 40 { XCTAssertTrue(s.report.warnings.contains { $0.contains("frames") }) }
        case .failure(let e):
            guard case let .animationOverBudget(smallest, budget, keptFrames, frames, fps) = e else { return XCTFail("\(e)") }
            XCTAssertEqual([budget, frames], [60_000, 40])
            XCTAssertGreaterThan(smallest, 60_000)
            XCTAssertLessThanOrEqual(keptFrames, 40)
            XCTAssertGreaterThanOrEqual(fps, 5 - 1e-9, "fps floor")
        }
    }

    func testIdenticalFramesStayAnimated() throws {
        let still = BudgetSearchTests.photoLike(200, seed: 9)
        let a = Animation(width: 200, height: 200, frames: Array(repeating: Frame(image: still, delay: Delay(milliseconds: 500)), count: 3), loopCount: 1)
        let r = try StickerConverter.convert(try encode(a), options: ConversionOptions(sizes: [.small]))
        let out = try ImageDecoder.decode(try r.outputs[0].result.get().bytes)
        XCTAssertEqual(out.format, .apng)
        XCTAssertEqual(out.animation.duration, Delay(milliseconds: 1500))
        XCTAssertEqual(out.animation.loopCount, 1)
        XCTAssertGreaterThanOrEqual(out.animation.frames.count, 2, "viewers take a one-frame APNG for a still")
    }

    /// Frames of `input` walked into arrays (each whole frame as the sequence gives it).
    static func walked(_ frames: any FrameSequence) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        try frames.forEach { _, samples, _ in out.append([UInt8](samples.prefix(frames.width * frames.height * frames.bytesPerPixel))) }
        return out
    }

    /// A lazy remap fills on its first whole walk exactly what an eager one holds; a walk that
    /// stops keeps nothing, and the next walk starts again.
    func testLazyRemapFillsOnItsFirstWholeWalk() throws {
        struct Stop: Error {}
        let input = Self.animation(frames: 12, side: 96, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let s = try search(input, maxBytes: 1_000_000_000)
        let kept = KeptFrames(base: s.frames, indices: [0, 2, 4, 6, 8, 10])
        let mapper = s.palettes.mapper(40)
        let eager = IndexedFrames(kept, mapper: mapper, budget: 1 << 30)
        let lazy = IndexedFrames(kept, mapper: mapper, budget: 1 << 30, lazy: true)
        XCTAssertTrue(eager.isFilled)
        XCTAssertFalse(lazy.isFilled)
        var read = 0
        XCTAssertThrowsError(try lazy.forEach { i, _, _ in read += 1; if i == 2 { throw Stop() } })
        XCTAssertEqual(read, 3)
        XCTAssertFalse(lazy.isFilled)
        let frames = try Self.walked(lazy)
        XCTAssertTrue(lazy.isFilled)
        XCTAssertEqual(frames, try Self.walked(eager))
        XCTAssertEqual(lazy.used, eager.used)
        XCTAssertEqual(lazy.meanSquaredError, eager.meanSquaredError)
        XCTAssertEqual(try Self.walked(lazy), frames, "later walks read the kept indices")
    }

    /// A probe that may stop is encoded with every palette entry assumed in use; when it does
    /// not stop and fewer were, it is made again with the real ones: the file is the one an
    /// eager remap gives.
    func testAStoppingProbeIsTheFileOfAnEagerRemap() throws {
        // Six colours; frame 1 alone has a seventh, which no frame kept at step 2 uses.
        let side = 64
        let colours = (0..<6).map { RGBA(UInt8(40 * $0), UInt8(200 - 30 * $0), 90, 255) }
        let frames = (0..<8).map { f -> Frame in
            var img = Image(width: side, height: side)
            for y in 0..<side { for x in 0..<side { img[x, y] = colours[(x / 8 + y / 8 + f) % 6] } }
            if f == 1 { for y in 0..<10 { for x in 0..<10 { img[x, y] = RGBA(255, 255, 0, 255) } } }
            return Frame(image: img, delay: Delay(milliseconds: 100))
        }
        let input = Animation(width: side, height: side, frames: frames, loopCount: 0)
        for step in [1, 2] {
            let s = try search(input, maxBytes: 1_000_000_000)
            let probe = s.probes.probe(256, step)
            XCTAssertFalse(probe.bytes.isEmpty)
            let t = s.timeline.kept(step)
            let eager = IndexedFrames(KeptFrames(base: s.frames, indices: t.indices), mapper: s.palettes.mapper(256), budget: 1 << 30)
            XCTAssertEqual(eager.used.filter { $0 }.count, step == 1 ? 7 : 6)
            guard case .file(let bytes, _) = try PNGEncoder.probeAnimation(frames: eager, palette: eager.palette.colors,
                                                                           used: eager.used, delays: t.delays, loopCount: 0,
                                                                           alwaysAnimated: true, stopPast: .max) else {
                return XCTFail("the eager probe stopped")
            }
            XCTAssertEqual(probe.bytes, bytes, "step \(step)")
        }
    }
}
