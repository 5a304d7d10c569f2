import ImageCore
import PNGEncoding
import XCTest
@testable import StickerKit

/// `Artwork.resizedByRows` (app icons, pack pictures) keeps within `limits.maxMemory`: a file
/// whose bytes, decoder rows, resizers and workspace would pass it is refused from its structure.
final class ArtworkRowsBudgetTests: XCTestCase {
    /// A 1000² RGBA noise PNG (4 MB that do not compress) and one 512² picture.
    func testAStillPastTheBudgetIsRefusedBeforeItsRowsAreDecoded() throws {
        var state: UInt64 = 7
        var px = [UInt8](repeating: 0, count: 1000 * 1000 * 4)
        for i in px.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            px[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let png = PNGEncoder.encode(Image(width: 1000, height: 1000, pixels: px))
        XCTAssertGreaterThan(png.count, 4_000_000)
        let target = ArtworkResize.rectangle(width: 512, height: 512, fit: .contain, background: nil)
        let least = ConversionMemory.process + png.count + ConversionMemory.stillWorkspace
            + target.memory(canvasWidth: 1000, canvasHeight: 1000)
        var limits = Limits()
        limits.maxMemory = least - 1
        XCTAssertThrowsError(try Artwork.resizedByRows(png, targets: [target], limits: limits)) { error in
            guard let e = error as? ImageError, case .overMemory(let estimate, let max)? = e.reason as? LimitsError else {
                return XCTFail("\(error)")
            }
            XCTAssertGreaterThanOrEqual(estimate, least)
            XCTAssertEqual(max, least - 1)
        }
        limits.maxMemory = least + 1_000_000
        let rows = try XCTUnwrap(try Artwork.resizedByRows(png, targets: [target], limits: limits))
        XCTAssertEqual(rows.images.first?.width, 512)
    }
}
