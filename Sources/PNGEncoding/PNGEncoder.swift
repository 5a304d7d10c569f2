import ImageCore

/// How hard the encoder works on filters and deflate.
///
/// - `fast`: libdeflate level 6 with one filter strategy.
/// - `default`: level 10 with one filter strategy.
/// - `max`: every whole-image filter strategy is tried at level 6, the best two are compressed
///   at level 12, and the smaller is written.
///
/// Every level is lossless; they differ only in size and time (figures in NOTES.md).
public enum Effort: String, Sendable, CaseIterable, Codable {
    case fast, `default`, max
}

/// Entry point of the encoding stage: lossless PNG and APNG writing.
///
/// Every file carries an sRGB chunk (perceptual intent). Encoding never fails: the input types
/// already guarantee what a PNG needs, except a zero width or height, for which the result is
/// empty (PNG cannot describe such an image). Safe to call from several threads at once.
public enum PNGEncoder {
    /// A truecolour PNG, in the smallest of these forms that holds every pixel exactly: gray (when
    /// every pixel has r == g == b), RGB (every pixel opaque), gray+alpha, RGBA. 8 bits per
    /// sample; the colour of fully transparent pixels is kept as given.
    public static func encode(_ image: Image, effort: Effort = .default) -> [UInt8] {
        encodeTruecolor(image, plan: { EncodingPlan.plan(effort, kind: $0) })
    }

    static func encodeTruecolor(_ image: Image, plan: (EncodingPlan.Kind) -> EncodingPlan) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= Int(Int32.max), image.height <= Int(Int32.max) else { return [] }
        let layout = TruecolorLayout(fitting: [image])
        let raster = layout.raster(image.pixels, width: image.width, height: image.height)
        let stream = plan(.truecolor).compress(raster, with: ZlibCompressor())
        var w = PNGChunkWriter(reservingCapacity: stream.count)
        w.append("IHDR", PNGChunkWriter.header(width: image.width, height: image.height, bitDepth: 8, colorType: layout.colorType))
        w.append("sRGB", PNGChunkWriter.srgbPerceptual)
        w.appendImageData(stream)
        w.append("IEND", [])
        return w.bytes
    }

    /// An indexed PNG (colour type 3) with PLTE and, when some entry is translucent, tRNS.
    ///
    /// The palette is rewritten losslessly: unused entries are dropped, identical entries merged,
    /// translucent entries (alpha < 255) moved first so that tRNS ends at the last of them, and
    /// the bit depth is the smallest of 1, 2, 4, 8 that holds the entries. Indices past the end
    /// of `palette` (which `IndexedImage` forbids) are written as transparent black.
    public static func encode(_ image: IndexedImage, effort: Effort = .default) -> [UInt8] {
        encodeIndexed(image, plan: { EncodingPlan.plan(effort, kind: $0) })
    }

    /// A cheap estimate of `encode(image, effort: .default).count`, for searches that try many
    /// palettes: same palette layout and filters, libdeflate level 3 instead of 10.
    ///
    /// Measured on 618-px quantized corpus art (NOTES.md), the estimate is 0–6 % above the
    /// `.default` size and takes about a quarter of its time. Treat it as an upper-side estimate.
    public static func estimatedSize(_ image: IndexedImage) -> Int {
        encodeIndexed(image, plan: { EncodingPlan.estimate(kind: $0) }).count
    }

    static func encodeIndexed(_ image: IndexedImage, plan: (EncodingPlan.Kind) -> EncodingPlan) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= Int(Int32.max), image.height <= Int(Int32.max) else { return [] }
        var used = [Bool](repeating: false, count: 256)
        PaletteLayout.markUsed(image.indices, in: &used)
        let layout = PaletteLayout(palette: image.palette, used: used)
        let raster = layout.remapped(image.indices).withUnsafeBufferPointer {
            Raster.packing($0.baseAddress!, width: image.width, height: image.height, bitDepth: layout.bitDepth)
        }
        let kind: EncodingPlan.Kind = layout.bitDepth < 8 ? .packedPalette : .palette
        let stream = plan(kind).compress(raster, with: ZlibCompressor())
        var w = PNGChunkWriter(reservingCapacity: stream.count + 1024)
        w.append("IHDR", PNGChunkWriter.header(width: image.width, height: image.height, bitDepth: layout.bitDepth, colorType: 3))
        w.append("sRGB", PNGChunkWriter.srgbPerceptual)
        w.append("PLTE", layout.plte)
        if layout.translucentCount > 0 { w.append("tRNS", layout.trns) }
        w.appendImageData(stream)
        w.append("IEND", [])
        return w.bytes
    }
}
