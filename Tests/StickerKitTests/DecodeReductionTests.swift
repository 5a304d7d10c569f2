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

    func testPlatformsReduceByTheirOwnLargestSide() {
        let margin = DecodeReduction.margin
        func floor(_ target: StickerTarget, fit: FitMode = .contain, linear: Bool = false) -> Int? {
            var options = ConversionOptions(sizes: [.large], fit: fit, linear: linear)
            options.target = target
            return DecodeReduction.minimumLongSide(options)
        }
        // The platform's square, whatever `sizes` holds (only Messages reads it).
        XCTAssertEqual(floor(.whatsapp), margin * 512)
        XCTAssertEqual(floor(.discord), margin * 320)
        // LINE's canvas follows the artwork: its longest box side (stills 370 × 320).
        XCTAssertEqual(floor(.line), margin * 370)
        XCTAssertNil(floor(.whatsapp, fit: .cover))
        XCTAssertNil(floor(.discord, linear: true))
    }

    func testAPlatformDecodesALargeTurnedJPEGReducedWithinTheBudget() throws {
        // 10000² turned by EXIF: two 400 MB images at full size, refused before platforms were
        // reduced; at 1/4 (WhatsApp's 512 px needs 2048) two of 25 MB.
        let jpeg = MemoryBoundTests.withOrientation(try MemoryBoundTests.jpeg("rocket_640x427.jpg", claiming: 10_000, 10_000), 6)
        var options = ConversionOptions(effort: .fast, lenient: true)
        options.target = .whatsapp
        let memory = ConversionMemory(jpeg, options: options)
        XCTAssertEqual(memory.estimate - ConversionMemory.process - ConversionMemory.stillWorkspace - jpeg.count - StickerSize.regular.pixels * StickerSize.regular.pixels
                       * ConversionMemory.perStickerPixel, 2 * 2500 * 2500 * 4)
        let result = try StickerConverter.convert(jpeg, options: options)
        XCTAssertEqual(result.width, 10_000)
        let sticker = try result.outputs[0].result.get()
        XCTAssertEqual(sticker.report.size, 512)
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
