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
        declaredLength = WebPChunks.u32(bytes, 4) + 8
        var offset = 12
        while offset + 8 <= bytes.count {
            let fourCC = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = WebPChunks.u32(bytes, offset + 4)
            if imageDataStart == nil, ["VP8 ", "VP8L"].contains(fourCC) { imageDataStart = offset + 8 }
            let end = offset + 8 + size
            guard end <= bytes.count else { cutChunk = fourCC; return }
            if fourCC == "ANMF" { completeFrames += 1 }
            completeEnd = end
            offset = end + (size & 1)
        }
        if offset < bytes.count { cutChunk = "chunk header" }
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

    static func u32(_ b: [UInt8], _ at: Int) -> Int {
        Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24
    }
}
