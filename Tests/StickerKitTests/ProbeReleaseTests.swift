import ImageCore
import PNGEncoding
import XCTest
@testable import StickerKit

/// A probe too large to be written keeps its size, not its file (`Encoded.released`): the search
/// holds only what it may still write.
final class ProbeReleaseTests: XCTestCase {
    func probes(writable: Int) throws -> AnimationBudget.Probes {
        let a = AnimationBudgetTests.animation(frames: 8, side: 96, delay: Delay(numerator: 1, denominator: 10), loops: 0)
        let fitted = FittedFrames(a.frames)
        let clock = StageClock()
        let timeline = AnimationTimeline(delays: fitted.delays)
        let palettes = try AnimationBudget.Palettes(fitted, clock: clock)
        return AnimationBudget.Probes(fitted, timeline: timeline, palettes: palettes, loops: 0, indexedBudget: 1 << 24,
                                      maxBytes: writable, writable: writable, stopPast: 1 << 30, clock: clock)
    }

    func testAProbePastWhatMayBeWrittenKeepsItsSizeOnly() throws {
        let kept = try probes(writable: 1 << 30).probe(16, 1)
        XCTAssertFalse(kept.bytes.isEmpty)
        XCTAssertNotNil(kept.layout)

        let over = try probes(writable: kept.size - 1)
        let released = over.probe(16, 1)
        XCTAssertTrue(released.bytes.isEmpty, "its file is let go")
        XCTAssertNil(released.layout, "and its layout's streams")
        XCTAssertEqual(released.size, kept.size, "its size is the real one")
        XCTAssertNil(released.estimate, "a real size, not an extrapolation")
        XCTAssertFalse(released.fits(kept.size))
        XCTAssertEqual(over.realSizes(1)[16], kept.size)
        XCTAssertEqual(over.steps.last, SearchStep(colors: 16, frames: 8, bytes: kept.size, fits: false))
        XCTAssertEqual(over.probe(16, 1).size, kept.size, "asked again, the same size, no new encode")
        XCTAssertEqual(over.steps.count, 1)
    }

    /// An animation that cannot fit names its smallest file's real size, though that probe's
    /// file was let go during the search.
    func testOverBudgetErrorNamesTheSmallestRealSize() throws {
        let a = AnimationBudgetTests.animation(frames: 12, side: 200, delay: Delay(numerator: 1, denominator: 10), loops: 0)
        let bytes = try PNGEncoder.encodeAnimation(frames: a.frames.map(\.image), delays: a.frames.map(\.delay), loopCount: 0,
                                                   effort: .fast)
        let r = try StickerConverter.convert(bytes, options: ConversionOptions(sizes: [.small], maxBytes: 400, minFPS: 5))
        guard case .failure(let e) = r.outputs[0].result, case let .animationOverBudget(smallest, budget, _, _, _) = e else {
            return XCTFail("\(r.outputs[0].result)")
        }
        XCTAssertEqual(budget, 400)
        XCTAssertGreaterThan(smallest, 400, "the real size of the smallest setting, not an empty file's")
    }
}
