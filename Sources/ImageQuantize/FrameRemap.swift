import ImageCore

/// Undithered remaps of consecutive frames of one size to one palette, each after the one
/// before: the indices and errors `PaletteMapper.remapUndithered(_:after:)` gives each frame,
/// with work that follows what changed. Rows the damage leaves out are copied with their error;
/// in the others, runs of pixels equal to the frame before take its index (see `Remapper`).
///
/// Holds the frame before (its pixels, indices and row errors) and the current frame's indices:
/// one frame's worth whatever the frame count. Not thread-safe.
package final class FrameRemap {
    package let mapper: PaletteMapper
    package let width: Int
    package let height: Int
    private var previousPixels: [UInt32]
    private var previousIndices: [UInt8]
    private var previousRows: [Double]
    private var indices: [UInt8]
    private var rows: [Double]
    private var known: [Bool]
    private var equal: [Bool]
    private var started = false

    package init(mapper: PaletteMapper, width: Int, height: Int) {
        self.mapper = mapper
        self.width = width
        self.height = height
        let n = width * height
        previousPixels = [UInt32](repeating: 0, count: n)
        previousIndices = [UInt8](repeating: 0, count: n)
        previousRows = [Double](repeating: 0, count: height)
        indices = [UInt8](repeating: 0, count: n)
        rows = [Double](repeating: 0, count: height)
        known = [Bool](repeating: false, count: height)
        equal = [Bool](repeating: false, count: height)
    }

    /// Remaps the next frame (`pixels`: RGBA, `width × height`), given what changed since the
    /// frame remapped before (nil: unknown, compare every row). `body` gets the indices (valid
    /// during the call), the frame's summed error (`ErrorSpace` E per pixel, the rows' errors
    /// added from the top, as `remapUndithered` sums them) and which indices changed since the
    /// frame before (nil for the first frame).
    package func next<R>(_ pixels: UnsafeRawBufferPointer, damage: RowDamage?,
                         _ body: (UnsafeBufferPointer<UInt8>, Double, RowDamage?) throws -> R) rethrows -> R {
        let w = width, h = height
        if let damage, started {
            for y in 0..<h { known[y] = damage.span(y) == nil }
        }
        let total: Double = pixels.withMemoryRebound(to: UInt32.self) { px in
            previousPixels.withUnsafeBufferPointer { pp in
                previousIndices.withUnsafeBufferPointer { pi in
                    previousRows.withUnsafeBufferPointer { pr in
                        known.withUnsafeBufferPointer { kn in
                            equal.withUnsafeMutableBufferPointer { eq in
                                indices.withUnsafeMutableBufferPointer { out in
                                    rows.withUnsafeMutableBufferPointer { re in
                                        let previous = started
                                            ? Remapper.Previous(pixels: pp.baseAddress!, indices: pi.baseAddress!, rowErrors: pr.baseAddress!,
                                                                known: damage == nil ? nil : kn.baseAddress, equal: eq.baseAddress!)
                                            : nil
                                        return mapper.remapPlain(pixels: px.baseAddress!, width: w, height: h, previous: previous,
                                                                 into: out.baseAddress!, rowErrors: re.baseAddress!)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        var changed: RowDamage? = nil
        if started {
            var d = RowDamage(rows: h)
            indices.withUnsafeBufferPointer { cur in
                previousIndices.withUnsafeBufferPointer { prev in
                    for y in 0..<h where !(known[y] && damage != nil) {
                        let c = cur.baseAddress! + y * w, p = prev.baseAddress! + y * w
                        var lo = 0
                        while lo < w && c[lo] == p[lo] { lo += 1 }
                        guard lo < w else { continue }
                        var hi = w
                        while c[hi - 1] == p[hi - 1] { hi -= 1 }
                        d.mark(row: y, from: lo, to: hi)
                    }
                }
            }
            changed = d
        }
        let result = try indices.withUnsafeBufferPointer { try body($0, total, changed) }
        // The frame just remapped becomes the one before.
        pixels.withMemoryRebound(to: UInt32.self) { px in
            previousPixels.withUnsafeMutableBufferPointer { pp in
                if let damage, started {
                    guard !damage.isEmpty else { return }
                    for y in damage.firstRow..<damage.endRow where damage.span(y) != nil {
                        (pp.baseAddress! + y * w).update(from: px.baseAddress! + y * w, count: w)
                    }
                } else {
                    pp.baseAddress!.update(from: px.baseAddress!, count: w * h)
                }
            }
        }
        swap(&indices, &previousIndices)
        swap(&rows, &previousRows)
        started = true
        return result
    }
}
