import CDeflate
import ImageCore

/// An opaque RGB PNG written band by band, for pictures too large to hold whole as pixels (a
/// contact sheet grows by a band per sticker): each band's rows are filtered and compressed as
/// one piece of the zlib stream, appended to the file as IDAT chunks, and dropped: what stays is
/// the file written so far, the row above the next band and one band of pixels at a time.
///
/// Each band is filtered both unfiltered and with the minimum-sum heuristic, as `.fast` does a
/// whole still, and the smaller piece is kept; pieces are raw DEFLATE at `.fast`'s level, joined
/// as `SplitDeflate` joins them (a non-final piece ends with an empty stored block). The bytes
/// depend on the pixels and the bands alone.
package struct BandedPNGEncoder {
    package let width: Int
    package let height: Int
    private var rows = 0
    /// The previous row (RGB), which the next band's first row is predicted from; zeros above row 0.
    private var above: [UInt8]
    /// The file so far: the chunks before the image data, then each band's piece as IDAT.
    private var file: PNGChunkWriter
    private var adler: UInt32 = 1
    private let compressor = ZlibCompressor()
    private static let level = 6

    /// An encoder for a `width × height` picture (both at least 1).
    package init(width: Int, height: Int) {
        precondition(width > 0 && height > 0 && width <= Int(Int32.max) && height <= Int(Int32.max))
        self.width = width
        self.height = height
        above = [UInt8](repeating: 0, count: width * 3)
        file = PNGFile(header: PNGHeader(width: width, height: height, bitDepth: 8, colorType: .rgb)).opening()
        file.appendImageData(SplitDeflate.header(level: Self.level))
    }

    /// Appends the next rows, given as RGBA (`width × 4` bytes a row; alpha is dropped: the
    /// picture is opaque). Rows past `height` are a programming error.
    package mutating func append(rgba pixels: [UInt8]) {
        let rowBytes = width * 3
        let count = pixels.count / (width * 4)
        precondition(count * width * 4 == pixels.count && rows + count <= height, "rows past the picture")
        guard count > 0 else { return }
        // The row above, then the band, as RGB.
        var data = above + [UInt8](repeating: 0, count: count * rowBytes)
        pixels.withUnsafeBufferPointer { p in
            data.withUnsafeMutableBufferPointer { d in
                for i in 0..<(count * width) {
                    let o = rowBytes + 3 * i
                    d[o] = p[4 * i]; d[o + 1] = p[4 * i + 1]; d[o + 2] = p[4 * i + 2]
                }
            }
        }
        let raster = Raster(width: width, height: count + 1, bitsPerPixel: 24, data: data)
        let band = [1..<(count + 1)]
        var best: [UInt8]? = nil
        var bestInput: [UInt8] = []
        for strategy in [FilterStrategy.fixed(.none), .minimumSum] {
            let filtered = ScanlineFilter.filter(raster, strategy: strategy, rows: band)
            let piece = filtered.withUnsafeBufferPointer { compressor.deflate($0, level: Self.level) }
                ?? Self.storedPiece(filtered)
            if best == nil || piece.count < best!.count { best = piece; bestInput = filtered }
        }
        var piece = best!
        if !SplitDeflate.continueAfter(&piece) {
            piece = Self.storedPiece(bestInput)
            _ = SplitDeflate.continueAfter(&piece)
        }
        file.appendImageData(piece)
        adler = bestInput.withUnsafeBufferPointer { libdeflate_adler32(adler, $0.baseAddress, $0.count) }
        above = Array(data[(count * rowBytes)...])
        rows += count
    }

    /// The PNG file, once every row has been appended.
    package mutating func finish() -> [UInt8] {
        precondition(rows == height, "\(height - rows) rows missing")
        // A final empty stored block ends the stream (BFINAL 1, type 00, padding, LEN 0, NLEN
        // FFFF), then the Adler-32 of every filtered row.
        file.appendImageData([0x01, 0x00, 0x00, 0xFF, 0xFF,
                              UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)])
        return PNGFile.closing(&file)
    }

    /// `input` as raw stored blocks, the last final: what libdeflate could not compress.
    private static func storedPiece(_ input: [UInt8]) -> [UInt8] {
        let zlib = input.withUnsafeBufferPointer { ZlibCompressor.stored($0) }
        return Array(zlib[2..<(zlib.count - 4)])
    }
}
