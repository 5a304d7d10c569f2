import CWebPEncode
import ImageCore

/// A `WebPPicture` over an `Image`'s pixels, alive for one call.
enum WebPFrame {
    /// Runs `body` with a picture holding a copy of `image` as ARGB (what both modes start from:
    /// lossy converts it to YUV with libwebp's own, optionally sharp, conversion), freed after.
    static func withPicture<T>(_ image: Image, _ body: (UnsafeMutablePointer<WebPPicture>) throws -> T) throws -> T {
        try image.pixels.withUnsafeBytes { try withPicture($0, width: image.width, height: image.height, body) }
    }

    /// `withPicture` over the RGBA bytes of a `width × height` image.
    static func withPicture<T>(_ rgba: UnsafeRawBufferPointer, width: Int, height: Int,
                               _ body: (UnsafeMutablePointer<WebPPicture>) throws -> T) throws -> T {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImageError(.webp, WebPEncodingError.encoderFailed(code: Int(VP8_ENC_ERROR_OUT_OF_MEMORY.rawValue)))
        }
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        defer { WebPPictureFree(&picture) }
        let imported = WebPPictureImportRGBA(&picture, rgba.bindMemory(to: UInt8.self).baseAddress, Int32(width * 4))
        guard imported != 0 else {
            throw ImageError(.webp, WebPEncodingError.encoderFailed(code: Int(picture.error_code.rawValue)))
        }
        return try withUnsafeMutablePointer(to: &picture) { try body($0) }
    }
}
