import Foundation
import ImageCore
import XCTest
@testable import StickerKit

/// `StickerConverter.estimatedWork`, which a batch uses to start the longest files first.
final class EstimatedWorkTests: XCTestCase {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples")

    func work(_ name: String, _ sizes: [StickerSize] = [.large]) throws -> Double {
        var options = ConversionOptions()
        options.sizes = sizes
        let data = try Data(contentsOf: Self.samples.appendingPathComponent(name))
        return data.withUnsafeBytes { StickerConverter.estimatedWork($0, options: options) }
    }

    func testAnimationsOutrankStillsAndWorkGrowsWithFramesAndSizes() throws {
        // 34 frames of 480×400 against one 2560×3837 photo: the animation is the longer job.
        let elephant = try work("elephant_480x400_34f.png"), wine = try work("wine_portrait_2560x3837.jpg")
        let maneki = try work("maneki_neko_palette_3f.apng"), heart = try work("noto_1f600_grinning_face_512.png")
        XCTAssertGreaterThan(elephant, wine)
        XCTAssertGreaterThan(elephant, maneki)
        XCTAssertGreaterThan(maneki, heart, "3 frames outrank one of a similar size")
        XCTAssertGreaterThan(try work("elephant_480x400_34f.png", StickerSize.allCases), elephant)
        XCTAssertGreaterThan(try work("cogs_small_transparent.gif"), 0)
        XCTAssertGreaterThan(try work("ring_200_6f.webp"), 0)
    }

    func testUnreadableFilesWeighNothing() {
        XCTAssertEqual([UInt8]().withUnsafeBytes { StickerConverter.estimatedWork($0, options: ConversionOptions()) }, 0)
        XCTAssertEqual(Array("not an image".utf8).withUnsafeBytes { StickerConverter.estimatedWork($0, options: ConversionOptions()) }, 0)
    }
}
