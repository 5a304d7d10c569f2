import CWebPEncode
import ImageCore

/// Puts a still WebP into an animated container of one frame: for an input that was animated but
/// whose frames all merged into one, which libwebp's animation encoder writes as a still (and
/// libwebpmux's muxer also turns a lone full-canvas frame back into a still, so the few chunks are
/// written here: VP8X with the animation flag, ANIM, one ANMF holding the still's image chunks).
enum WebPAnimationWrapper {
    /// True when `bytes` (a WebP file libwebp wrote) has the animation flag.
    static func isAnimated(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let mux = WebPMuxCreate(&data, 0) else { return false }
            defer { WebPMuxDelete(mux) }
            var flags: UInt32 = 0
            return WebPMuxGetFeatures(mux, &flags) == WEBP_MUX_OK && flags & ANIMATION_FLAG.rawValue != 0
        }
    }

    /// An animated WebP (`width × height`) whose one frame is the still `bytes`, shown for
    /// `milliseconds` (at most 2²⁴ − 1), with no blending and no disposal.
    static func animation(ofStill bytes: [UInt8], width: Int, height: Int, hasAlpha: Bool, milliseconds: Int,
                          loopCount: Int) throws -> [UInt8] {
        guard milliseconds <= 0xFF_FFFF else { throw ImageError(.webp, WebPEncodingError.tooLong(milliseconds: milliseconds)) }
        // The still's image chunks (ALPH + VP8, or VP8L), without RIFF header or VP8X.
        var image: [UInt8] = []
        var at = 12
        while at + 8 <= bytes.count {
            let tag = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let size = le(bytes, at + 4)
            let end = min(bytes.count, at + 8 + size + (size & 1))
            if tag == "ALPH" || tag == "VP8 " || tag == "VP8L" { image += bytes[at..<end] }
            at = end
        }
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [hasAlpha ? 0x12 : 0x02, 0, 0, 0] + u24(width - 1) + u24(height - 1))
        body += chunk("ANIM", [0, 0, 0, 0] + [UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)])
        body += chunk("ANMF", u24(0) + u24(0) + u24(width - 1) + u24(height - 1) + u24(milliseconds) + [0x02] + image)
        return Array("RIFF".utf8) + u32(body.count) + body
    }

    private static func chunk(_ tag: String, _ payload: [UInt8]) -> [UInt8] {
        Array(tag.utf8) + u32(payload.count) + payload + (payload.count & 1 == 1 ? [0] : [])
    }

    private static func u24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
    private static func u32(_ v: Int) -> [UInt8] { u24(v) + [UInt8(v >> 24 & 0xFF)] }
    private static func le(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 | Int(b[i + 3]) << 24
    }
}
