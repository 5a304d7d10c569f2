import ImageCore
import XCTest
@testable import StickerKit

/// `AnimationBudget.Samples`: the sampled frames' remaps are a cache within the search's share.
/// Past it, the remaps of the colour counts used least recently give way, and one made again
/// is the same bytes.
final class SamplesBudgetTests: XCTestCase {
    func testRemapsOfOtherColourCountsGiveWayToTheBudget() throws {
        let a = AnimationBudgetTests.animation(frames: 40, side: 48, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let fitted = FittedFrames(a.frames)
        let timeline = AnimationTimeline(delays: fitted.delays)
        let clock = StageClock()
        let palettes = try AnimationBudget.Palettes(fitted, clock: clock)
        let sample = timeline.sample(1).indices
        XCTAssertEqual(sample.count, 3 * AnimationBudget.windowLength, "three windows of a 40-frame timeline")
        let pixels = 48 * 48
        // Copies of the sampled frames, and the remaps of two colour counts.
        let budget = sample.count * pixels * 4 + 2 * sample.count * pixels
        let bounded = AnimationBudget.Samples(fitted, timeline: timeline, palettes: palettes, imageBudget: budget, clock: clock)
        let unbounded = AnimationBudget.Samples(fitted, timeline: timeline, palettes: palettes, imageBudget: .max, clock: clock)
        for n in [16, 32, 64, 128, 16, 200, 32] {
            for i in sample {
                XCTAssertEqual(bounded.indexed(n, i).image.indices, unbounded.indexed(n, i).image.indices, "\(n) colours, frame \(i)")
                XCTAssertEqual(bounded.indexed(n, i).mse, unbounded.indexed(n, i).mse)
            }
            XCTAssertLessThanOrEqual(bounded.bytes, budget, "after the remaps at \(n) colours")
        }
        XCTAssertGreaterThan(unbounded.bytes, budget, "unbounded, every count's remaps stay")
    }
}
