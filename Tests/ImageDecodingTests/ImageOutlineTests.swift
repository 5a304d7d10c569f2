import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// `ImageOutline` against the decoder: the same format, size and frame count on every sample and
/// decodable fixture, and no trap on damaged or truncated files.
final class ImageOutlineTests: XCTestCase {
    /// Every file that decodes strictly: samples and the format fixtures.
    private func decodableFiles() throws -> [(URL, [UInt8], DecodedImage)] {
        var found: [(URL, [UInt8], DecodedImage)] = []
        for folder in ["gif", "webp", "jpeg", "png", "encode"] {
            for url in Hostile.files(under: Hostile.fixtures.appendingPathComponent(folder)) {
                let bytes = try Hostile.bytes(url)
                if let d = try? ImageDecoder.decode(bytes) { found.append((url, bytes, d)) }
            }
        }
        for url in Hostile.files(under: Hostile.samples) {
            let bytes = try Hostile.bytes(url)
            found.append((url, bytes, try ImageDecoder.decode(bytes)))
        }
        return found
    }

    func testOutlineAgreesWithDecoding() throws {
        let files = try decodableFiles()
        XCTAssertGreaterThan(files.count, 20)
        var animated = 0
        for (url, bytes, decoded) in files {
            let name = url.lastPathComponent
            guard let o = ImageOutline.read(bytes) else { XCTFail("\(name): no outline"); continue }
            XCTAssertEqual(o.format, decoded.format, name)
            XCTAssertEqual(o.frameCount, decoded.animation.frames.count, name)
            if o.frameCount > 1 { animated += 1 }
            // JPEG sizes are as stored; EXIF orientation may swap them in the decoded image.
            let size = [o.width, o.height], decodedSize = [decoded.animation.width, decoded.animation.height]
            if o.format == .jpeg {
                XCTAssertEqual(size.sorted(), decodedSize.sorted(), name)
            } else {
                XCTAssertEqual(size, decodedSize, name)
            }
        }
        XCTAssertGreaterThanOrEqual(animated, 3, "APNG, GIF and WebP animations among the samples")
    }

    /// Damaged files and every prefix length (in steps) of the samples: an outline or nil, never a
    /// trap, and never more frames than the whole file announces.
    func testDamagedAndTruncatedFilesGiveAnOutlineOrNil() throws {
        for url in Hostile.files(under: Hostile.fixtures.appendingPathComponent("broken")) {
            _ = ImageOutline.read(try Hostile.bytes(url))
        }
        for url in Hostile.files(under: Hostile.samples) {
            let bytes = try Hostile.bytes(url)
            let whole = ImageOutline.read(bytes)
            let step = max(1, bytes.count / 97)
            var n = 0
            while n < bytes.count {
                if let o = ImageOutline.read(Array(bytes[0..<n])), let w = whole {
                    XCTAssertLessThanOrEqual(o.frameCount, w.frameCount, "\(url.lastPathComponent) cut at \(n)")
                }
                n += step
            }
        }
        XCTAssertNil(ImageOutline.read([]))
        XCTAssertNil(ImageOutline.read(Array("GIF89a".utf8)))
    }

    /// A hand-built GIF with two image descriptors, an extension between them and a local colour
    /// table on the second: the block walk counts both and skips every sub-block by its size.
    func testGIFBlockWalk() {
        var g: [UInt8] = Array("GIF89a".utf8) + [5, 0, 3, 0, 0x80, 0, 0] + [UInt8](repeating: 9, count: 6)
        func image(localTable: Bool) -> [UInt8] {
            [0x2C, 0, 0, 0, 0, 5, 0, 3, 0, localTable ? 0x81 : 0] + (localTable ? [UInt8](repeating: 7, count: 12) : [])
                + [2, 3, 0x2C, 0x21, 0x3B, 0] // LZW code size 2, one 3-byte sub-block that looks like blocks
        }
        g += image(localTable: false)
        g += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
        g += image(localTable: true)
        g += [0x3B]
        XCTAssertEqual(ImageOutline.read(g), ImageOutline(format: .gif, width: 5, height: 3, frameCount: 2))
    }
}
