import Foundation
import XCTest
@testable import StickerKit

/// `LevelSearch`: the highest level within the budget, to the resolution, in few measures.
final class LevelSearchTests: XCTestCase {
    /// Runs the search over `curve`, recording every level measured.
    private func search(_ range: ClosedRange<Int> = 0...100, budget: Double, resolution: Int = 2, known: [Int] = [],
                        _ curve: @escaping (Int) -> Double?) -> (level: Int?, measured: [Int]) {
        var measured: [Int] = []
        let level = LevelSearch.highestFitting(in: range, budget: budget, resolution: resolution, known: known) { l in
            measured.append(l)
            return curve(l)
        }
        return (level, measured)
    }

    func testFindsTheBoundaryOfAGrowingCurveToTheResolution() {
        // Sizes like a codec's: about exponential in the level, with a wobble.
        let curves: [(String, (Int) -> Double)] = [
            ("exponential", { 20_000 * exp(0.04 * Double($0)) }),
            ("steep", { 1_000 * exp(0.09 * Double($0)) }),
            ("wobbly", { 30_000 * exp(0.03 * Double($0)) * (1 + 0.01 * sin(Double($0))) }),
            ("linear", { 5_000 + 9_000 * Double($0) }),
        ]
        for (name, curve) in curves {
            var worst = 0
            for budget in stride(from: curve(3), to: curve(97), by: (curve(97) - curve(3)) / 37) {
                let boundary = (0...100).last { curve($0) <= budget }!
                let (level, measured) = search(budget: budget, curve)
                guard let level else { XCTFail("\(name) \(budget): nothing found"); continue }
                XCTAssertLessThanOrEqual(curve(level), budget, "\(name): the level found fits")
                XCTAssertLessThanOrEqual(boundary - level, 1, "\(name) \(budget): within the resolution of \(boundary)")
                worst = max(worst, Set(measured).count)
            }
            // Halving 0…100 to within 2 levels measures 8 (the middle, an end, then six halvings);
            // interpolation does better on the curves codecs make and, with every other step a
            // halving, not much worse on a straight line (where the logarithm misleads it).
            XCTAssertLessThanOrEqual(worst, ["exponential": 7, "steep": 7, "wobbly": 8, "linear": 10][name]!, name)
        }
    }

    func testAStepInTheCurveIsStillBracketed() {
        // The WebP alpha plane turning lossless at level 43: flat, then a jump.
        let curve: (Int) -> Double = { $0 < 43 ? 180_000 + 500 * Double($0) : 260_000 + 4_000 * Double($0 - 43) }
        for budget in [150_000.0, 190_000, 199_000, 205_000, 262_000, 300_000, 1_000_000] {
            let boundary = (0...100).last { curve($0) <= budget }
            let (level, _) = search(budget: budget, curve)
            XCTAssertEqual(level == nil, boundary == nil, "\(budget)")
            if let level, let boundary {
                XCTAssertLessThanOrEqual(curve(level), budget)
                XCTAssertLessThanOrEqual(boundary - level, 1, "\(budget)")
            }
        }
    }

    func testEndsOfTheRange() {
        XCTAssertNil(search(budget: 10) { _ in 100 }.level, "not even the lowest level fits")
        XCTAssertEqual(search(budget: 1_000) { _ in 100 }.level, 100, "every level fits")
        XCTAssertEqual(search(7...7, budget: 100) { _ in 100 }.level, 7)
        XCTAssertNil(search(7...7, budget: 99) { _ in 100 }.level)
        let failing = search(budget: 1e9) { $0 == 100 ? nil : Double($0) }
        XCTAssertNil(failing.level, "a failed measure ends the search")
    }

    func testLevelsMeasuredBeforeBoundTheSearch() {
        let curve: (Int) -> Double = { 20_000 * exp(0.04 * Double($0)) }
        let budget = curve(46) + 1
        // 40 fits and 52 does not: only levels between them are measured again.
        let (level, measured) = search(budget: budget, known: [0, 40, 52, 100], curve)
        XCTAssertEqual(level, 46)
        let fresh = measured.filter { ![0, 40, 52, 100].contains($0) }
        XCTAssertFalse(fresh.isEmpty)
        XCTAssertTrue(fresh.allSatisfy { (41...51).contains($0) }, "\(fresh)")
        // Known levels that all fit: the search starts from the highest of them.
        let (up, upMeasured) = search(budget: curve(80) + 1, known: [10, 30], curve)
        XCTAssertNotNil(up)
        XCTAssertLessThanOrEqual(80 - up!, 1)
        XCTAssertFalse(upMeasured.contains(50), "no fresh start from the middle: \(upMeasured)")
    }
}
