import CWebPEncode
import ImageCore

/// A `WebPPicture` over an `Image`'s pixels, alive for one call.
enum WebPFrame {
    /// Runs `body` with a picture holding a copy of `image` as ARGB (what both modes start from:
    /// lossy converts it to YUV with libwebp's own, optionally sharp, conversion), freed after.
    static func withPicture<T>(_ image: Image, _ body: (UnsafeMutablePointer<WebPPicture>) throws -> T) throws -> T {
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw ImageError(.webp, WebPEncodingError.encoderFailed(code: Int(VP8_ENC_ERROR_OUT_OF_MEMORY.rawValue)))
        }
        picture.use_argb = 1
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        defer { WebPPictureFree(&picture) }
        let imported = image.pixels.withUnsafeBufferPointer {
            WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(image.bytesPerRow))
        }
        guard imported != 0 else {
            throw ImageError(.webp, WebPEncodingError.encoderFailed(code: Int(picture.error_code.rawValue)))
        }
        return try withUnsafeMutablePointer(to: &picture) { try body($0) }
    }
}
