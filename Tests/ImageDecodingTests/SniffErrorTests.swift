import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// A file that is no format stickerkit reads is named by its signature when people take it for
/// artwork (a HEIC photo, an SVG, a .wastickers archive), and by its first bytes otherwise.
final class SniffErrorTests: XCTestCase {
    func testFormatsPeopleTakeForArtworkAreNamed() {
        let ascii = { (s: String) in [UInt8](s.utf8) }
        let cases: [(bytes: [UInt8], name: String)] = [
            ([0, 0, 0, 0x18] + ascii("ftypheic") + [0, 0, 0, 0] + ascii("mif1heic"), "a HEIC/HEIF image"),
            ([0, 0, 0, 0x1C] + ascii("ftypmif1") + [0, 0, 0, 0] + ascii("mif1heic"), "a HEIC/HEIF image"),
            ([0, 0, 0, 0x1C] + ascii("ftypavif") + [0, 0, 0, 0] + ascii("avifmif1"), "an AVIF image"),
            ([0, 0, 0, 0x14] + ascii("ftypqt  ") + [0, 0, 0, 0], "a QuickTime video"),
            ([0, 0, 0, 0x20] + ascii("ftypisom") + [0, 0, 2, 0], "an MP4 file"),
            (ascii("PK") + [3, 4, 10, 0, 0, 0, 8, 0], "a ZIP archive (a .wastickers pack is one; unzip it first)"),
            (ascii("%PDF-1.7\n"), "a PDF document"),
            (ascii("8BPS") + [0, 1, 0, 0, 0, 0], "a Photoshop document"),
            (ascii("II*") + [0, 8, 0, 0, 0], "a TIFF image"),
            (ascii("MM") + [0, 42, 0, 0, 0, 8], "a TIFF image"),
            ([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81], "a WebM/Matroska video"),
            ([0xFF, 0x0A, 0xFA, 0x7F], "a JPEG XL image"),
            (ascii("BM") + [0x36, 0x10, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], "a BMP image"),
            (ascii("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- logo -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), "an SVG image"),
        ]
        for c in cases {
            XCTAssertEqual(SniffError.unrecognised(c.bytes), .otherFormat(c.name), c.name)
            XCTAssertThrowsError(try ImageDecoder.decode(c.bytes)) { error in
                XCTAssertEqual(error as? ImageError, ImageError(nil, SniffError.otherFormat(c.name)), c.name)
                XCTAssertEqual("\(error)", c.name + ": not a format stickerkit reads (it reads PNG, APNG, GIF, JPEG and WebP)")
            }
        }
    }

    /// Text, a signature cut short and a "BM" that is prose keep the first-bytes message.
    func testAnythingElseIsNamedByItsFirstBytes() {
        for text in ["This is not an image", "BMW owners' manual, page 1", "PK", "Some words about <svg> files"] {
            let bytes = [UInt8](text.utf8)
            XCTAssertEqual(SniffError.unrecognised(bytes), .unknownFormat(firstBytes: Array(bytes.prefix(8))), text)
        }
        XCTAssertEqual(SniffError.unrecognised([]), .emptyFile)
    }
}
