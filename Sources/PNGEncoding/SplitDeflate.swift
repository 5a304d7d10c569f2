import CDeflate
import Dispatch
import ImageCore

/// One zlib stream made of independently compressed consecutive pieces of the input, so that a
/// large still's one expensive stream (level 10) uses every core, and its blank edges (the
/// transparent rows that pad a fitted sticker) are not walked at level 10: each piece is
/// compressed as raw DEFLATE with its own compressor and level, then the pieces are joined.
///
/// Joining (RFC 1951): a piece's last block is final; its BFINAL bit is cleared (the block's
/// position comes from `DeflateBlocks`) and an empty stored block follows it — three zero bits,
/// zero padding to a byte, then LEN 0000 and NLEN FFFF, zlib's sync-flush marker — so the next
/// piece starts on a byte boundary as it was written. Pieces never refer back past their start,
/// so every reader inflates the joined stream to the input. The cost is the history the second
/// piece cannot refer to (+0.37 % on the corpus's 618-px stills, NOTES.md) and 4–5 bytes a seam.
///
/// The pieces depend on the input alone, never on the cores or the scheduling: the bytes are the
/// same on one core. The second core is taken only when the process's `CorePool` has one spare
/// (`--jobs 1` has none; the last file of a batch has the finished workers'); otherwise the
/// pieces are compressed in turn on the calling thread.
enum SplitDeflate {
    /// Pieces a large stream is split into.
    static let largeStreamPieces = 2
    /// Streams of fewer input bytes are compressed whole (a 408-px RGBA still has 666,264).
    static let minimumBytes = 524_288
    /// Blank edges (below) of fewer bytes stay in the stream: about what libdeflate's level 10
    /// spends a millisecond on.
    static let minimumBlankBytes = 65_536
    /// The level blank edges are compressed at: runs of zeros come out the same size at every
    /// level from 3 up (588 bytes for 570,000), but level 10 takes ten times as long on them.
    static let blankLevel = 6

    /// One piece of a joined stream: where it lies in the input and the level it is compressed at.
    struct Piece: Equatable {
        var range: Range<Int>
        var level: Int
    }

    /// Whether `count` input bytes at `level` are compressed in pieces: only the slow
    /// near-optimal levels pay for the seam.
    static func applies(count: Int, level: Int) -> Bool { count >= minimumBytes && level >= 10 }

    /// The pieces the filtered rows `input` (rows of `rowBytes` bytes, filter byte first) are
    /// compressed in at `level`: at the near-optimal levels, the blank edges apart — the leading
    /// and trailing rows whose samples are all zero, the transparent padding of a fitted
    /// sticker, which level 10 walks slowly for a few hundred bytes — at `blankLevel`, and what
    /// lies between in `largeStreamPieces` when it is large (`applies`). One piece: compressed whole.
    static func pieces(of input: [UInt8], rowBytes: Int, level: Int) -> [Piece] {
        guard level >= 10, rowBytes > 1, input.count % rowBytes == 0 else { return [Piece(range: 0..<input.count, level: level)] }
        let rows = input.count / rowBytes
        let (top, bottom) = input.withUnsafeBufferPointer { p -> (Int, Int) in
            func blank(_ row: Int) -> Bool {
                let start = row * rowBytes + 1
                return UnsafeBufferPointer(rebasing: p[start..<(start + rowBytes - 1)]).allSatisfy { $0 == 0 }
            }
            var top = 0
            while top < rows && blank(top) { top += 1 }
            var bottom = rows
            while bottom > top && blank(bottom - 1) { bottom -= 1 }
            return (top, bottom)
        }
        var out: [Piece] = []
        var start = 0, end = input.count
        if top * rowBytes >= minimumBlankBytes {
            start = top * rowBytes
            out.append(Piece(range: 0..<start, level: blankLevel))
        }
        let tail = (rows - bottom) * rowBytes >= minimumBlankBytes ? Piece(range: bottom * rowBytes..<input.count, level: blankLevel) : nil
        if let tail { end = tail.range.lowerBound }
        if start < end {
            let n = applies(count: end - start, level: level) ? largeStreamPieces : 1
            for i in 0..<n {
                out.append(Piece(range: (start + (end - start) * i / n)..<(start + (end - start) * (i + 1) / n), level: level))
            }
        }
        if let tail { out.append(tail) }
        return out.isEmpty ? [Piece(range: 0..<input.count, level: level)] : out
    }

    /// The zlib stream at `level` of the filtered rows `input` (rows of `rowBytes` bytes) in its
    /// `pieces(of:rowBytes:level:)`; nil when that is one piece at `level`, or when a piece could
    /// not be compressed or walked: the caller then compresses it whole.
    static func zlib(_ input: [UInt8], rowBytes: Int, level: Int) -> [UInt8]? {
        let parts = pieces(of: input, rowBytes: rowBytes, level: level)
        if parts == [Piece(range: 0..<input.count, level: level)] { return nil }
        return zlib(input, pieces: parts, headerLevel: level)
    }

    /// The zlib stream of `input` made of `parts`, consecutive pieces that cover it, each
    /// compressed at its own level; the header names `headerLevel`. Nil when a piece could not
    /// be compressed or walked. The pieces are compressed on the calling thread and the process's
    /// spare cores (`CorePool`).
    static func zlib(_ input: [UInt8], pieces parts: [Piece], headerLevel: Int) -> [UInt8]? {
        @Sendable func piece(_ i: Int, _ compressor: ZlibCompressor) -> [UInt8]? {
            input.withUnsafeBufferPointer { compressor.deflate(UnsafeBufferPointer(rebasing: $0[parts[i].range]), level: parts[i].level) }
        }
        var streams = [[UInt8]?](repeating: nil, count: parts.count)
        // Only pieces at the near-optimal levels are worth a thread of their own.
        let heavy = parts.indices.filter { parts[$0].level >= 10 }
        CorePool.shared.withSpareCores(upTo: max(0, heavy.count - 1)) { spare in
            if spare > 0 {
                streams.withUnsafeMutableBufferPointer { buffer in
                    let slots = DisjointSlots(buffer)
                    // A libdeflate compressor is not thread-safe: one per piece.
                    DispatchQueue.concurrentPerform(iterations: heavy.count) { k in
                        slots.store(piece(heavy[k], ZlibCompressor()), at: heavy[k])
                    }
                }
            }
            let compressor = ZlibCompressor()
            for i in parts.indices where streams[i] == nil { streams[i] = piece(i, compressor) }
        }
        var out = header(level: headerLevel)
        for (i, stream) in streams.enumerated() {
            guard var stream else { return nil }
            if i < parts.count - 1 {
                guard continueAfter(&stream) else { return nil }
            }
            out += stream
        }
        let adler = input.withUnsafeBufferPointer { libdeflate_adler32(1, $0.baseAddress, $0.count) }
        out += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// Turns the raw stream `part` into one that continues: its final block made non-final and an
    /// empty stored block appended, ending on a byte boundary. False when `part` does not end
    /// with its final block.
    static func continueAfter(_ part: inout [UInt8]) -> Bool {
        guard let (header, end) = part.withUnsafeBufferPointer({ DeflateBlocks.finalBlock($0) }),
              (end + 7) / 8 == part.count else { return false }
        part[header >> 3] &= ~(1 << UInt8(header & 7))
        // The bits after the end-of-block code are padding; the stored block's header (not
        // final, type 00) is three zero bits there.
        if end & 7 != 0 { part[part.count - 1] &= UInt8((1 << (end & 7)) - 1) }
        let storedHeaderEnd = end + 3
        while part.count * 8 < storedHeaderEnd { part.append(0) }
        part += [0x00, 0x00, 0xFF, 0xFF]
        return true
    }

    /// The zlib header libdeflate writes for `level` (RFC 1950: deflate with a 32 KB window,
    /// the level hint, the check bits), so a joined stream starts as a whole one would.
    static func header(level: Int) -> [UInt8] {
        let hint = level < 2 ? 0 : level < 6 ? 1 : level < 8 ? 2 : 3
        var h = 0x7800 | hint << 6
        h |= 31 - h % 31
        return [UInt8(h >> 8), UInt8(h & 0xFF)]
    }
}
