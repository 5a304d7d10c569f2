import XCTest
import TestSupport
@testable import ImageCore

/// `RowDamage.between` against the definition: per row, the first and one past the last column
/// whose pixel differs (any of its four bytes), and no span for a row that is the same.
final class RowDamageTests: XCTestCase {
    func testBetweenMarksEachRowsFirstAndLastDifferingPixel() {
        var rng = SplitMix64(seed: 12345)
        func next(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        for (width, height) in [(1, 1), (1, 7), (3, 5), (64, 9), (301, 17)] {
            for _ in 0..<8 {
                let base = (0..<(width * height * 4)).map { _ in UInt8(next(256)) }
                var changed = base
                // A few changed bytes, anywhere (one byte of a pixel is enough), some rows untouched.
                for _ in 0..<next(2 * height + 1) {
                    let i = next(changed.count)
                    changed[i] = changed[i] &+ UInt8(1 + next(255))
                }
                let d = RowDamage.between(Image(width: width, height: height, pixels: changed),
                                          Image(width: width, height: height, pixels: base))
                for y in 0..<height {
                    let differing = (0..<width).filter { x in
                        (0..<4).contains { changed[(y * width + x) * 4 + $0] != base[(y * width + x) * 4 + $0] }
                    }
                    let expected = differing.isEmpty ? nil : differing.first!..<(differing.last! + 1)
                    XCTAssertEqual(d.span(y), expected, "\(width)×\(height), row \(y)")
                }
            }
        }
        let same = Image(width: 5, height: 3)
        XCTAssertTrue(RowDamage.between(same, same).isEmpty)
    }
}
