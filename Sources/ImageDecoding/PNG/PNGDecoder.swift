import ImageCore

/// Decodes PNG and APNG files to 8-bit sRGB RGBA: every colour type and bit depth, Adam7,
/// tRNS, iCCP/sRGB/gAMA colour, and APNG frames composited on the full canvas.
///
/// Order of work: signature → IHDR → `Limits` (before any allocation) → chunk walk (CRCs, order,
/// APNG sequence numbers) → inflate (libdeflate, into a buffer of the exact size IHDR implies)
/// → unfilter → expand → colour → compose.
public enum PNGDecoder {
    /// Decodes `bytes`. The format is `.apng` when an acTL before the image data makes the file
    /// animated, `.png` otherwise. Throws `ImageError` naming the format and the problem; with
    /// `options.lenient`, CRC mismatches are ignored and truncated data keeps what decoded.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions) throws -> DecodedImage {
        var layout = try PNGFileLayout.parse(bytes, options: options)
        let format = layout.format
        let header = layout.header
        var warnings = layout.warnings
        let iccp = layout.iccp.map { bytes[$0] }
        let color = PNGColorSpace.choose(hasSRGB: layout.hasSRGB, iccp: iccp, gamma: layout.gamma, warnings: &warnings)
        let pixelFormat = PNGPixelFormat(header: header, palette: layout.palette, transparency: layout.transparency)

        func decodeImage(_ ranges: [Range<Int>], width: Int, height: Int, what: String) throws -> PNGRaster {
            var raster = try withContiguous(bytes, ranges) {
                try PNGRaster.decode($0, width: width, height: height, pixelFormat: pixelFormat,
                                     lenient: options.lenient, format: format, what: what)
            }
            if let note = raster.note { warnings.append(note) }
            if let note = try color.apply(to: &raster.image, format: format), !warnings.contains(note) {
                warnings.append(note)
            }
            return raster
        }

        guard let animation = layout.animation else {
            let raster = try decodeImage(layout.idat, width: header.width, height: header.height, what: "IDAT")
            return DecodedImage(format: format, animation: Animation(still: raster.image), warnings: warnings)
        }

        var compositor = APNGCompositor(width: header.width, height: header.height)
        var frames: [Frame] = []
        for (i, frame) in layout.frames.enumerated() {
            let c = frame.control
            let raster = try decodeImage(frame.usesIDAT ? layout.idat : frame.data, width: c.width, height: c.height,
                                         what: frame.usesIDAT ? "frame 0 (IDAT)" : "frame \(i)")
            compositor.draw(raster.image, rows: raster.rowsDecoded, control: c, isFirst: i == 0)
            frames.append(Frame(image: compositor.snapshot, delay: c.delay))
            if options.firstFrameOnly { break }
            if !raster.isComplete && options.lenient {
                if i + 1 < layout.frames.count {
                    warnings.append("kept \(i + 1) of \(animation.frames) frames")
                }
                break
            }
        }
        if layout.stoppedEarly && !options.firstFrameOnly && frames.count < animation.frames
            && !warnings.contains(where: { $0.hasPrefix("kept ") }) {
            warnings.append("kept \(frames.count) of \(animation.frames) frames")
        }
        layout.frames.removeAll()
        return DecodedImage(format: format,
                            animation: Animation(width: header.width, height: header.height, frames: frames, loopCount: animation.plays),
                            warnings: warnings)
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
