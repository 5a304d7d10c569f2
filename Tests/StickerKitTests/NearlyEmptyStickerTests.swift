import ImageCore
import XCTest
@testable import StickerKit

/// A sticker that shows practically nothing is written with a warning in its report (which the
/// CLI prints and puts in --report).
final class NearlyEmptyStickerTests: XCTestCase {
    func testAThinLineBecomesANearlyEmptyStickerWithAWarning() throws {
        // 1×10000 opaque black: contained in a square, it is a column a few hundredths of a pixel
        // wide, every pixel at alpha 5 or less. Main wrote it without a word.
        let line = Image(width: 1, height: 10_000, pixels: [UInt8](repeating: 0, count: 10_000 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : 0 })
        let result = StickerConverter.convert(Animation(still: line), options: ConversionOptions(sizes: [.small, .regular, .large]))
        for (size, outcome) in result.outputs {
            let output = try outcome.get()
            let warning = try XCTUnwrap(output.report.warnings.first { $0.hasPrefix("the sticker is nearly empty") }, "\(size)")
            XCTAssertTrue(warning.hasPrefix("the sticker is nearly empty: no pixel is more than 3 % opaque (the most opaque has alpha "), warning)
        }
    }

    func testAVisibleStickerHasNoSuchWarning() throws {
        // The same line 4 px wide shows: no warning. So does a faint but visible sticker.
        let wide = Image(width: 4, height: 2_000, pixels: (0..<(4 * 2_000 * 4)).map { $0 % 4 == 3 ? 255 : 0 })
        let faint = Image(width: 64, height: 64, pixels: (0..<(64 * 64 * 4)).map { $0 % 4 == 3 ? 9 : 200 })
        for image in [wide, faint] {
            let result = StickerConverter.convert(Animation(still: image), options: ConversionOptions(sizes: [.small]))
            let output = try result.outputs[0].result.get()
            XCTAssertFalse(output.report.warnings.contains { $0.contains("nearly empty") }, "\(output.report.warnings)")
        }
    }

    func testEveryFrameCounts() {
        // An animation whose one frame shows something is not empty; all frames faint is.
        let faint = Image(width: 8, height: 8, pixels: (0..<256).map { $0 % 4 == 3 ? 8 : 0 })
        let solid = Image(width: 8, height: 8, pixels: (0..<256).map { $0 % 4 == 3 ? 255 : 0 })
        func warning(_ frames: [Image]) -> String? {
            var empty = NearlyEmptySticker()
            for frame in frames { frame.pixels.withUnsafeBytes { empty.add($0) } }
            return empty.warning
        }
        XCTAssertNil(warning([faint, solid]))
        XCTAssertEqual(warning([faint, faint]),
                       "the sticker is nearly empty: no pixel is more than 3 % opaque (the most opaque has alpha 8 of 255)")
    }
}
