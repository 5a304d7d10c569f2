import CPNG
import Foundation
import ImageCore

/// Decodes PNG bytes with libpng's simplified API: the independent reader the round-trip tests
/// compare against.
enum LibPNGDecoder {
    // `PNG_FORMAT_RGBA` is built with `|`, so Swift does not import it.
    static let formatRGBA: UInt32 = 0x01 | 0x02
    static let imageVersion: UInt32 = 1

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func decode(_ bytes: [UInt8]) throws -> Image {
        var image = png_image()
        image.version = imageVersion
        let begun = bytes.withUnsafeBytes { b in
            png_image_begin_read_from_memory(&image, b.baseAddress, b.count)
        }
        guard begun != 0 else { throw Failure(description: "libpng: \(message(of: &image))") }
        defer { png_image_free(&image) }
        image.format = formatRGBA
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let done = pixels.withUnsafeMutableBytes { p in
            png_image_finish_read(&image, nil, p.baseAddress, Int32(width * 4), nil)
        }
        guard done != 0 else { throw Failure(description: "libpng: \(message(of: &image))") }
        return Image(width: width, height: height, pixels: pixels)
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
