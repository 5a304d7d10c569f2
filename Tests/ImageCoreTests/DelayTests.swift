import XCTest
@testable import ImageCore

final class DelayTests: XCTestCase {
    func testReducesFractions() {
        let d = Delay(numerator: 10, denominator: 100)
        XCTAssertEqual(d.numerator, 1)
        XCTAssertEqual(d.denominator, 10)
        XCTAssertEqual(Delay(numerator: 0, denominator: 7), .zero)
    }

    func testZeroDenominatorMeansHundredths() {
        XCTAssertEqual(Delay(numerator: 5, denominator: 0), Delay(centiseconds: 5))
    }

    func testAdditionIsExact() {
        let third = Delay(numerator: 1, denominator: 3)
        XCTAssertEqual(third + third + third, Delay(numerator: 1, denominator: 1))
        XCTAssertEqual(Delay(centiseconds: 7) + Delay(milliseconds: 30), Delay(milliseconds: 100))
    }

    func testBrowsersShowShortDelaysAsHundredMilliseconds() {
        XCTAssertEqual(Delay(milliseconds: 10).displayed, Delay(milliseconds: 100))
        XCTAssertEqual(Delay.zero.displayed, Delay(milliseconds: 100))
        XCTAssertEqual(Delay(milliseconds: 11).displayed, Delay(milliseconds: 11))
        XCTAssertEqual(Delay(numerator: 1, denominator: 99).displayed, Delay(numerator: 1, denominator: 99), "just over 10 ms")
        XCTAssertEqual(Delay.longestTooShort.displayed, Delay.shownInsteadOfTooShort)
    }

    func testAPNGFractionIsExactWhenItFits() {
        let f = Delay(numerator: 1, denominator: 24).apngFraction
        XCTAssertEqual(f.numerator, 1)
        XCTAssertEqual(f.denominator, 24)
        let big = Delay(numerator: 1, denominator: 70_001).apngFraction
        XCTAssertEqual(big.denominator, 1000)
    }
}
