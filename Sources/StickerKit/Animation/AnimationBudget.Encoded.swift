import PNGEncoding

extension AnimationBudget {
    /// One encode of a setting: the frames kept, the file's bytes, and what they cost in quality.
    struct Encoded {
        var colors: Int
        var step: Int
        /// The effort the bytes were encoded at.
        var effort: Effort
        var indices: [Int]
        var bytes: [UInt8]
        var palette: Int
        var mse: Double
        var exact: Bool
        /// How the frames were laid out, with their streams (nil when the encode failed):
        /// lets the written file reuse the layout and the streams of its probe.
        var layout: APNGLayout? = nil
        /// A probe that stopped once it was far over the budget has no bytes, only its size
        /// extrapolated from the frames it wrote (`Probes.probe`).
        var estimate: Int? = nil
        /// The real size of a probe whose file was let go (`released`).
        var releasedSize: Int? = nil
        /// The file's size: real, or estimated for a probe that stopped early (0 when the encode
        /// failed).
        var size: Int { estimate ?? releasedSize ?? bytes.count }
        /// The same probe without its file and its layout's streams, its size kept: for a probe
        /// too large to be written, which the search only needs to know the size of.
        func released() -> Encoded {
            var r = self
            if estimate == nil && releasedSize == nil { r.releasedSize = bytes.count }
            r.bytes = []
            r.layout = nil
            return r
        }
        /// The encoder refuses only malformed input, which this search never builds; an empty
        /// result counts as not fitting.
        func fits(_ maxBytes: Int) -> Bool { !bytes.isEmpty && bytes.count <= maxBytes }
    }
}
