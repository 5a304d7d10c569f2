import XCTest
@testable import ImageCore

final class ImageFormatTests: XCTestCase {
    func testSignaturesIdentifyFormats() {
        XCTAssertEqual(ImageFormat.identify([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]), .png)
        XCTAssertEqual(ImageFormat.identify(Array("GIF87a".utf8) + [1]), .gif)
        XCTAssertEqual(ImageFormat.identify(Array("GIF89a".utf8)), .gif)
        XCTAssertEqual(ImageFormat.identify([0xFF, 0xD8, 0xFF, 0xE0]), .jpeg)
        XCTAssertEqual(ImageFormat.identify(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8)), .webp)
        // A whole signature or nothing: damaged, cut short, or another RIFF file.
        XCTAssertNil(ImageFormat.identify([0x09, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        XCTAssertNil(ImageFormat.identify([0x89, 0x50, 0x4E, 0x47]))
        XCTAssertNil(ImageFormat.identify(Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WAVE".utf8)))
        XCTAssertNil(ImageFormat.identify([]))
        // An APNG opens as every PNG does.
        XCTAssertEqual(ImageFormat.apng.signatures, ImageFormat.png.signatures)
    }

    func testExtensionsBelongToTheirFormats() {
        XCTAssertEqual(ImageFormat.readableExtensions, ["png", "apng", "gif", "jpg", "jpeg", "jfif", "webp"])
        XCTAssertTrue(ImageFormat.png.fileExtensions.contains("apng"), "an APNG is a PNG file")
        XCTAssertTrue(ImageFormat.apng.fileExtensions.contains("png"))
        XCTAssertEqual(ImageFormat.jpeg.fileExtensions, ["jpg", "jpeg", "jfif"])
        XCTAssertTrue(ImageFormat.unreadExtensions.isDisjoint(with: ImageFormat.readableExtensions))
        for format in ImageFormat.allCases {
            XCTAssertTrue(format.fileExtensions.allSatisfy { $0 == $0.lowercased() }, "\(format)")
        }
    }
}
