import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// `ImageDecoder.decodeRows` (a still row by row, never whole) gives the rows, warnings and
/// errors of `decode`, and `ImageOutline.rowDecodingMemory` says which files it takes.
final class RowDecodingTests: XCTestCase {
    /// The rows of a row decode put together, with its facts; nil when it declined the file.
    static func rows(_ bytes: [UInt8], options: DecodeOptions) throws -> (image: Image, info: FrameStreamInfo)? {
        var pixels: [UInt8] = []
        var width = 0, next = 0
        let info = try ImageDecoder.decodeRows(bytes, options: options, start: { w, h in
            width = w
            pixels.reserveCapacity(w * h * 4)
        }, row: { row, y in
            XCTAssertEqual(y, next)
            next += 1
            pixels += UnsafeRawBufferPointer(start: row, count: width * 4)
        })
        guard let info else {
            XCTAssertEqual(next, 0, "rows delivered before declining")
            return nil
        }
        return (Image(width: info.width, height: info.height, pixels: pixels), info)
    }

    func testEveryJPEGFixtureDecodesByRowsAsWhole() throws {
        let dir = OtherFormatFixture.root.appendingPathComponent("jpeg")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".jpg") }.sorted()
        XCTAssertGreaterThan(names.count, 10)
        var streamed = 0
        for name in names {
            let bytes = try OtherFormatFixture.bytes("jpeg/\(name)")
            let whole = try ImageDecoder.decode(bytes)
            let memory = bytes.withUnsafeBytes { ImageOutline.rowDecodingMemory($0) }
            guard let (image, info) = try Self.rows(bytes, options: .init()) else {
                XCTAssertTrue(whole.warnings.contains { $0.hasPrefix("applied EXIF orientation") }, "\(name) declined")
                XCTAssertNil(memory, "\(name): the outline says it decodes by rows")
                continue
            }
            streamed += 1
            XCTAssertNotNil(memory, name)
            XCTAssertEqual(image, whole.animation.frames[0].image, name)
            XCTAssertEqual(info.warnings, whole.warnings, name)
            XCTAssertEqual(info.format, .jpeg)
        }
        // orient_1 (the tag says "as stored"), gray, CMYK, progressive and the ICC-tagged photo.
        XCTAssertGreaterThanOrEqual(streamed, 5)
    }

    func testCutJPEGsFailOrKeepTheSameRowsAsWhole() throws {
        for name in ["rocket_640x427.jpg", "cmyk.jpg", "progressive.jpg", "gray.jpg"] {
            let bytes = try OtherFormatFixture.bytes("jpeg/\(name)")
            for cut in OtherFormatFixture.cutPoints(bytes.count, steps: 12) where cut > 0 {
                let part = Array(bytes.prefix(cut))
                for lenient in [false, true] {
                    let options = DecodeOptions(lenient: lenient)
                    let whole = Result { try ImageDecoder.decode(part, options: options) }
                    let rows = Result { try Self.rows(part, options: options) }
                    switch (whole, rows) {
                    case let (.success(w), .success(r?)):
                        XCTAssertEqual(r.image, w.animation.frames[0].image, "\(name) cut at \(cut), lenient \(lenient)")
                        XCTAssertEqual(r.info.warnings, w.warnings, "\(name) cut at \(cut)")
                    case let (.failure(a), .failure(b)):
                        XCTAssertEqual("\(a)", "\(b)", "\(name) cut at \(cut)")
                    case (.failure, .success(nil)) where ImageDecoder.sniff(part) != .jpeg:
                        break   // not a JPEG by its first bytes: declined, the whole decode says why
                    default:
                        XCTFail("\(name) cut at \(cut), lenient \(lenient): whole \(whole), rows \(rows)")
                    }
                }
            }
        }
    }

    func testAnRGBProfileConvertsEachRowAsTheWholeImage() throws {
        // The photo carries Adobe RGB (1998): converted, with the same note.
        let bytes = try OtherFormatFixture.bytes("jpeg/rocket_640x427.jpg")
        let whole = try ImageDecoder.decode(bytes)
        XCTAssertTrue(whole.warnings.contains { $0.contains("ICC profile") }, "\(whole.warnings)")
        let rows = try XCTUnwrap(try Self.rows(bytes, options: .init()))
        XCTAssertEqual(rows.image, whole.animation.frames[0].image)
    }

    func testAnimationsAreDeclined() throws {
        let gif = try OtherFormatFixture.bytes("gif/disposal.gif")
        XCTAssertNil(try Self.rows(gif, options: .init()))
        XCTAssertNil(gif.withUnsafeBytes { ImageOutline.rowDecodingMemory($0) })
    }
}
