import ImageCore
import TestSupport
import XCTest
@testable import PNGEncoding

/// `BandedPNGEncoder`: a picture appended in bands, however cut, is one valid PNG of exactly
/// its pixels (read by libpng, whose zlib checks the joined stream's Adler-32).
final class BandedPNGEncoderTests: XCTestCase {
    /// An opaque picture with flat areas, gradients and noise, so bands pick different filters.
    private static func picture(width: Int, height: Int) -> Image {
        var rng = SplitMix64(seed: 5)
        var img = Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let noise = UInt8(truncatingIfNeeded: rng.next())
                img[x, y] = y < height / 3 ? RGBA(200, 30, 60)
                    : y < 2 * height / 3 ? RGBA(UInt8(x % 256), UInt8(y % 256), UInt8((x + y) % 256))
                    : RGBA(noise, noise &+ 7, 255 &- noise)
            }
        }
        return img
    }

    private static func encode(_ img: Image, bands: [Int]) -> [UInt8] {
        var encoder = BandedPNGEncoder(width: img.width, height: img.height)
        var y = 0
        for rows in bands {
            encoder.append(rgba: Array(img.pixels[(y * img.width * 4)..<((y + rows) * img.width * 4)]))
            y += rows
        }
        return encoder.finish()
    }

    func testAnyCutOfBandsIsThePicture() throws {
        let img = Self.picture(width: 97, height: 61)
        for bands in [[61], [1, 60], [20, 20, 21], Array(repeating: 1, count: 61), [30, 0, 31]] {
            let png = Self.encode(img, bands: bands)
            XCTAssertEqual(try LibPNGDecoder.decode(png), img, "\(bands)")
            let parsed = try PNGChunkParser.parse(png)
            XCTAssertTrue(parsed.allSatisfy { $0.storedCRC == $0.computedCRC }, "\(bands)")
            let chunks = parsed.map(\.type)
            XCTAssertEqual(chunks.first, "IHDR")
            XCTAssertEqual(chunks.last, "IEND")
            XCTAssertEqual(Set(chunks), ["IHDR", "sRGB", "IDAT", "IEND"], "\(bands)")
        }
    }

    /// The bytes depend on the pixels and the cut alone.
    func testTheSameBandsGiveTheSameBytes() {
        let img = Self.picture(width: 64, height: 40)
        XCTAssertEqual(Self.encode(img, bands: [10, 30]), Self.encode(img, bands: [10, 30]))
    }

    /// Alpha is dropped: the file is RGB (colour type 2), and each band is compressed, not stored.
    func testTheFileIsOpaqueRGBAndCompressed() throws {
        var img = Image(width: 300, height: 200)
        for y in 0..<200 { for x in 0..<300 { img[x, y] = RGBA(10, 20, 30) } }
        let png = Self.encode(img, bands: [100, 100])
        XCTAssertEqual(png[25], 2, "colour type")
        XCTAssertLessThan(png.count, 2_000, "300 × 200 flat pixels")
    }
}
