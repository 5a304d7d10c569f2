import ImageCore

extension OutlineWalk {
    /// PNG and APNG: chunk by chunk from IHDR. A plan stops at the first IDAT (an `acTL` before it
    /// makes an APNG and holds the frame count); inspecting walks to IEND, checks every CRC, and
    /// counts the `fcTL` chunks against `acTL`.
    mutating func png() throws {
        func fail(_ reason: OutlineError, _ format: ImageFormat = .png) -> ImageError { ImageError(format, reason) }
        format = .png
        var pos = 8
        var sawHeader = false, sawEnd = false, sawImageData = false
        var declaredFrames: Int?
        var frameControls = 0
        var transparency = false
        while pos < b.count {
            guard b.count - pos >= 12, let length = be32(pos), let code = be32(pos + 4) else {
                throw fail(.pngChunkHeaderTruncated(at: pos, fileSize: b.count))
            }
            let type = UInt32(code)
            let name = PNGChunk.name(of: type)
            guard length <= 0x7FFF_FFFF, length <= b.count - pos - 12 else {
                throw fail(.pngChunkPastEnd(chunk: name, at: pos, length: length, left: b.count - pos - 12))
            }
            let data = pos + 8
            if inspecting, let stored = be32(data + length) {
                let computed = PNGChunk.crc(b, chunkAt: pos, length: length)
                if UInt32(stored) != computed {
                    throw fail(.pngChunkCRC(chunk: name, at: pos, stored: UInt32(stored), computed: computed))
                }
            }
            if !sawHeader && type != PNGChunk.IHDR { throw fail(.pngFirstChunkNotHeader(chunk: name)) }
            switch type {
            case PNGChunk.IHDR:
                guard length == 13, let w = be32(data), let h = be32(data + 4), let depth = u8(data + 8),
                      let rawColorType = u8(data + 9) else { throw fail(.pngHeaderLength(length)) }
                guard let colorType = PNGColorType(rawValue: UInt8(rawColorType)) else {
                    throw fail(.pngColorType(UInt8(rawColorType)))
                }
                guard colorType.allowedBitDepths.contains(depth) else { throw fail(.pngBitDepth(depth, colorType: colorType)) }
                guard w > 0, h > 0 else { throw fail(.pngZeroSize(width: w, height: h)) }
                (width, height, pngColorType, pngBitDepth) = (w, h, colorType, depth)
                pngInterlaced = u8(data + 12) == 1
                sawHeader = true
            case PNGChunk.tRNS:
                // A palette's alpha makes pixels transparent only if some entry is below 255.
                if pngColorType == .indexed {
                    if (0..<length).contains(where: { b[data + $0] != 255 }) { transparency = true }
                } else {
                    transparency = true
                }
            case PNGChunk.acTL:
                guard length == 8, let count = be32(data), let plays = be32(data + 4) else {
                    throw fail(.apngControlLength(length), .apng)
                }
                declaredFrames = count
                (format, frames, loopCount) = (.apng, count, plays)
            case PNGChunk.fcTL:
                guard length == 26, let numerator = be16(data + 20), let denominator = be16(data + 22) else {
                    throw fail(.apngFrameControlLength(length), .apng)
                }
                if let w = be32(data + 4), let h = be32(data + 8), let x = be32(data + 12), let y = be32(data + 16) {
                    frameRects.append(PixelRect(x: x, y: y, width: w, height: h))
                }
                if frameControls > 0 && u8(data + 24) == 2 { apngRestoresPrevious = true }
                frameControls += 1
                delays.append(Delay(numerator: numerator, denominator: denominator))
            case PNGChunk.IDAT:
                sawImageData = true
            case PNGChunk.IEND:
                sawEnd = true
            default:
                break
            }
            mayHaveAlpha = pngColorType?.hasAlphaChannel == true || transparency
            // A plan needs nothing past the first image data: the frame count is in acTL. The
            // memory estimate walks on through an APNG's frame controls.
            if sawImageData && !inspecting && !(walksAllFrames && format == .apng) { return }
            pos = data + length + 4
            if sawEnd { break }
        }
        guard inspecting else { return }
        guard sawHeader else { throw fail(.pngNoHeader) }
        guard sawEnd else { throw fail(.pngNoEnd(fileSize: b.count)) }
        guard sawImageData else { throw fail(.pngNoImageData) }
        if let declaredFrames {
            guard declaredFrames >= 1 else { throw fail(.apngZeroFrames, .apng) }
            guard declaredFrames == frameControls else {
                throw fail(.apngFrameCount(declared: declaredFrames, frameControls: frameControls), .apng)
            }
        }
    }
}
