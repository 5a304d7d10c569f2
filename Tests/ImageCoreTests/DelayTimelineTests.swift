import XCTest
@testable import ImageCore

final class DelayTimelineTests: XCTestCase {
    func testRunningSumIsRoundedSoNothingAccumulates() {
        let times = Delay.millisecondTimeline(Array(repeating: Delay(numerator: 1, denominator: 30), count: 30))
        XCTAssertEqual(times.count, 31)
        XCTAssertEqual(times.last, 1000)
        XCTAssertEqual(Array(times.prefix(4)), [0, 33, 67, 100])
        XCTAssertTrue(zip(times.dropFirst(), times).allSatisfy { [33, 34].contains($0 - $1) })
    }

    func testEveryFrameGetsAtLeastOneMillisecond() {
        let tiny = Delay(numerator: 1, denominator: 10_000)   // 0.1 ms
        // 0.1 + 0.1 + 5 ms: the tiny ones get 1 ms each, the next frame ends at the exact 5.2 ms rounded.
        XCTAssertEqual(Delay.millisecondTimeline([tiny, tiny, Delay(milliseconds: 5)]), [0, 1, 2, 5])
        XCTAssertEqual(Delay.millisecondTimeline([]), [0])
        XCTAssertEqual(Delay.millisecondTimeline([.zero]), [0, 1])
    }

    func testRoundedMillisecondsRoundsHalvesUp() {
        XCTAssertEqual(Delay(numerator: 1, denominator: 2000).roundedMilliseconds, 1)    // 0.5 ms
        XCTAssertEqual(Delay(numerator: 1, denominator: 3).roundedMilliseconds, 333)
        XCTAssertEqual(Delay(numerator: 2, denominator: 3).roundedMilliseconds, 667)
        // numerator × 1000 overflows: computed in Double.
        let large = Delay(numerator: Int.max / 100, denominator: 1_000_000_007)
        XCTAssertEqual(large.roundedMilliseconds, Int((large.seconds * 1000).rounded()))
        XCTAssertEqual(Delay(numerator: Int.max, denominator: 1).roundedMilliseconds, Int.max / 2)
        XCTAssertEqual(Delay.millisecondTimeline([Delay(numerator: Int.max, denominator: 1)]), [0, Int.max / 2])
    }
}
