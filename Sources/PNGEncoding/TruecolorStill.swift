import ImageCore

/// A truecolour still prepared once for encoding at one or more efforts: its layout and raster
/// are made once, and filtered forms and zlib streams are kept between calls, so a search that
/// first asks whether the image may fit and then writes it compresses each stream once.
///
/// `encode(effort:)` returns exactly `PNGEncoder.encode(image, effort:)`, unless made with
/// `splitsLargeStreams` (stickers: `SplitDeflate`, same pixels, slightly other bytes). Not for
/// concurrent use (one instance per thread); instances are independent.
package final class TruecolorStill {
    private let header: PNGHeader?
    private let transparency: [UInt8]?
    private let streams: RasterStreams?

    /// With `splitsLargeStreams`, a large stream at the near-optimal levels is compressed in
    /// pieces on several cores (`SplitDeflate`): what a sticker's budget search asks for. Icons,
    /// contact sheets and `PNGEncoder.encode` compress every stream whole.
    /// Without `allowsGray`, the file is RGB or RGBA even when every pixel is gray.
    package init(_ image: Image, splitsLargeStreams: Bool = false, allowsGray: Bool = true) {
        guard image.width > 0, image.height > 0, image.width <= Int(Int32.max), image.height <= Int(Int32.max) else {
            header = nil
            transparency = nil
            streams = nil
            return
        }
        let layout = TruecolorLayout(fittingStill: image, allowsGray: allowsGray)
        header = layout.header(width: image.width, height: image.height)
        transparency = layout.transparency
        streams = RasterStreams(layout.raster(image.pixels, width: image.width, height: image.height), compressor: ZlibCompressor(),
                                splitsLargeStreams: splitsLargeStreams)
    }

    /// The PNG file at `effort` (empty for an image without pixels).
    package func encode(effort: Effort) -> [UInt8] {
        encode(plan: EncodingPlan.still(effort)).bytes
    }

    /// The file at `effort`, or, when that is larger than `maxBytes` because its stream was
    /// compressed at one of the plan's lower levels (`EncodingPlan.unfilteredLevel`,
    /// `compressibleLevel`), the file at the full level if that is smaller: a budget is never
    /// missed for the time saved.
    package func encode(effort: Effort, within maxBytes: Int) -> [UInt8] {
        let plan = EncodingPlan.still(effort)
        let bytes = encode(plan: plan).bytes
        guard bytes.count > maxBytes, let full = plan.atFullLevel else { return bytes }
        let again = encode(plan: full).bytes
        return again.count < bytes.count ? again : bytes
    }

    /// The file under `plan`, and the size of its zlib stream.
    func encode(plan: EncodingPlan) -> (bytes: [UInt8], streamBytes: Int) {
        guard let header, let streams else { return ([], 0) }
        let stream = plan.compress(streams)
        return (PNGFile(header: header, transparency: transparency).bytes(stream: stream), stream.count)
    }

    /// Level-1 stream sizes scaled by these are below the file's stream at every effort: on the
    /// 137 truecolour stills of the corpus (50 files at 300, 408, 618 px) the smallest ratio at
    /// level 12 was 0.64 of the whole level-1 stream and 0.63 of the sample's, scaled to the
    /// whole image (NOTES.md); the factors leave room for images unlike those.
    static let sampleFloorFactor = 0.45
    static let wholeFloorFactor = 0.55

    /// False when no effort is expected to make a file of at most `maxBytes`: a level-1 trial
    /// on a quarter of the rows (the one `.default` ranks its filters by), scaled to the whole
    /// image, and, only when that says no, a level-1 stream of the whole image, are both too
    /// large for it even at the smallest level-1 ratio measured. Lets a budget search skip the
    /// encode of a lossless file that cannot fit, without a probe encode of every image.
    package func mayFit(_ maxBytes: Int) -> Bool {
        guard let header, let streams else { return true }
        let overhead = PNGFile(header: header, transparency: transparency).bytes(stream: []).count
        let strategies = EncodingPlan.still(.default).strategies
        let sampled = strategies.map { streams.sampleSize($0, level: 1) }.min() ?? 0
        let scale = Double(streams.raster.height) / Double(max(1, streams.sampledRowCount))
        if overhead + Int(Double(sampled) * scale * TruecolorStill.sampleFloorFactor) <= maxBytes { return true }
        let whole = strategies.map { streams.stream($0, level: 1).count }.min() ?? 0
        return overhead + Int(Double(whole) * TruecolorStill.wholeFloorFactor) <= maxBytes
    }
}
