import ImageCore

extension OutlineWalk {
    /// WebP: the canvas from the first chunk (VP8X for the extended format, else the VP8 or VP8L
    /// bitstream's header), the loop count from ANIM, one frame and its duration per ANMF.
    mutating func webp() throws {
        format = .webp
        if inspecting, let riffSize = le32(4) {
            // As the decoder reads the RIFF header (`WebPDecoder.checkRIFFSize`).
            guard riffSize > 0 else { throw ImageError(.webp, WebPError.riffSizeZero(fileSize: b.count)) }
            guard riffSize + 8 <= b.count else {
                throw ImageError(.webp, OutlineError.webpTruncated(declared: riffSize + 8, fileSize: b.count))
            }
        }
        var pos = 12
        while let chunk = RIFFChunk.at(pos, in: b) {
            let data = chunk.dataStart
            switch chunk.fourCC {
            case "VP8X" where pos == 12:
                if let w = le24(data + 4), let h = le24(data + 7) { (width, height) = (w + 1, h + 1) }
            case "VP8L" where pos == 12, "VP8 " where pos == 12:
                // A simple lossy file: no alpha anywhere.
                if chunk.fourCC == "VP8 " { mayHaveAlpha = false }
                if let size = bitstreamSize(chunk) { (width, height) = size }
            case "ICCP":
                webpICC = true
            case "ANIM":
                if let loops = le16(data + 4) { loopCount = loops }
            case "ANMF":
                frames += 1
                if let duration = le24(data + 12) { delays.append(Delay(milliseconds: duration)) }
                if let x = le24(data), let y = le24(data + 3), let w = le24(data + 6), let h = le24(data + 9) {
                    // libwebp draws the frame at its bitstream's size, whatever the ANMF header
                    // says (the decoder warns when they differ).
                    let drawn = webpBitstreamSize(from: data + 16, to: chunk.end) ?? (w + 1, h + 1)
                    frameRects.append(PixelRect(x: 2 * x, y: 2 * y, width: drawn.width, height: drawn.height))
                }
            default:
                break
            }
            pos = chunk.next
        }
        if inspecting && width == nil { throw ImageError(.webp, OutlineError.webpNoCanvas(fileSize: b.count)) }
    }

    /// The size an ANMF frame's VP8L or VP8 bitstream header says (its sub-chunks lie from
    /// `start` to `end`, an optional ALPH first), when the header is there.
    private func webpBitstreamSize(from start: Int, to end: Int) -> (width: Int, height: Int)? {
        var pos = start
        while let sub = RIFFChunk.at(pos, in: b), sub.dataStart <= end {
            if sub.fourCC == "VP8L" || sub.fourCC == "VP8 " { return bitstreamSize(sub) }
            pos = sub.next
        }
        return nil
    }

    /// The image size a VP8L or VP8 chunk's bitstream header says, when the header is there.
    private func bitstreamSize(_ chunk: RIFFChunk) -> (width: Int, height: Int)? {
        let d = chunk.dataStart
        if chunk.fourCC == "VP8L" {
            guard u8(d) == 0x2F, let bits = le32(d + 1) else { return nil }
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        }
        guard let w = le16(d + 6), let h = le16(d + 8) else { return nil }
        return (w & 0x3FFF, h & 0x3FFF)
    }
}
