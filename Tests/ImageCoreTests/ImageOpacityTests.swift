import XCTest
@testable import ImageCore

final class ImageOpacityTests: XCTestCase {
    /// One pixel's alpha below 255, at every position of images of 1…40 pixels (whole blocks of
    /// eight pixels and the rest), and in an image of 512² (the last pixel, a middle one): not
    /// opaque; the same images with that pixel back at 255 are. Colour bytes of 0 and 255 never
    /// count.
    func testOneTranslucentPixelAnywhereMakesTheImageNotOpaque() {
        for count in 1...40 {
            var pixels = [UInt8](repeating: 0, count: count * 4)
            for i in 0..<count { pixels[i * 4 + 3] = 255 }
            XCTAssertTrue(Image(width: count, height: 1, pixels: pixels).isOpaque, "\(count) opaque pixels")
            for k in 0..<count {
                for alpha: UInt8 in [0, 254, 127] {
                    var p = pixels
                    p[k * 4 + 3] = alpha
                    p[k * 4] = 255
                    XCTAssertFalse(Image(width: count, height: 1, pixels: p).isOpaque, "pixel \(k) of \(count) at alpha \(alpha)")
                }
            }
        }
        var large = [UInt8](repeating: 255, count: 512 * 512 * 4)
        XCTAssertTrue(large.withUnsafeBytes { Image.isOpaque(rgba: $0) })
        for k in [512 * 512 - 1, 512 * 256 + 7] {
            large[k * 4 + 3] = 0xFE
            XCTAssertFalse(large.withUnsafeBytes { Image.isOpaque(rgba: $0) }, "pixel \(k)")
            large[k * 4 + 3] = 255
        }
    }
}
