import Foundation
import ImageCore

/// Decodes every frame of an APNG as the specification describes: each frame's data is wrapped
/// into a standalone PNG and decoded by libpng, then composited on a canvas with the frame's
/// blend and dispose ops. Independent of the encoder's own canvas model.
enum APNGTestDecoder {
    struct Decoded {
        var frames: [Image]
        /// Per frame, (numerator, denominator) seconds as written (den 0 read as 100).
        var delays: [(Int, Int)]
        var numPlays: Int
    }

    static func decode(_ bytes: [UInt8]) throws -> Decoded {
        let info = try APNGValidator.validate(bytes)
        guard info.isAnimated else {
            return Decoded(frames: [try LibPNGDecoder.decode(bytes)], delays: [], numPlays: 0)
        }
        let W = info.width, H = info.height
        var canvas = [UInt8](repeating: 0, count: W * H * 4)
        var out = Decoded(frames: [], delays: [], numPlays: info.numPlays ?? 0)
        for (n, frame) in info.frames.enumerated() {
            let fc = frame.control
            let sub = try LibPNGDecoder.decode(standalonePNG(info, width: fc.width, height: fc.height, stream: frame.stream))
            let saved = canvas
            for y in 0..<fc.height {
                for x in 0..<fc.width {
                    let s = (y * fc.width + x) * 4
                    let d = ((fc.y + y) * W + fc.x + x) * 4
                    let sa = Int(sub.pixels[s + 3])
                    if fc.blend == 0 || sa == 255 {
                        for k in 0..<4 { canvas[d + k] = sub.pixels[s + k] }
                    } else if sa > 0 {
                        // Straight-alpha "over", only reached by files other encoders wrote.
                        let da = Int(canvas[d + 3])
                        let oa = sa * 255 + da * (255 - sa)
                        for k in 0..<3 {
                            let num = Int(sub.pixels[s + k]) * sa * 255 + Int(canvas[d + k]) * da * (255 - sa)
                            canvas[d + k] = UInt8((num + oa / 2) / oa)
                        }
                        canvas[d + 3] = UInt8((oa + 127) / 255)
                    }
                }
            }
            out.frames.append(Image(width: W, height: H, pixels: canvas))
            out.delays.append(fc.delay)
            let dispose = n == 0 && fc.dispose == 2 ? 1 : fc.dispose
            if dispose == 1 {
                for y in fc.y..<(fc.y + fc.height) {
                    for i in ((y * W + fc.x) * 4)..<((y * W + fc.x + fc.width) * 4) { canvas[i] = 0 }
                }
            } else if dispose == 2 {
                canvas = saved
            }
        }
        return out
    }

    /// A plain PNG holding one frame: the file's IHDR with the frame's size, PLTE, tRNS, the data.
    static func standalonePNG(_ info: APNGValidator.Result, width: Int, height: Int, stream: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        func chunk(_ type: String, _ data: [UInt8]) {
            let t = Array(type.utf8)
            out += be32(UInt32(data.count)) + t + data + be32(PNGChunkParser.crc32(t + data))
        }
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [UInt8(info.bitDepth), UInt8(info.colorType), 0, 0, 0])
        if let p = info.plte { chunk("PLTE", p) }
        if let t = info.trns { chunk("tRNS", t) }
        chunk("IDAT", stream)
        chunk("IEND", [])
        return out
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }
}
