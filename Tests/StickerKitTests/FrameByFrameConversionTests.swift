import ImageCore
import XCTest
@testable import StickerKit

/// `StickerConverter.convert(frameCount:delay:options:frame:)`: frames read one at a time make
/// the stickers the same frames in memory make, each walk reads them in order, and a frame of
/// another size is an error naming both sizes.
final class FrameByFrameConversionTests: XCTestCase {
    func testFramesReadOneAtATimeMakeTheStickersOfTheFramesInMemory() throws {
        let delay = Delay(numerator: 1, denominator: 12)
        let animation = AnimationBudgetTests.animation(frames: 24, side: 160, delay: delay, loops: 0)
        for (sizes, trim) in [([StickerSize.small], false), (StickerSize.allCases, true)] {
            let options = ConversionOptions(sizes: sizes, trim: trim, effort: .fast)
            var reads: [Int] = []
            let streamed = try StickerConverter.convert(frameCount: animation.frames.count, delay: delay, options: options) { i in
                reads.append(i)
                return animation.frames[i].image
            }
            let inMemory = StickerConverter.convert(animation, options: options)
            XCTAssertEqual(streamed.format, .apng)
            XCTAssertEqual(streamed.frames, 24)
            XCTAssertEqual(streamed.width, 160)
            for (a, b) in zip(streamed.outputs, inMemory.outputs) {
                XCTAssertEqual(a.size, b.size)
                XCTAssertEqual(try a.result.get().bytes, try b.result.get().bytes, "\(a.size) trim \(trim)")
            }
            // The first frame is read once and kept; every walk then reads the others in order.
            XCTAssertEqual(reads.first, 0)
            let rest = Array(reads.dropFirst())
            XCTAssertFalse(rest.isEmpty)
            XCTAssertEqual(rest.count % 23, 0)
            for w in stride(from: 0, to: rest.count, by: 23) { XCTAssertEqual(Array(rest[w..<min(rest.count, w + 23)]), Array(1..<24)) }
        }
        // One frame: a still.
        let still = try StickerConverter.convert(frameCount: 1, delay: delay, options: ConversionOptions(effort: .fast)) { _ in
            animation.frames[0].image
        }
        XCTAssertEqual(still.format, .png)
        XCTAssertEqual(try still.outputs[0].result.get().bytes,
                       try StickerConverter.convert(Animation(still: animation.frames[0].image), options: ConversionOptions(effort: .fast))
                        .outputs[0].result.get().bytes)
    }

    func testAFrameOfAnotherSizeIsAnError() {
        let a = Image(width: 40, height: 30), b = Image(width: 30, height: 40)
        XCTAssertThrowsError(try StickerConverter.convert(frameCount: 3, delay: Delay(milliseconds: 100),
                                                          options: ConversionOptions(effort: .fast)) { $0 == 2 ? b : a }) { error in
            XCTAssertEqual(error as? FrameSizeError,
                           FrameSizeError(frame: 2, width: 30, height: 40, expectedWidth: 40, expectedHeight: 30))
            XCTAssertEqual("\(error)", "frame 3 is 30×40, the first frame is 40×30")
        }
    }
}
