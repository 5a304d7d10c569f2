import CWebPEncode
import ImageCore

/// Turns a compression and options into libwebp's `WebPConfig`, checking every value first.
enum WebPSettings {
    static func config(_ compression: WebPCompression, _ options: WebPOptions) throws -> WebPConfig {
        try check(options)
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw ImageError(.webp, WebPEncodingError.encoderFailed(code: Int(VP8_ENC_ERROR_INVALID_CONFIGURATION.rawValue)))
        }
        config.method = Int32(options.method)
        config.exact = options.exact ? 1 : 0
        config.thread_level = 0
        switch compression {
        case .lossless:
            config.lossless = 1
            config.quality = Float(options.losslessEffort)
        case .lossy(let quality):
            guard (0...100).contains(quality) else { throw ImageError(.webp, WebPEncodingError.quality(quality)) }
            config.lossless = 0
            config.quality = Float(quality)
            config.alpha_quality = Int32(options.alphaQuality)
            config.use_sharp_yuv = options.sharpYUV ? 1 : 0
        }
        guard WebPValidateConfig(&config) != 0 else {
            throw ImageError(.webp, WebPEncodingError.encoderFailed(code: Int(VP8_ENC_ERROR_INVALID_CONFIGURATION.rawValue)))
        }
        return config
    }

    static func check(_ options: WebPOptions) throws {
        guard (0...6).contains(options.method) else { throw ImageError(.webp, WebPEncodingError.method(options.method)) }
        guard (0...100).contains(options.losslessEffort) else {
            throw ImageError(.webp, WebPEncodingError.losslessEffort(options.losslessEffort))
        }
        guard (0...100).contains(options.alphaQuality) else {
            throw ImageError(.webp, WebPEncodingError.alphaQuality(options.alphaQuality))
        }
        if let k = options.keyframeSpacing {
            let allowed = k.upperBound == 1 || (k.lowerBound >= k.upperBound / 2 + 1 && k.lowerBound < k.upperBound)
            guard allowed, k.lowerBound >= 0 else {
                throw ImageError(.webp, WebPEncodingError.keyframeSpacing(minimum: k.lowerBound, maximum: k.upperBound))
            }
        }
    }
}
