import ImageCore

/// An undithered remap of one frame with its `ErrorSpace` error per row, which lets a later frame
/// of the same size reuse the rows it shares with this one (`PaletteMapper.remapUndithered`).
package struct RowRemap: Sendable {
    package let image: IndexedImage
    /// Each row's error: over its runs of equal pixels, left to right, run length × the run's error.
    package let rowErrors: [Double]
    /// Per row, whether it equalled the earlier frame's (empty when there was none to reuse).
    package let equalRows: [Bool]
    /// The rows' errors summed from the top, / 3 / pixels (as `PaletteMapper.remap` reports it).
    package let meanSquaredError: Double
}
