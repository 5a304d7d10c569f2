import ImageCore

/// Entry point of the encoding stage: lossless PNG and APNG writing.
///
/// Every file carries an sRGB chunk (perceptual intent). Encoding never fails: the input types
/// already guarantee what a PNG needs, except a zero width or height, for which the result is
/// empty (PNG cannot describe such an image). Safe to call from several threads at once.
public enum PNGEncoder {
    /// A truecolour PNG, in the smallest of these forms that holds every pixel: gray (when every
    /// pixel has r == g == b), RGB (every pixel opaque), gray or RGB with a colour key (tRNS;
    /// every pixel opaque or fully transparent), gray+alpha, RGBA. 8 bits per sample. The colour
    /// of fully transparent pixels is kept as given, except with a colour key that no visible
    /// pixel may share: when they do not all have one unused colour, they are written as an
    /// unused one (`TruecolorLayout.init(fittingStill:)`). Without `allowsGray` the gray forms
    /// are not used (an app that asks for RGB colour: LINE).
    public static func encode(_ image: Image, effort: Effort = .default, allowsGray: Bool = true) -> [UInt8] {
        TruecolorStill(image, allowsGray: allowsGray).encode(effort: effort)
    }

    /// The file and the size of its zlib stream.
    static func encodeTruecolor(_ image: Image, plan: (EncodingPlan.Kind) -> EncodingPlan) -> (bytes: [UInt8], streamBytes: Int) {
        TruecolorStill(image).encode(plan: plan(.truecolor))
    }

    /// An indexed PNG (colour type 3) with PLTE and, when some entry is translucent, tRNS.
    ///
    /// The palette is rewritten losslessly: unused entries are dropped, identical entries merged,
    /// translucent entries (alpha < 255) moved first so that tRNS ends at the last of them, and
    /// the bit depth is the smallest of 1, 2, 4, 8 that holds the entries. Indices past the end
    /// of `palette` (which `IndexedImage` forbids) are written as transparent black.
    ///
    /// When every used entry is an opaque gray on the ramp of a bit depth no larger than the
    /// palette's (e.g. black and white at 1 bit, or any 256 grays at 8 bits), the file is gray
    /// (colour type 0) instead: the same pixels without PLTE; unless not `allowsGray`.
    public static func encode(_ image: IndexedImage, effort: Effort = .default, allowsGray: Bool = true) -> [UInt8] {
        encodeIndexed(image, plan: { EncodingPlan.plan(effort, kind: $0) }, allowsGray: allowsGray).bytes
    }

    /// A cheap estimate of `encode(image, effort: .default).count`, for searches that try many
    /// palettes or colour counts: the same palette layout, unfiltered, one libdeflate level-6
    /// pass whose stream size is scaled by 0.9 (the measured level-10 ÷ level-6 ratio).
    ///
    /// Measured on 13 quantized corpus images fitted to 618 px (NOTES.md): the estimate was within
    /// −4.5 % … +4.7 % of the `.default` size (most within ±2.5 %) and took 1–15 ms where `.default`
    /// took 11–157 ms. Use it to rank or prune candidates; encode the final choice for real. (An
    /// 8-bit gray-ramp palette is written as gray, where filters can make the file smaller than
    /// this unfiltered estimate.)
    package static func estimatedSize(_ image: IndexedImage) -> Int {
        let (bytes, stream) = encodeIndexed(image, plan: { EncodingPlan.estimate(kind: $0) })
        return bytes.isEmpty ? 0 : EncodingPlan.estimatedSize(fileBytes: bytes.count, streamBytes: stream)
    }

    /// The file and the size of its zlib stream.
    static func encodeIndexed(_ image: IndexedImage, plan: (EncodingPlan.Kind) -> EncodingPlan,
                              allowsGray: Bool = true) -> (bytes: [UInt8], streamBytes: Int) {
        guard image.width > 0, image.height > 0, image.width <= Int(Int32.max), image.height <= Int(Int32.max) else { return ([], 0) }
        var used = [Bool](repeating: false, count: 256)
        PaletteLayout.markUsed(image.indices, in: &used)
        let layout = PaletteLayout(palette: image.palette, used: used)
        if allowsGray, let gray = layout.grayForm {
            return encodeGray(image, layout: layout, depth: gray.depth, levels: gray.levels, plan: plan)
        }
        let raster = layout.remapped(image.indices).withUnsafeBufferPointer {
            Raster.packing($0.baseAddress!, width: image.width, height: image.height, bitDepth: layout.bitDepth)
        }
        let kind: EncodingPlan.Kind = layout.bitDepth < 8 ? .packedPalette : .palette
        let stream = plan(kind).compress(raster, with: ZlibCompressor())
        let file = PNGFile(header: layout.header(width: image.width, height: image.height), palette: layout)
        return (file.bytes(stream: stream), stream.count)
    }

    /// A palette image whose entries are all opaque levels of a gray ramp, as gray (colour type 0):
    /// no PLTE, and at 8 bits the samples are intensities, which filters can predict.
    private static func encodeGray(_ image: IndexedImage, layout: PaletteLayout, depth: Int, levels: [UInt8],
                                   plan: (EncodingPlan.Kind) -> EncodingPlan) -> (bytes: [UInt8], streamBytes: Int) {
        // Old index → written index → gray level, folded into one table.
        let table = layout.remap.map { levels[Int($0) < levels.count ? Int($0) : 0] }
        let samples = PaletteLayout.mapped(image.indices, through: table)
        let raster = samples.withUnsafeBufferPointer {
            Raster.packing($0.baseAddress!, width: image.width, height: image.height, bitDepth: depth)
        }
        let stream = plan(depth < 8 ? .packedPalette : .truecolor).compress(raster, with: ZlibCompressor())
        let header = PNGHeader(width: image.width, height: image.height, bitDepth: depth, colorType: .gray)
        return (PNGFile(header: header).bytes(stream: stream), stream.count)
    }
}
