import StickerKit
import StickerPackaging
import XCTest

/// The API a program gets from `import StickerPackaging` (not `@testable`).
final class PackagingPublicAPITests: XCTestCase {
    func testContactSheetPNGHoldsTheSheet() throws {
        let frames = [RGBA(255, 0, 0), RGBA(0, 255, 0)].map { c in
            var img = Image(width: 40, height: 30)
            for y in 0..<30 { for x in 1..<40 { img[x, y] = c } }
            return img
        }
        let sheet = ContactSheet.render(frames)
        let png = ContactSheet.png(sheet)
        XCTAssertEqual(Artwork.format(of: png), .png)
        XCTAssertEqual(try Artwork.firstFrame(png), sheet, "lossless")
    }
}
