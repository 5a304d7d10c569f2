import ImageCore

// # PNG decoder: measurements
//
// Release build, this project's shared 2-core machine (noisy: ±15 %), best of 5, whole decode to
// 8-bit RGBA vs libpng 1.6 simplified API (`png_image_finish_read`, PNG_FORMAT_RGBA), same bytes:
//
// | file | ours | libpng |
// |---|---|---|
// | 2048² RGBA8 photo crop with alpha ramp (Pillow, 2.0 MB) | 56 ms | 129 ms |
// | 2048² RGB8 (Pillow, 1.6 MB) | 63 ms | 110 ms |
// | kde_kay_wallpaper 5120×2880 RGBA8 (5.2 MB) | 265 ms | 438 ms |
// | mate_arc_colors wallpaper 2140×1200 | 35 ms | 47 ms |
//
// Every 8-bit file of the corpus decoded identical to libpng (static/, and frame 0 of animated/
// except balls_200x125_31f.apng, whose hidden default image libpng shows and APNG does not), and
// every frame of the 8 animated corpus APNGs (667 frames) identical to Pillow's compositing.
//
// Why it is written this way:
// - libdeflate inflates the whole image in one call into a buffer of the exact size IHDR implies
//   (no streaming, no copy). Unfiltering runs in place over that buffer, row by row, each row
//   against the previous already-unfiltered row.
// - Paeth with 4-byte pixels keeps left/upper-left in registers (`paeth4`); the other filters are
//   plain byte loops.
// - Expansion is one small pointer loop per layout; palette and ≤ 8-bit grey go through a 256-entry
//   UInt32 table stored with one 4-byte write per pixel; RGBA8 is a memcpy per row.
// - The salvage inflater (bit-at-a-time Huffman) only runs after libdeflate refused a stream.

/// Decodes PNG and APNG files to 8-bit sRGB RGBA: every colour type and bit depth, Adam7,
/// tRNS, iCCP/sRGB/gAMA colour, and APNG frames composited on the full canvas.
///
/// Order of work: signature → IHDR → `Limits` (before any allocation) → chunk walk (CRCs, order,
/// APNG sequence numbers) → inflate (libdeflate, into a buffer of the exact size IHDR implies)
/// → unfilter → expand → colour → compose.
enum PNGDecoder {
    /// Decodes `bytes`, with delays as stored (`ImageDecoder` shows them as displayed). The format is `.apng` when an acTL before the image data makes the file
    /// animated, `.png` otherwise. Throws `ImageError` naming the format and the problem; with
    /// `options.lenient`, CRC mismatches are ignored and truncated data keeps what decoded.
    static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        try FrameStreamInfo.collectCanvas { try decodeFrames(bytes, options: options, $0) }
    }

    /// Decodes `bytes` frame by frame: `body` gets each frame composited on the canvas as soon as
    /// it is drawn, with its delay as stored, so only the canvas's regions (the frames' rectangles
    /// gathered by `CanvasLayout`) and the pixels saved for a PREVIOUS disposal are held between frames. Errors and
    /// warnings are those of `decode`.
    static func decodeFrames(_ bytes: [UInt8], options: DecodeOptions, _ body: (CanvasFrame) throws -> Void) throws -> FrameStreamInfo {
        let layout = try PNGFileLayout.parse(bytes, options: options)
        let format = layout.format
        let header = layout.header
        var warnings = layout.warnings
        let iccp = layout.iccp.map { bytes[$0] }
        let color = PNGColorSpace.choose(hasSRGB: layout.hasSRGB, iccp: iccp, gamma: layout.gamma, warnings: &warnings)
        let pixelFormat = PNGPixelFormat(header: header, palette: layout.palette, transparency: layout.transparency)

        func decodeImage(_ ranges: [Range<Int>], width: Int, height: Int, what: PNGImageData) throws -> PNGRaster {
            var raster = try withContiguous(bytes, ranges) {
                try PNGRaster.decode($0, width: width, height: height, pixelFormat: pixelFormat,
                                     lenient: options.lenient, format: format, what: what)
            }
            if let note = raster.note { warnings.append(note) }
            if let note = color.apply(to: &raster.image, format: format), !warnings.contains(note) {
                warnings.append(note)
            }
            return raster
        }

        guard let animation = layout.animation else {
            let raster = try decodeImage(layout.idat, width: header.width, height: header.height, what: .idat)
            try body(CanvasFrame(canvasWidth: header.width, canvasHeight: header.height,
                                 box: PixelRect(x: 0, y: 0, width: header.width, height: header.height),
                                 pixels: raster.image, damage: nil, delay: .zero))
            return FrameStreamInfo(format: format, width: header.width, height: header.height, frameCount: 1,
                                   loopCount: 0, warnings: warnings)
        }

        // Limits bound the canvas unless the caller chose `.unlimited`; even then, no overflow.
        let (_, overflow) = header.width.multipliedReportingOverflow(by: header.height * 4)
        if overflow || header.height > Int.max / 4 {
            throw ImageError(format, PNGError.canvasTooLarge(width: header.width, height: header.height))
        }
        var compositor = APNGCompositor(width: header.width, height: header.height,
                                        regions: APNGCompositor.regions(of: layout.frames.map(\.control),
                                                                        width: header.width, height: header.height))
        var delivered = 0
        for (i, frame) in layout.frames.enumerated() {
            let c = frame.control
            let raster = try decodeImage(frame.usesIDAT ? layout.idat : frame.data, width: c.width, height: c.height,
                                         what: frame.usesIDAT ? .firstFrameIDAT : .frame(i))
            compositor.draw(raster.image, rows: raster.rowsDecoded, control: c, isFirst: i == 0)
            let damage = compositor.takeDamage()
            try body(CanvasFrame(canvasWidth: header.width, canvasHeight: header.height, regions: compositor.snapshot,
                                 damage: i == 0 ? nil : damage, delay: c.delay))
            delivered += 1
            if options.firstFrameOnly { break }
            if !raster.isComplete && options.lenient {
                if i + 1 < layout.frames.count {
                    warnings.append("kept \(i + 1) of \(animation.frames) frames")
                }
                break
            }
        }
        if layout.stoppedEarly && !options.firstFrameOnly && delivered < animation.frames
            && !warnings.contains(where: { $0.hasPrefix("kept ") }) {
            warnings.append("kept \(delivered) of \(animation.frames) frames")
        }
        return FrameStreamInfo(format: format, width: header.width, height: header.height, frameCount: delivered,
                               loopCount: animation.plays, warnings: warnings)
    }

    /// Calls `body` with the bytes of `ranges` back to back: in place for one range, copied for
    /// several (IDAT and fdAT data are usually split into many chunks).
    static func withContiguous<R>(_ bytes: [UInt8], _ ranges: [Range<Int>], _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        if ranges.count == 1 {
            return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[ranges[0]])) }
        }
        var joined: [UInt8] = []
        joined.reserveCapacity(ranges.reduce(0) { $0 + $1.count })
        for r in ranges { joined.append(contentsOf: bytes[r]) }
        return try joined.withUnsafeBytes { try body($0) }
    }
}
