/// One raster's filtered forms and zlib streams, made on demand and kept: plans that share work
/// (a budget probe and then the written file, or `.max` and the `.default` result it must not
/// exceed) filter and compress each (strategy, level) once. Used by one thread at a time.
final class RasterStreams {
    let raster: Raster
    let compressor: ZlibCompressor
    /// Streams at the near-optimal levels are compressed in pieces (`SplitDeflate.pieces`): the
    /// blank edges apart at a fast level, and a large remainder in halves on several cores. Set
    /// for stickers' stills (`TruecolorStill`), whose one such stream is most of a conversion's
    /// time; APNG frames are cropped to what changed and already compressed several at a time.
    let splitsLargeStreams: Bool
    private var filtered: [FilterStrategy: [UInt8]] = [:]
    private var streams: [StreamKey: [UInt8]] = [:]
    private var sampleSizes: [StreamKey: Int] = [:]

    private struct StreamKey: Hashable {
        var strategy: FilterStrategy
        var level: Int
    }

    init(_ raster: Raster, compressor: ZlibCompressor, splitsLargeStreams: Bool = false) {
        self.raster = raster
        self.compressor = compressor
        self.splitsLargeStreams = splitsLargeStreams
    }

    /// The whole filtered stream under `strategy`.
    func filtered(_ strategy: FilterStrategy) -> [UInt8] {
        if let f = filtered[strategy] { return f }
        let f = ScanlineFilter.filter(raster, strategy: strategy, compressor: compressor)
        filtered[strategy] = f
        return f
    }

    /// The zlib stream of the rows filtered under `strategy`, at `level`.
    func stream(_ strategy: FilterStrategy, level: Int) -> [UInt8] {
        let key = StreamKey(strategy: strategy, level: level)
        if let s = streams[key] { return s }
        let f = filtered(strategy)
        let split = splitsLargeStreams ? SplitDeflate.zlib(f, rowBytes: raster.rowBytes + 1, level: level) : nil
        let s = split ?? compressor.compress(f, level: level)
        streams[key] = s
        return s
    }

    /// Rows compared when strategies are ranked on a sample: bands of `sampleBand` rows, one
    /// every `samplePeriod` rows (a quarter of the image). Rasters with fewer rows than
    /// `sampleMinimumRows`, or fewer bytes than `sampleMinimumBytes`, are ranked whole.
    static let sampleBand = 16
    static let samplePeriod = 64
    static let sampleMinimumRows = 128
    static let sampleMinimumBytes = 65_536

    /// The rows of the ranking sample.
    var sampleRows: [Range<Int>] { RasterStreams.sampleRows(height: raster.height, rowBytes: raster.rowBytes) }

    /// The rows of the ranking sample of a raster `height` rows of `rowBytes` bytes (before
    /// their filter bytes).
    static func sampleRows(height h: Int, rowBytes: Int) -> [Range<Int>] {
        if h < sampleMinimumRows || h * (rowBytes + 1) < sampleMinimumBytes { return [0..<h] }
        return stride(from: 0, to: h, by: samplePeriod).map { $0..<min(h, $0 + sampleBand) }
    }

    /// Rows in the ranking sample.
    var sampledRowCount: Int { sampleRows.reduce(0) { $0 + $1.count } }

    /// Filtered bytes in the ranking sample (each row with its filter byte).
    var sampledByteCount: Int { sampledRowCount * (raster.rowBytes + 1) }

    /// The raw deflate size, at `level`, of the sample's rows filtered under `strategy` (one
    /// stream of the bands one after another). Cheap next to compressing the whole raster.
    func sampleSize(_ strategy: FilterStrategy, level: Int) -> Int {
        let key = StreamKey(strategy: strategy, level: level)
        if let n = sampleSizes[key] { return n }
        let rows = sampleRows
        let bytes = rows.count == 1 && rows[0] == 0..<raster.height
            ? filtered(strategy)
            : ScanlineFilter.filter(raster, strategy: strategy, rows: rows)
        let n = bytes.withUnsafeBufferPointer { compressor.compressedSize($0.baseAddress!, count: $0.count, level: level) }
        sampleSizes[key] = n
        return n
    }
}
