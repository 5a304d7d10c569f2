import XCTest
import ImageCore
@testable import StickerKit

/// When the fitted frames do not fit their store, every walk of the search decodes and fits
/// them again, and fits only the frames the walk wants (a probe at one frame in three fits a
/// third), each with the canvas's changes since the frame fitted before. The stickers must be
/// the bytes of a conversion whose frames stay in the store.
final class ReplayedWalkTests: XCTestCase {
    func testFramesMadeAgainOnlyWhereWantedGiveTheStoredConversionsBytes() throws {
        // 45 frames of noise rectangles over a 48² screen, keeping, clearing and restoring by
        // turns: every kind of canvas change, a few colours more each frame.
        var rand = BudgetSearchTests.Rand(state: 5)
        let frames = (0..<45).map { k -> (rect: PixelRect, disposal: Int, seed: UInt64) in
            let w = 6 + Int(rand.byte()) % 18, h = 6 + Int(rand.byte()) % 18
            let rect = PixelRect(x: Int(rand.byte()) % (48 - w), y: Int(rand.byte()) % (48 - h), width: w, height: h)
            return (rect, 1 + k % 3, UInt64(100 + k))
        }
        let data = MemoryBoundTests.gif(width: 48, height: 48, frames: frames)
        let options = ConversionOptions(sizes: [.small, .regular], maxBytes: 60_000)
        // A plan whose fitted share holds a few frames of noise: every store gives up, and the
        // frames are made again on every walk.
        let tight = MemoryPlan(options: options, available: 4_000_000)
        XCTAssertLessThan(tight.fittedFrames, 45 * 300 * 300)
        let stored = try StickerConverter.convert(data, options: options)
        let replayed = try StickerConverter.convert(data, options: options, plan: tight)
        for k in 0..<2 {
            let a = try stored.outputs[k].result.get(), b = try replayed.outputs[k].result.get()
            XCTAssertLessThan(a.report.frames, a.report.framesInput, "size \(k): frames dropped, so walks skip frames")
            XCTAssertEqual(a.bytes, b.bytes, "size \(k)")
        }
    }
}
