import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// `DecodeOptions.minimumLongSide`: libjpeg's DCT scaling picks the largest denominator that keeps
/// the long side, the reduced image has libjpeg's size, the row and whole decodes still agree, and
/// what must not be reduced is not.
final class JPEGScaleTests: XCTestCase {
    func testDenominatorIsTheLargestThatKeepsTheLongSide() {
        XCTAssertEqual(JPEGScale.denominator(width: 2560, height: 1600, minimumLongSide: nil), 1)
        XCTAssertEqual(JPEGScale.denominator(width: 2560, height: 1600, minimumLongSide: 0), 1)
        // Exactly twice the floor is reduced; one pixel less is not.
        XCTAssertEqual(JPEGScale.denominator(width: 2400, height: 1600, minimumLongSide: 1200), 2)
        XCTAssertEqual(JPEGScale.denominator(width: 2399, height: 1600, minimumLongSide: 1200), 1)
        // The long side counts, whichever it is.
        XCTAssertEqual(JPEGScale.denominator(width: 1600, height: 2400, minimumLongSide: 1200), 2)
        XCTAssertEqual(JPEGScale.denominator(width: 4800, height: 100, minimumLongSide: 1200), 4)
        XCTAssertEqual(JPEGScale.denominator(width: 9599, height: 9599, minimumLongSide: 1200), 4)
        XCTAssertEqual(JPEGScale.denominator(width: 9600, height: 9600, minimumLongSide: 1200), 8)
        XCTAssertEqual(JPEGScale.denominator(width: 100_000, height: 10, minimumLongSide: 1200), 8)
        XCTAssertEqual(JPEGScale.denominator(width: 640, height: 427, minimumLongSide: 2472), 1)
        for (w, h, floor) in [(5312, 2988, 2472), (4224, 3168, 1632), (2560, 3837, 1200), (641, 3, 80)] {
            let d = JPEGScale.denominator(width: w, height: h, minimumLongSide: floor)
            XCTAssertGreaterThanOrEqual(max(w, h) / d, floor, "\(w)×\(h) at \(floor)")
            if d < 8 { XCTAssertLessThan(max(w, h) / (d * 2), floor, "\(w)×\(h) at \(floor): \(d * 2) also keeps it") }
        }
    }

    func testReducedDecodeHasLibjpegsSizeAndKeepsTheSourceSize() throws {
        let bytes = try OtherFormatFixture.bytes("jpeg/large_2560x1600.jpg")
        let full = try ImageDecoder.decode(bytes).animation.frames[0].image
        for (floor, d) in [(nil, 1), (1281, 1), (1280, 2), (640, 4), (320, 8), (1, 8)] as [(Int?, Int)] {
            let options = DecodeOptions(minimumLongSide: floor)
            let (decoded, info) = try Self.frames(bytes, options: options)
            XCTAssertEqual(decoded.width, (2560 + d - 1) / d, "floor \(String(describing: floor))")
            XCTAssertEqual(decoded.height, (1600 + d - 1) / d, "floor \(String(describing: floor))")
            XCTAssertEqual(info.width, decoded.width)
            XCTAssertEqual(info.height, decoded.height)
            XCTAssertEqual(info.sourceWidth, 2560)
            XCTAssertEqual(info.sourceHeight, 1600)
            if d == 1 {
                XCTAssertEqual(decoded, full)
            } else {
                // The reduced IDCT is close to the d × d box average of the full decode.
                XCTAssertLessThan(Self.meanDifferenceFromBoxAverage(decoded, full, d), 2.0, "1/\(d)")
            }
        }
    }

    func testRowAndWholeDecodesAgreeWhenReduced() throws {
        for name in ["large_2560x1600.jpg", "rocket_640x427.jpg", "progressive.jpg", "gray.jpg"] {
            let bytes = try OtherFormatFixture.bytes("jpeg/\(name)")
            for floor in [1, 10, 100, 1000] {
                let options = DecodeOptions(minimumLongSide: floor)
                let whole = try ImageDecoder.decode(bytes, options: options)
                let rows = try XCTUnwrap(try RowDecodingTests.rows(bytes, options: options), name)
                XCTAssertEqual(rows.image, whole.animation.frames[0].image, "\(name) at \(floor)")
                XCTAssertEqual(rows.info.warnings, whole.warnings, "\(name) at \(floor)")
            }
        }
    }

    func testEXIFTurnedFileIsReducedThenTurned() throws {
        let bytes = try OtherFormatFixture.bytes("jpeg/large_orient_6.jpg")
        let (image, info) = try Self.frames(bytes, options: DecodeOptions(minimumLongSide: 640))
        XCTAssertEqual(image.width, 400)
        XCTAssertEqual(image.height, 640)
        XCTAssertEqual(info.sourceWidth, 1600)
        XCTAssertEqual(info.sourceHeight, 2560)
        // The same pixels as the stored file reduced, turned 90° clockwise.
        let stored = try ImageDecoder.decode(OtherFormatFixture.bytes("jpeg/large_2560x1600.jpg"),
                                             options: DecodeOptions(minimumLongSide: 640)).animation.frames[0].image
        for (x, y) in [(0, 0), (399, 0), (0, 639), (399, 639), (123, 456)] {
            // Orientation 6: displayed (x, y) is stored (y, storedHeight − 1 − x).
            XCTAssertEqual(Self.pixel(image, x, y), Self.pixel(stored, y, stored.height - 1 - x), "(\(x), \(y))")
        }
    }

    func testCMYKAndSmallFilesAreNotReduced() throws {
        for name in ["cmyk.jpg", "rocket_640x427.jpg", "gray.jpg"] {
            let bytes = try OtherFormatFixture.bytes("jpeg/\(name)")
            let full = try ImageDecoder.decode(bytes)
            // CMYK: never; the others: a floor above half their long side.
            let floor = name == "cmyk.jpg" ? 1 : max(full.animation.width, full.animation.height) / 2 + 1
            let kept = try ImageDecoder.decode(bytes, options: DecodeOptions(minimumLongSide: floor))
            XCTAssertEqual(kept.animation.frames[0].image, full.animation.frames[0].image, name)
            XCTAssertEqual(kept.warnings, full.warnings, name)
        }
    }

    // MARK: - Helpers

    static func frames(_ bytes: [UInt8], options: DecodeOptions) throws -> (Image, FrameStreamInfo) {
        var image: Image?
        let info = try ImageDecoder.decodeFrames(bytes, options: options) { image = $0.image }
        return (try XCTUnwrap(image), info)
    }

    static func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let i = (y * image.width + x) * 4
        return Array(image.pixels[i..<i + 4])
    }

    /// Mean absolute difference over RGB between `reduced` and the d × d box average of `full`
    /// (whole blocks only).
    static func meanDifferenceFromBoxAverage(_ reduced: Image, _ full: Image, _ d: Int) -> Double {
        var total = 0.0, count = 0
        for y in 0..<(full.height / d) {
            for x in 0..<(full.width / d) {
                for c in 0..<3 {
                    var sum = 0
                    for yy in 0..<d { for xx in 0..<d { sum += Int(full.pixels[((y * d + yy) * full.width + x * d + xx) * 4 + c]) } }
                    let average = Double(sum) / Double(d * d)
                    total += abs(average - Double(reduced.pixels[(y * reduced.width + x) * 4 + c]))
                    count += 1
                }
            }
        }
        return total / Double(count)
    }

    /// The memory estimate counts the image at the size the decode gives it: a turned file's
    /// image and its turned copy reduced alike, rows of the reduced width, and the image of a
    /// file that is never reduced (CMYK) at full size.
    func testMemoryEstimatesCountTheImageAtItsDecodedSize() throws {
        func whole(_ bytes: [UInt8], _ floor: Int?) -> Int? {
            bytes.withUnsafeBytes { ImageOutline.decodingMemory($0, minimumLongSide: floor) }
        }
        func rows(_ bytes: [UInt8], _ floor: Int?) -> Int? {
            bytes.withUnsafeBytes { ImageOutline.rowDecodingMemory($0, minimumLongSide: floor) }
        }
        // Stored 2560×1600, baseline, turned by its EXIF orientation: two images.
        let turned = try OtherFormatFixture.bytes("jpeg/large_orient_6.jpg")
        XCTAssertEqual(whole(turned, nil), 2 * 2560 * 1600 * 4)
        XCTAssertEqual(whole(turned, 640), 2 * 640 * 400 * 4)
        XCTAssertEqual(whole(turned, 641), 2 * 1280 * 800 * 4)
        // What the decode really makes at that floor.
        let (image, _) = try Self.frames(turned, options: DecodeOptions(minimumLongSide: 640))
        XCTAssertEqual(2 * image.width * image.height * 4, whole(turned, 640))
        // Not turned: one image; its rows, of the reduced width.
        let stored = try OtherFormatFixture.bytes("jpeg/large_2560x1600.jpg")
        XCTAssertEqual(whole(stored, 640), 640 * 400 * 4)
        XCTAssertEqual(rows(stored, nil), 2560 * 4 * 64)
        XCTAssertEqual(rows(stored, 640), 640 * 4 * 64)
        XCTAssertNil(rows(turned, 640))
        // CMYK is decoded at full size whatever the floor.
        let cmyk = try OtherFormatFixture.bytes("jpeg/cmyk.jpg")
        XCTAssertEqual(whole(cmyk, 8), whole(cmyk, nil))
        // A progressive file's coefficients are the file's, whatever the scale.
        let progressive = try OtherFormatFixture.bytes("jpeg/progressive.jpg")
        let info = try XCTUnwrap(progressive.withUnsafeBytes { ImageOutline.read($0) })
        let reduced = try XCTUnwrap(whole(progressive, 1)), full = try XCTUnwrap(whole(progressive, nil))
        let d = JPEGScale.denominator(width: info.width, height: info.height, minimumLongSide: 1)
        XCTAssertEqual(d, 8)
        XCTAssertEqual(full - reduced, info.width * info.height * 4
                       - JPEGScale.reduced(info.width, by: d) * JPEGScale.reduced(info.height, by: d) * 4)
        XCTAssertGreaterThan(reduced, JPEGScale.reduced(info.width, by: d) * JPEGScale.reduced(info.height, by: d) * 4)
    }
}
