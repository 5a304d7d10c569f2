import Foundation
import ImageCore
import XCTest
@testable import StickerKit

/// A conversion lets a large JPEG be decoded reduced (`DecodeReduction`) by the largest sticker it
/// makes, reports the source's own size, and gives the same bytes by rows as whole.
final class DecodeReductionTests: XCTestCase {
    func testFloorIsTheMarginTimesTheLargestSideForPlainContain() {
        let margin = DecodeReduction.margin
        XCTAssertEqual(DecodeReduction.minimumLongSide(ConversionOptions(sizes: [.small, .large])), margin * 618)
        XCTAssertEqual(DecodeReduction.minimumLongSide(ConversionOptions(sizes: [.regular, .small])), margin * 408)
        XCTAssertNil(DecodeReduction.minimumLongSide(ConversionOptions(sizes: [])))
        XCTAssertNil(DecodeReduction.minimumLongSide(ConversionOptions(sizes: [.small], fit: .cover)))
        XCTAssertNil(DecodeReduction.minimumLongSide(ConversionOptions(sizes: [.small], linear: true)))
    }

    func testReducedConversionReportsTheSourceSizeAndAgreesByRows() throws {
        for (name, width, height) in [("large_2560x1600.jpg", 2560, 1600), ("large_orient_6.jpg", 1600, 2560)] {
            let data = try StreamingConversionTests.fixture("jpeg/\(name)")
            var untrimmed: [UInt8]?
            for trim in [false, true] {
                let options = ConversionOptions(sizes: [.small], trim: trim, effort: .fast)
                XCTAssertEqual(DecodeReduction.minimumLongSide(options).map { 2560 >= 2 * $0 }, true, "the fixture is reduced")
                let whole = try StickerConverter.convert(data, options: options, plan: MemoryPlan(options: options))
                XCTAssertEqual(whole.width, width, name)
                XCTAssertEqual(whole.height, height, name)
                let sticker = try whole.outputs[0].result.get()
                XCTAssertEqual(sticker.report.size, 300)
                // An opaque photo trims to itself, reduced or not.
                if let untrimmed { XCTAssertEqual(sticker.bytes, untrimmed, name) } else { untrimmed = sticker.bytes }
                if name == "large_2560x1600.jpg" {
                    let rows = try XCTUnwrap(try StickerConverter.convertByRows(data, options: options))
                    XCTAssertEqual(rows.width, width)
                    XCTAssertEqual(rows.height, height)
                    XCTAssertEqual(try rows.outputs[0].result.get().bytes, sticker.bytes, "\(name), trim \(trim)")
                }
            }
        }
    }
}
