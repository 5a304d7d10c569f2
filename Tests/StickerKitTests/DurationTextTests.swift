import XCTest
@testable import StickerKit

final class DurationTextTests: XCTestCase {
    func testSecondsKeepTheDigitsThatTellThemFromALimit() {
        XCTAssertEqual(DurationText.seconds(3003), "3.003")
        XCTAssertEqual(DurationText.seconds(3000), "3")
        XCTAssertEqual(DurationText.seconds(58600), "58.6")
        XCTAssertEqual(DurationText.seconds(2500), "2.5")
        XCTAssertEqual(DurationText.seconds(0), "0")
    }

    func testFactorsNeverReadOneWhenTheyAreNot() {
        XCTAssertEqual(DurationText.factor(3003.0 / 3000), "1.001")
        XCTAssertEqual(DurationText.factor(5000.0 / 3000), "1.67")
        XCTAssertEqual(DurationText.factor(3), "3.00")
    }
}
