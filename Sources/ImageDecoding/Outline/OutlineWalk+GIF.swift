import ImageCore

extension OutlineWalk {
    /// GIF: the logical screen, then every block; image descriptors are counted, each data
    /// sub-block skipped by its size. Graphic control extensions give the next frame's delay and
    /// transparency; a NETSCAPE2.0 application extension gives the loop count. Pixels no frame
    /// has drawn are transparent (as in browsers), so a first frame that does not cover the screen,
    /// or a frame disposed to the background or to the previous screen that does not cover it,
    /// may leave alpha even without a transparent index.
    mutating func gif() throws {
        func fail(_ reason: OutlineError) -> ImageError { ImageError(.gif, reason) }
        format = .gif
        loopCount = 1
        mayHaveAlpha = false
        guard b.count >= 13, let w = le16(6), let h = le16(8), let flags = u8(10) else {
            throw fail(.gifHeaderTruncated(fileSize: b.count))
        }
        (width, height) = (w, h)
        var pos = 13 + (flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0)
        var pendingDelay = 0
        var pendingDisposal = 0
        func skipSubBlocks(_ p: inout Int) throws {
            while true {
                guard let n = u8(p) else { throw fail(.gifSubBlocksTruncated(at: p)) }
                p += 1 + n
                if n == 0 { return }
            }
        }
        walk: while true {
            guard let introducer = u8(pos) else { throw fail(.gifNoTrailer(frames: frames, fileSize: b.count)) }
            switch introducer {
            case 0x21:
                guard pos + 2 < b.count else { throw fail(.gifExtensionTruncated(at: pos)) }
                let label = b[pos + 1]
                if label == 0xF9, pos + 7 < b.count, b[pos + 2] == 4, let delay = le16(pos + 4) {
                    pendingDelay = delay
                    if b[pos + 3] & 1 != 0 { mayHaveAlpha = true }
                    pendingDisposal = Int((b[pos + 3] >> 2) & 7)
                    if pendingDisposal == 3 { gifRestoresPrevious = true }
                } else if label == 0xFF, pos + 18 < b.count, b[pos + 2] == 11,
                          b[(pos + 3)..<(pos + 14)].elementsEqual("NETSCAPE2.0".utf8), b[pos + 15] == 1,
                          let loops = le16(pos + 16) {
                    loopCount = loops
                }
                pos += 2
                try skipSubBlocks(&pos)
            case 0x2C:
                guard pos + 10 < b.count else { throw fail(.gifDescriptorTruncated(at: pos)) }
                if let x = le16(pos + 1), let y = le16(pos + 3), let fw = le16(pos + 5), let fh = le16(pos + 7) {
                    let rect = PixelRect(x: x, y: y, width: fw, height: fh)
                    frameRects.append(rect)
                    let coversScreen = x == 0 && y == 0 && fw >= w && fh >= h
                    if !coversScreen && (frames == 0 || pendingDisposal == 2 || pendingDisposal == 3) { mayHaveAlpha = true }
                }
                let local = Int(b[pos + 9])
                pos += 10 + (local & 0x80 != 0 ? 3 << ((local & 7) + 1) : 0)
                pos += 1   // LZW minimum code size
                try skipSubBlocks(&pos)
                frames += 1
                delays.append(Delay(centiseconds: pendingDelay))
                pendingDelay = 0
                pendingDisposal = 0
            case 0x3B:
                break walk
            default:
                throw fail(.gifUnknownBlock(UInt8(introducer), at: pos))
            }
        }
        guard frames > 0 else { throw fail(.gifNoImage) }
        guard w > 0, h > 0 else { throw fail(.gifZeroScreen(width: w, height: h)) }
    }
}
