/// A walk over a WebP file's RIFF chunks, to tell how far the data goes when it is cut short:
/// libwebp's demuxer refuses partial files outright, so the decoder needs to know which chunks
/// are complete.
struct WebPChunks {
    /// Total length the RIFF header declares (its size field + 8).
    var declaredLength = 0
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
            declaredLength = RIFFChunk.le32(file, 4) + 8
            var offset = 12
            while let chunk = RIFFChunk.at(offset, in: file) {
                if imageDataStart == nil, ["VP8 ", "VP8L"].contains(chunk.fourCC) { imageDataStart = chunk.dataStart }
                guard chunk.end <= file.count else { cutChunk = chunk.fourCC; return }
                if chunk.fourCC == "ANMF" { completeFrames += 1 }
                completeEnd = chunk.end
                offset = chunk.next
            }
            if offset < file.count { cutChunk = "chunk header" }
        }
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
