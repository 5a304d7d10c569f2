import CWebP

/// A walk over a WebP file's RIFF chunks, read before libwebp sees the file: how far the data
/// goes when it is cut short (libwebp's demuxer refuses partial files outright, so the decoder
/// needs to know which chunks are complete), where the RIFF size ends, and each animation
/// frame's header, so that a problem libwebp would only call "cannot parse" can be named.
struct WebPChunks {
    /// The RIFF header's size field.
    var riffSize = 0
    /// Total length the RIFF header declares (its size field + 8).
    var declaredLength = 0
    /// The canvas a VP8X chunk declares.
    var canvas: (width: Int, height: Int)?
    /// Every complete ANMF chunk's frame header, in order.
    var frames: [WebPFrameHeader] = []
    /// Offsets of the top-level chunks' headers, in order (the first at 12).
    var chunkOffsets: [Int] = []
    /// Offset just past the last complete chunk.
    var completeEnd = 12
    /// Complete ANMF (animation frame) chunks.
    var completeFrames = 0
    /// Offset of the first VP8/VP8L payload byte (colour data; ALPH does not count), when that
    /// chunk header is present.
    var imageDataStart: Int?
    /// FourCC of the first incomplete chunk, when there is one.
    var cutChunk: String?

    init(_ bytes: [UInt8]) {
        guard bytes.count >= 12 else { return }
        bytes.withUnsafeBufferPointer { file in
            riffSize = RIFFChunk.le32(file, 4)
            declaredLength = riffSize + 8
            var offset = 12
            while let chunk = RIFFChunk.at(offset, in: file) {
                chunkOffsets.append(offset)
                if imageDataStart == nil, ["VP8 ", "VP8L"].contains(chunk.fourCC) { imageDataStart = chunk.dataStart }
                guard chunk.end <= file.count else { cutChunk = chunk.fourCC; return }
                if chunk.fourCC == "VP8X", offset == 12, chunk.size >= 10 {
                    canvas = (RIFFChunk.le24(file, chunk.dataStart + 4) + 1, RIFFChunk.le24(file, chunk.dataStart + 7) + 1)
                }
                if chunk.fourCC == "ANMF" {
                    completeFrames += 1
                    if chunk.size >= 16 { frames.append(WebPChunks.frameHeader(chunk, number: completeFrames, in: file)) }
                }
                completeEnd = chunk.end
                offset = chunk.next
            }
            if offset < file.count { cutChunk = "chunk header" }
        }
    }

    /// The top-level chunk whose header or data contain `offset` strictly after their start, when there is one: where a RIFF size that is not a chunk boundary ends.
    func chunk(endingInside offset: Int, in bytes: [UInt8]) -> RIFFChunk? {
        bytes.withUnsafeBufferPointer { file in
            for start in chunkOffsets where start < offset {
                if let chunk = RIFFChunk.at(start, in: file), offset < chunk.end { return chunk }
            }
            return nil
        }
    }

    /// ANMF's 16-byte header (offset / 2, size − 1, duration, flags) and the size the frame's
    /// VP8 or VP8L sub-chunk says, read by libwebp.
    static func frameHeader(_ chunk: RIFFChunk, number: Int, in file: UnsafeBufferPointer<UInt8>) -> WebPFrameHeader {
        let d = chunk.dataStart
        var bitstream: (Int, Int)?
        var sub = d + 16
        while let inner = RIFFChunk.at(sub, in: file), inner.end <= chunk.end {
            if inner.fourCC == "VP8 " || inner.fourCC == "VP8L" {
                var features = WebPBitstreamFeatures()
                if WebPGetFeatures(file.baseAddress! + sub, inner.end - sub, &features) == VP8_STATUS_OK {
                    bitstream = (Int(features.width), Int(features.height))
                }
                break
            }
            sub = inner.next
        }
        return WebPFrameHeader(number: number, chunkOffset: chunk.offset,
                               x: 2 * RIFFChunk.le24(file, d), y: 2 * RIFFChunk.le24(file, d + 3),
                               width: RIFFChunk.le24(file, d + 6) + 1, height: RIFFChunk.le24(file, d + 9) + 1,
                               bitstreamWidth: bitstream?.0, bitstreamHeight: bitstream?.1)
    }

    /// Where an animation cut short stops: inside a frame, or in a chunk around the frames
    /// (metadata after the last one).
    var cut: WebPCut {
        guard let cutChunk, cutChunk != "ANMF" else { return .inFrame(completeFrames + 1) }
        return .inChunk(cutChunk, afterFrames: completeFrames)
    }

    /// The first `completeEnd` bytes with the RIFF size patched, so that the demuxer sees a
    /// whole file made of the complete chunks.
    static func completePrefix(_ bytes: [UInt8], end: Int) -> [UInt8] {
        var out = Array(bytes[0..<end])
        let size = UInt32(end - 8)
        out[4] = UInt8(truncatingIfNeeded: size); out[5] = UInt8(truncatingIfNeeded: size >> 8)
        out[6] = UInt8(truncatingIfNeeded: size >> 16); out[7] = UInt8(truncatingIfNeeded: size >> 24)
        return out
    }
}
