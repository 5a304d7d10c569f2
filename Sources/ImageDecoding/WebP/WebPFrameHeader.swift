/// One ANMF chunk of an animated WebP as the container states it, and the size of the image its
/// bitstream holds. libwebp draws the bitstream's size at the ANMF offset, whatever the ANMF
/// chunk says its size is; the two should agree (WebP container specification).
struct WebPFrameHeader {
    /// 1-based, in file order.
    let number: Int
    /// Offset of the ANMF chunk's header in the file.
    let chunkOffset: Int
    let x: Int
    let y: Int
    /// Width and height from the ANMF chunk.
    let width: Int
    let height: Int
    /// Width and height from the frame's VP8 or VP8L bitstream header; nil when libwebp cannot
    /// read it (libwebp then refuses the animation and says so).
    let bitstreamWidth: Int?
    let bitstreamHeight: Int?

    /// Whether the image libwebp will draw lies inside a `canvasWidth × canvasHeight` canvas.
    func fits(canvasWidth: Int, canvasHeight: Int) -> Bool {
        x + (bitstreamWidth ?? width) <= canvasWidth && y + (bitstreamHeight ?? height) <= canvasHeight
    }

    var matchesBitstream: Bool {
        (bitstreamWidth ?? width) == width && (bitstreamHeight ?? height) == height
    }
}
