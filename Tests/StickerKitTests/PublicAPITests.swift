import PNGEncoding
import StickerKit
import XCTest

/// The API a program gets from `import StickerKit` alone (this file does not import it
/// `@testable`): reading artwork, converting frames in memory, the contact sheet as a PNG.
/// Inputs are made with the encoder; results are read back with the library's own API.
final class PublicAPITests: XCTestCase {
    /// Three 40×30 frames, each one flat colour with a transparent first column.
    func frames() -> [Image] {
        [RGBA(255, 0, 0), RGBA(0, 255, 0), RGBA(0, 0, 255)].map { c in
            var img = Image(width: 40, height: 30)
            for y in 0..<30 { for x in 1..<40 { img[x, y] = c } }
            return img
        }
    }

    func apng() throws -> [UInt8] {
        let f = frames()
        return try PNGEncoder.encodeAnimation(frames: f, delays: Array(repeating: Delay(milliseconds: 100), count: f.count), effort: .fast)
    }

    func testFormatIsSniffedFromTheBytes() throws {
        XCTAssertEqual(Artwork.format(of: PNGEncoder.encode(frames()[0], effort: .fast)), .png)
        XCTAssertEqual(Artwork.format(of: Array(try apng().prefix(16))), .png, "sixteen bytes say PNG; only the chunks say APNG")
        XCTAssertEqual(Artwork.format(of: Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 10)), .gif)
        XCTAssertNil(Artwork.format(of: Array("not an image at all".utf8)))
        XCTAssertNil(Artwork.format(of: []))
    }

    func testFirstFrameIsTheFirstFrameAtFullSize() throws {
        let first = try Artwork.firstFrame(try apng())
        XCTAssertEqual(first, frames()[0])
        XCTAssertEqual(try Artwork.firstFrame(PNGEncoder.encode(frames()[2], effort: .fast)), frames()[2])
    }

    func testFirstFrameRefusesWhatIsNoImageOrTooLarge() throws {
        XCTAssertThrowsError(try Artwork.firstFrame(Array("not an image at all".utf8))) { XCTAssertTrue($0 is ImageError, "\($0)") }
        XCTAssertThrowsError(try Artwork.firstFrame(try apng(), limits: Limits(maxWidth: 39))) { XCTAssertTrue($0 is ImageError, "\($0)") }
    }

    func testFramesInMemoryConvertToAStillOrAnAnimation() throws {
        let still = StickerConverter.convert(Animation(still: frames()[0]), options: ConversionOptions(sizes: [.small]))
        XCTAssertEqual(still.format, .png)
        let png = try still.outputs[0].result.get()
        XCTAssertEqual(png.report.frames, 1)
        XCTAssertEqual(try Artwork.firstFrame(png.bytes).width, 300)

        let f = frames()
        let moving = Animation(width: 40, height: 30, frames: f.map { Frame(image: $0, delay: Delay(milliseconds: 250)) })
        let animated = StickerConverter.convert(moving, options: ConversionOptions(sizes: [.small]))
        XCTAssertEqual(animated.format, .apng)
        let apng = try animated.outputs[0].result.get()
        XCTAssertEqual(apng.report.frames, 3)
        XCTAssertEqual(apng.report.durationMs, 750)
        XCTAssertEqual(apng.report.mode, .paletteExact, "four colours fit a palette exactly")
    }
}
