import ImageCore
import PNGEncoding
import XCTest
@testable import StickerKit

/// `OutputReport.searched` and `predictions`: the real encodes an animation's palette search made,
/// in order, as the report and `resize -v` show them.
final class SearchStepTests: XCTestCase {
    func convert(frames n: Int, maxBytes: Int, effort: Effort = .default) throws -> (ConversionResult, StickerOutput) {
        let a = AnimationBudgetTests.animation(frames: n, side: 120, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let bytes = try PNGEncoder.encodeAnimation(frames: a.frames.map(\.image), delays: a.frames.map(\.delay),
                                                   loopCount: 0, effort: .fast)
        var o = ConversionOptions(sizes: [.small], maxBytes: maxBytes)
        o.maxColors = 256   // a palette, not the lossless-truecolour try
        o.effort = effort
        let r = try StickerConverter.convert(bytes, options: o)
        return (r, try r.outputs[0].result.get())
    }

    /// Every real encode is a step, in the order made; each says whether it fitted the budget;
    /// under `.fast` the sticker is its setting's encode, byte for byte.
    func testStepsAreTheRealEncodesAndHoldTheSticker() throws {
        let maxBytes = 30_000
        let (r, s) = try convert(frames: 8, maxBytes: maxBytes, effort: .fast)
        let steps = try XCTUnwrap(s.report.searched)
        XCTAssertEqual(steps.count, r.timings.search.encodes)
        XCTAssertGreaterThan(steps.count, 1, "a budget this tight is not met by the first encode")
        XCTAssertEqual(steps.first?.colors, 256, "a short timeline tries the top colour count first")
        for step in steps where step.estimated != true {
            XCTAssertEqual(step.fits, step.bytes <= maxBytes, "\(step)")
        }
        let chosen = try XCTUnwrap(steps.last { $0.colors == s.report.colors && $0.frames == s.report.frames })
        XCTAssertEqual(chosen.bytes, s.bytes.count)
        XCTAssertTrue(chosen.fits)
        XCTAssertNil(s.report.predictions, "8 kept frames are encoded for real, never predicted")
    }

    /// A long timeline's predictions are counted beside its encodes; the report carries both.
    func testLongTimelineReportsItsPredictions() throws {
        let (r, s) = try convert(frames: AnimationBudget.realProbeFrames + 8, maxBytes: 80_000)
        XCTAssertEqual(s.report.predictions, r.timings.search.predictions)
        XCTAssertGreaterThan(s.report.predictions ?? 0, 0)
        XCTAssertEqual(s.report.searched?.count, r.timings.search.encodes)
        let json = try JSONEncoder().encode(s.report)
        XCTAssertEqual(try JSONDecoder().decode(OutputReport.self, from: json), s.report)
    }

    /// A still's search is not an animation's: no steps.
    func testStillHasNoSteps() throws {
        let img = BudgetSearchTests.photoLike(120, seed: 3)
        let r = try StickerConverter.convert(PNGEncoder.encode(img), options: ConversionOptions(sizes: [.small]))
        let s = try r.outputs[0].result.get()
        XCTAssertNil(s.report.searched)
        XCTAssertNil(s.report.predictions)
    }
}
