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
        var sheet = ContactSheet()
        for frame in frames { sheet.add(frame) }
        let png = sheet.png()
        XCTAssertEqual(Artwork.format(of: png), .png)
        XCTAssertEqual(try Artwork.firstFrame(png), sheet.render(), "lossless")
    }
}
