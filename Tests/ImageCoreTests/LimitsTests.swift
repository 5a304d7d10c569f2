import XCTest
@testable import ImageCore

final class LimitsTests: XCTestCase {
    func testBombIsRefusedWithItsNumbers() {
        XCTAssertThrowsError(try Limits.default.check(width: 100_000, height: 100_000, format: .png, what: "IHDR says")) { e in
            let err = e as! ImageError
            XCTAssertEqual(err.kind, .limits)
            XCTAssertEqual(err.description, "PNG: IHDR says 100000×100000, over the 65535×65535 limit")
        }
        XCTAssertThrowsError(try Limits.default.check(width: 20_000, height: 20_000, format: .png, what: "IHDR says")) { e in
            XCTAssertEqual((e as! ImageError).description, "PNG: IHDR says 20000×20000, over the 100 MP limit")
        }
    }

    func testOverflowDoesNotTrap() {
        XCTAssertThrowsError(try Limits.unlimited.check(frames: Int.max / 2, width: 1 << 20, height: 1 << 20, format: .gif))
    }

    func testSaneImagesPass() throws {
        try Limits.default.check(width: 5312, height: 2988, format: .jpeg)
        try Limits.default.check(frames: 380, width: 472, height: 298, format: .gif)
    }

    func testZeroSizeIsADecodingError() {
        XCTAssertThrowsError(try Limits.default.check(width: 0, height: 16, format: .png)) { e in
            XCTAssertEqual((e as! ImageError).kind, .decoding)
        }
    }
}
