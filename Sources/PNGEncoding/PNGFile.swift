/// The one place a PNG or APNG file is put together around its chunks, in the order the
/// specification asks for: signature, IHDR, sRGB, acTL (animations), PLTE and tRNS (palette
/// images), the image data, IEND. For an animation the image data is, per frame, an fcTL and
/// the frame's stream: as IDAT for the first frame (the default image, part of the animation),
/// as fdAT for the others, all numbered by one sequence.
struct PNGFile {
    let header: PNGHeader
    /// PLTE (and tRNS when some entry is translucent), for palette images.
    let palette: PaletteLayout?
    /// tRNS of a gray or RGB image with a colour key.
    let transparency: [UInt8]?

    /// sRGB chunk data: rendering intent 0 (perceptual). Every file carries it, so viewers
    /// treat the samples as sRGB, which is what every stage works in.
    static let srgbPerceptual: [UInt8] = [0]

    init(header: PNGHeader, palette: PaletteLayout? = nil, transparency: [UInt8]? = nil) {
        precondition(palette == nil || transparency == nil, "a palette image carries its own tRNS")
        self.header = header
        self.palette = palette
        self.transparency = transparency
    }

    /// A still image whose scanlines are the zlib stream `stream`.
    func bytes(stream: [UInt8]) -> [UInt8] {
        assemble(reservingCapacity: stream.count, animationControl: nil) { $0.appendImageData(stream) }
    }

    /// An animated PNG of `frames` (the first is the default image) played `loopCount` times
    /// (0 = forever).
    func bytes(frames: [APNGFrame], loopCount: Int) -> [UInt8] {
        var actl: [UInt8] = []
        actl.appendBigEndian(UInt32(frames.count))
        actl.appendBigEndian(UInt32(loopCount))
        return assemble(reservingCapacity: frames.reduce(0) { $0 + $1.stream.count + 64 }, animationControl: actl) { w in
            var sequence: UInt32 = 0
            for (n, f) in frames.enumerated() {
                w.append("fcTL", f.frameControl(sequence: sequence))
                sequence += 1
                if n == 0 {
                    w.appendImageData(f.stream)
                } else {
                    w.appendFrameData(f.stream, sequence: &sequence)
                }
            }
        }
    }

    private func assemble(reservingCapacity capacity: Int, animationControl: [UInt8]?,
                          imageData: (inout PNGChunkWriter) -> Void) -> [UInt8] {
        var w = opening(reservingCapacity: capacity + (palette == nil ? 0 : 1024), animationControl: animationControl)
        imageData(&w)
        return PNGFile.closing(&w)
    }

    /// The file up to its image data: the signature and every chunk before it. A file written
    /// as it goes (`BandedPNGEncoder`) appends its image data and ends with `closing`.
    func opening(reservingCapacity capacity: Int = 0, animationControl: [UInt8]? = nil) -> PNGChunkWriter {
        var w = PNGChunkWriter(reservingCapacity: capacity)
        w.append("IHDR", header.serialized)
        w.append("sRGB", PNGFile.srgbPerceptual)
        if let animationControl { w.append("acTL", animationControl) }
        if let palette {
            w.append("PLTE", palette.plte)
            if palette.translucentCount > 0 { w.append("tRNS", palette.trns) }
        }
        if let transparency { w.append("tRNS", transparency) }
        return w
    }

    /// The file begun by `opening`, after its image data: IEND appended.
    static func closing(_ w: inout PNGChunkWriter) -> [UInt8] {
        w.append("IEND", [])
        return w.bytes
    }
}
