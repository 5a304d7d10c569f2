import ImageCore
import ImageDecoding
import PNGEncoding
import XCTest
@testable import StickerKit

/// `CodecBudgetSearch.hopelessFloor`: while frames can still be dropped, a lowest level whose
/// sampled probe is far over the budget is not encoded whole just to say by how much.
final class HopelessFloorTests: XCTestCase {
    /// `count` frames of 128² RGBA noise at 20 fps: far over any small budget at every level.
    static func noise(frames count: Int) throws -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let frames: [Image] = (0..<count).map { _ in
            var px = [UInt8](repeating: 0, count: 128 * 128 * 4)
            for i in 0..<px.count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                px[i] = UInt8(truncatingIfNeeded: state >> 56)
            }
            return Image(width: 128, height: 128, pixels: px)
        }
        return try PNGEncoder.encodeAnimation(frames: frames, delays: Array(repeating: Delay(milliseconds: 50), count: count),
                                              loopCount: 0, effort: .fast)
    }

    func convert(_ bytes: [UInt8], maxBytes: Int) throws -> ConversionResult {
        var o = ConversionOptions()
        o.target = .whatsapp
        o.maxBytes = maxBytes
        return try StickerConverter.convert(bytes, options: o)
    }

    /// The error of `r`'s one sticker, or a failure.
    func overBudget(_ r: ConversionResult) throws -> (smallest: Int, budget: Int, level: Int, kept: Int, frames: Int, estimated: Bool) {
        guard case .failure(let error) = r.outputs[0].result,
              case .codecOverBudget(_, let smallest, let budget, let level, let kept, let frames, let estimated) = error else {
            throw XCTSkip("not over the budget: \(r.outputs[0].result)")
        }
        return (smallest, budget, level, kept, frames, estimated)
    }

    /// 28 frames at 20 fps are probed by a sample; far over at level 0, they are not encoded
    /// whole. Nor are the 14 left at 10 fps (the last round, probed by a sample too: 5 fps would
    /// pass the 8 fps floor), more than `hopelessLastFloor` times over: the error names their
    /// estimate, and no whole encode is made.
    func testRoundsFarOverMakeNoWholeEncodeAndTheErrorSaysItEstimates() throws {
        let r = try convert(try Self.noise(frames: 28), maxBytes: 20_000)
        let e = try overBudget(r)
        XCTAssertEqual(e.budget, 20_000)
        XCTAssertEqual(e.level, 0)
        XCTAssertEqual(e.frames, 28)
        XCTAssertEqual(e.kept, 14, "the size named is of the last round's frames")
        XCTAssertTrue(e.estimated)
        XCTAssertGreaterThan(Double(e.smallest), CodecBudgetSearch.hopelessLastFloor * 20_000)
        XCTAssertEqual(r.timings.search.encodes, 0, "nothing encoded whole")
        XCTAssertGreaterThan(r.timings.search.predictions, 0)
        XCTAssertEqual(r.timings.search.chosen, 0)
        guard case .failure(let error) = r.outputs[0].result else { return XCTFail("fitted") }
        XCTAssertTrue("\(error)".contains("still takes about \(e.smallest) bytes (estimated from a sample of them)"), "\(error)")
    }

    /// A last round whose lowest level is predicted over the budget but within
    /// `hopelessLastFloor` times it is encoded whole, and the error names that real size; the
    /// round before it, more than `hopelessFloor` times over, is not.
    func testALastRoundNearTheBudgetNamesARealSize() throws {
        let r = try convert(try Self.noise(frames: 28), maxBytes: 400_000)
        let e = try overBudget(r)
        XCTAssertEqual(e.kept, 14)
        XCTAssertFalse(e.estimated)
        XCTAssertGreaterThan(e.smallest, 400_000)
        XCTAssertEqual(r.timings.search.encodes, 1, "only the last round's lowest level is encoded whole")
    }

    /// A sticker found counts the whole encode it was written from as settled on.
    func testASearchThatFitsCountsTheEncodeItSettledOn() throws {
        let r = try convert(try Self.noise(frames: 14), maxBytes: 1_000_000)
        let s = try r.outputs[0].result.get()
        XCTAssertLessThanOrEqual(s.bytes.count, 1_000_000)
        XCTAssertEqual(r.timings.search.chosen, 1)
        XCTAssertGreaterThan(r.timings.search.chosenSeconds, 0)
        XCTAssertLessThanOrEqual(r.timings.search.chosenSeconds, r.timings.search.encodeSeconds)
    }
}
