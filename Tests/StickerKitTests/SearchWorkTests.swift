import ImageCore
import PNGEncoding
import XCTest
@testable import StickerKit

/// `StageTimings.search`: what the animation searches did, as `stickerkit bench` prints it.
final class SearchWorkTests: XCTestCase {
    func convert(frames n: Int, maxBytes: Int) throws -> ConversionResult {
        let a = AnimationBudgetTests.animation(frames: n, side: 120, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let bytes = try PNGEncoder.encodeAnimation(frames: a.frames.map(\.image), delays: a.frames.map(\.delay),
                                                   loopCount: 0, effort: .fast)
        var o = ConversionOptions(sizes: [.small], maxBytes: maxBytes)
        o.maxColors = 256   // a palette, not the lossless-truecolour try
        return try StickerConverter.convert(bytes, options: o)
    }

    /// A short timeline is sized by real encodes alone; the sticker's setting is one of them.
    func testShortTimelineCountsRealEncodesAndTheOneSettledOn() throws {
        let r = try convert(frames: 8, maxBytes: 60_000)
        let s = try r.outputs[0].result.get()
        XCTAssertEqual(s.report.mode, .palette)
        let w = r.timings.search
        XCTAssertGreaterThanOrEqual(w.encodes, 1)
        XCTAssertEqual(w.chosen, 1, "one sticker, one setting settled on")
        XCTAssertLessThanOrEqual(w.chosenSeconds, w.encodeSeconds)
        XCTAssertGreaterThan(w.encodeSeconds, 0)
        XCTAssertEqual(w.predictions, 0, "8 kept frames are encoded for real, never predicted")
    }

    /// A long timeline (more than `realProbeFrames` kept frames) is predicted first.
    func testLongTimelineCountsPredictions() throws {
        let r = try convert(frames: AnimationBudget.realProbeFrames + 8, maxBytes: 80_000)
        _ = try r.outputs[0].result.get()
        let w = r.timings.search
        XCTAssertGreaterThan(w.predictions, 0)
        XCTAssertGreaterThan(w.predictionSeconds, 0)
        XCTAssertGreaterThanOrEqual(w.encodes, 1)
        XCTAssertEqual(w.chosen, 1)
    }

    /// 5,000 frames of a 4-colour square moving over a 32² screen (`scripts/check-bombs`' slowest
    /// input), at 408 px: at one frame in three, 12 and 13 colours make the same file, and the
    /// flat "slope" of those two sizes promised that 256 colours would fit, a real encode of 1.5
    /// MB (eight real encodes in all, about a second each, 9.8–10.5 s of CPU on a 2-core Xeon
    /// host against the 10 s). Two counts that made one file now set no slope: six
    /// encodes, the same sticker.
    func testTwoCountsThatMadeOneFileSetNoSlope() throws {
        let colours = [RGBA(0, 0, 0, 255), RGBA(255, 0, 0, 255), RGBA(0, 255, 0, 255), RGBA(0, 0, 255, 255)]
        let frames = (0..<5_000).map { k -> Image in
            var img = Image(width: 32, height: 32)
            for y in 0..<32 { for x in 0..<32 { img[x, y] = colours[0] } }
            let at = k % 24
            for y in at..<(at + 8) { for x in at..<(at + 8) { img[x, y] = colours[1 + k % 3] } }
            return img
        }
        let bytes = try PNGEncoder.encodeAnimation(frames: frames, delays: Array(repeating: Delay(milliseconds: 40), count: frames.count),
                                                   effort: .fast)
        let r = try StickerConverter.convert(bytes, options: ConversionOptions(sizes: [.regular]))
        let sticker = try r.outputs[0].result.get()
        XCTAssertLessThanOrEqual(sticker.bytes.count, ByteBudget.messages)
        XCTAssertLessThanOrEqual(r.timings.search.encodes, 6, "\(r.timings.search)")
    }

    /// A still has no animation search.
    func testStillCountsNothing() throws {
        let img = BudgetSearchTests.photoLike(120, seed: 3)
        let bytes = PNGEncoder.encode(img)
        let r = try StickerConverter.convert(bytes, options: ConversionOptions(sizes: [.small]))
        XCTAssertEqual(r.timings.search, SearchWork())
    }

    /// Frames of three colours have one palette for every count from 3 up: a second count is
    /// not encoded again, and chosen, it counts as settled on, with the encode that made its file.
    func testChosenSettingWhosePaletteWasEncodedCountsThatEncode() throws {
        var frames: [Frame] = []
        for f in 0..<6 {
            var img = Image(width: 32, height: 32)
            for y in 0..<32 { for x in 0..<32 { img[x, y] = (x + f) % 8 < 4 ? RGBA(255, 0, 0, 255) : RGBA(0, 0, 255, 255) } }
            img[f, f] = RGBA(0, 255, 0, 255)
            frames.append(Frame(image: img, delay: Delay(numerator: 1, denominator: 10)))
        }
        let fitted = FittedFrames(frames)
        let clock = StageClock()
        let timeline = AnimationTimeline(delays: fitted.delays)
        let palettes = try AnimationBudget.Palettes(fitted, clock: clock)
        let probes = AnimationBudget.Probes(fitted, timeline: timeline, palettes: palettes, loops: 0, indexedBudget: 1 << 24,
                                            maxBytes: 1 << 30, writable: 1 << 30, stopPast: 1 << 30, clock: clock)
        _ = probes.probe(4, 1)
        let again = probes.probe(8, 1)
        XCTAssertEqual(again.colors, 8)
        XCTAssertEqual(clock.timings.search.encodes, 1, "the same palette is not encoded twice")
        XCTAssertEqual(probes.steps.map(\.colors), [4], "a setting that made no encode is not a step of the search")
        probes.countChosen(again)
        XCTAssertEqual(clock.timings.search.chosen, 1)
        XCTAssertEqual(clock.timings.search.chosenSeconds, clock.timings.search.encodeSeconds)
    }

    func testSumsAddEveryCounter() {
        var a = SearchWork()
        a.encodes = 3; a.encodeSeconds = 1.5; a.chosen = 1; a.chosenSeconds = 0.5; a.predictions = 4; a.predictionSeconds = 0.25
        var b = SearchWork()
        b.encodes = 2; b.encodeSeconds = 1; b.chosen = 2; b.chosenSeconds = 0.75; b.predictions = 1; b.predictionSeconds = 0.5
        let c = a + b
        XCTAssertEqual([c.encodes, c.chosen, c.predictions], [5, 3, 5])
        XCTAssertEqual([c.encodeSeconds, c.chosenSeconds, c.predictionSeconds], [2.5, 1.25, 0.75])
        var t = StageTimings(), u = StageTimings()
        t.search = a; u.search = b
        XCTAssertEqual((t + u).search, c)
    }
}
