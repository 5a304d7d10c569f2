import XCTest
@testable import StickerKit

/// A real encode over the budget only has to say so: `CodecBudgetSearch` asks the codec to stop
/// once the file passes the budget (WebM), and uses the whole file's estimate as it would the
/// size.
final class RealEncodeStopTests: XCTestCase {
    func convert(_ bytes: [UInt8], maxBytes: Int) throws -> ConversionResult {
        var o = ConversionOptions()
        o.target = .telegram
        o.maxBytes = maxBytes
        return try StickerConverter.convert(bytes, options: o)
    }

    /// 28 frames of noise at 512² for Telegram within 100 KB: the last round (14 frames) encodes
    /// its lowest level for real, which passes the budget part-way and stops there; the error
    /// names the whole file's estimate, as such.
    func testARealEncodePastTheBudgetStopsAndTheErrorNamesItsEstimate() throws {
        let r = try convert(try HopelessFloorTests.noise(frames: 28), maxBytes: 100_000)
        guard case .failure(let error) = r.outputs[0].result,
              case .codecOverBudget(_, let smallest, let budget, let level, let kept, _, let estimated) = error else {
            return XCTFail("not over the budget: \(r.outputs[0].result)")
        }
        XCTAssertEqual(budget, 100_000)
        XCTAssertEqual(level, 0)
        XCTAssertEqual(kept, 14)
        XCTAssertTrue(estimated, "the real encode stopped past the budget")
        XCTAssertGreaterThan(r.timings.search.encodes, 0, "a real encode was started")
        XCTAssertGreaterThan(smallest, 100_000)
        XCTAssertLessThan(Double(smallest), CodecBudgetSearch.hopelessLastFloor * 100_000,
                          "a level predicted past this is not encoded at all")
        XCTAssertTrue("\(error)".contains("still takes about \(smallest) bytes"), "\(error)")
    }
}
