import ImageCore

/// Keeps an animation animated when libwebp's animation encoder left one frame (it merges
/// identical frames): a one-frame result is written as a still, or as an animation of one ANMF,
/// and both count as a still to apps and checks that count an animation by its frames (and
/// libwebpmux's muxer turns a lone full-canvas ANMF back into a still, so the chunks are written
/// here). The one frame is repeated, one ANMF per duration, each holding the same image chunks:
/// VP8X with the animation flag, ANIM, then the ANMF frames.
enum WebPAnimationWrapper {
    /// `bytes` (a WebP file libwebp wrote, `width × height`) as an animation of one frame per
    /// entry of `durations` (milliseconds, each at most 2²⁴ − 1), every one the image of its one
    /// frame (a lone ANMF keeps its rectangle), with no blending and no disposal, so each shows
    /// exactly what the one frame showed; nil when it holds more than one frame.
    static func repeatingItsOneFrame(_ bytes: [UInt8], width: Int, height: Int, hasAlpha: Bool, durations: [Int],
                                     loopCount: Int) throws -> [UInt8]? {
        for ms in durations where ms > 0xFF_FFFF { throw ImageError(.webp, WebPEncodingError.tooLong(milliseconds: ms)) }
        var image: [UInt8] = []            // a still's image chunks (ALPH + VP8, or VP8L)
        var frames: [ArraySlice<UInt8>] = []   // ANMF payloads
        var at = 12
        while at + 8 <= bytes.count {
            let tag = String(decoding: bytes[at..<at + 4], as: UTF8.self)
            let size = le(bytes, at + 4)
            let end = min(bytes.count, at + 8 + size + (size & 1))
            if tag == "ALPH" || tag == "VP8 " || tag == "VP8L" { image += bytes[at..<end] }
            if tag == "ANMF" { frames.append(bytes[at + 8..<min(bytes.count, at + 8 + size)]) }
            at = end
        }
        guard frames.count <= 1 else { return nil }
        // Rectangle, then duration (3 bytes), then flags and the image chunks.
        let frame = frames.first.map(Array.init)
            ?? u24(0) + u24(0) + u24(width - 1) + u24(height - 1) + u24(0) + [0x02] + image
        var body = Array("WEBP".utf8)
        body += chunk("VP8X", [hasAlpha ? 0x12 : 0x02, 0, 0, 0] + u24(width - 1) + u24(height - 1))
        body += chunk("ANIM", [0, 0, 0, 0] + [UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)])
        for ms in durations {
            body += chunk("ANMF", frame[0..<12] + u24(ms) + [0x02] + frame[16...])
        }
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
