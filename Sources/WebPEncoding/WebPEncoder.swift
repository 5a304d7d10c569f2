import CWebPEncode
import ImageCore

/// Entry point of the WebP writer: stills with libwebp's `WebPEncode`, animations with
/// libwebpmux's `WebPAnimEncoder`, lossless or lossy with alpha.
///
/// Deterministic: the same pixels, delays, compression and options give the same bytes, on any
/// thread and at any concurrency (libwebp runs single-threaded here and keeps no state between
/// calls). Safe to call from several threads at once.
public enum WebPEncoder {
    /// The longest side WebP can describe.
    public static let maxSide = 16383

    /// A still WebP (a plain VP8L, or VP8 + ALPH in a VP8X file when the image has alpha and the
    /// compression is lossy). Lossless decodes to exactly `image` (with `options.exact`; without
    /// it, fully transparent pixels may come back with another colour).
    ///
    /// - Throws: `ImageError` (format WebP) with a `WebPEncodingError`: an option out of range or
    ///   an unwritable size (`.parameter`), or libwebp's failure (`.encoding`).
    public static func encode(_ image: Image, compression: WebPCompression, options: WebPOptions = .init()) throws -> [UInt8] {
        try checkSize(width: image.width, height: image.height)
        var config = try WebPSettings.config(compression, options)
        return try WebPFrame.withPicture(image) { picture in
            var writer = WebPMemoryWriter()
            WebPMemoryWriterInit(&writer)
            defer { WebPMemoryWriterClear(&writer) }
            return try withUnsafeMutablePointer(to: &writer) { writerPointer in
                picture.pointee.writer = WebPMemoryWrite
                picture.pointee.custom_ptr = UnsafeMutableRawPointer(writerPointer)
                guard WebPEncode(&config, picture) != 0 else {
                    throw ImageError(.webp, WebPEncodingError.encoderFailed(code: Int(picture.pointee.error_code.rawValue)))
                }
                return Array(UnsafeBufferPointer(start: writerPointer.pointee.mem, count: writerPointer.pointee.size))
            }
        }
    }

    static func checkSize(width: Int, height: Int) throws {
        guard (1...maxSide).contains(width), (1...maxSide).contains(height) else {
            throw ImageError(.webp, WebPEncodingError.unwritableSize(width: width, height: height))
        }
    }
}
