import CDeflate
import Dispatch
import ImageCore

/// One zlib stream made of independently compressed consecutive pieces of the input, so that a
/// large still's one expensive stream (level 10) uses every core: each piece is compressed as
/// raw DEFLATE on its own thread with its own compressor, then the pieces are joined.
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
    /// Pieces a stream is split into.
    static let pieces = 2
    /// Streams of fewer input bytes are compressed whole (a 408-px RGBA still has 666,264).
    static let minimumBytes = 524_288

    /// Whether `count` input bytes at `level` are compressed in pieces: only the slow
    /// near-optimal levels pay for the seam.
    static func applies(count: Int, level: Int) -> Bool { count >= minimumBytes && level >= 10 }

    /// The zlib stream of `input` at `level`, compressed in `pieces` pieces; nil when a piece
    /// could not be compressed or walked (the caller then compresses it whole).
    static func zlib(_ input: [UInt8], level: Int) -> [UInt8]? {
        let cuts = (0...pieces).map { input.count * $0 / pieces }
        @Sendable func piece(_ i: Int, _ compressor: ZlibCompressor) -> [UInt8]? {
            input.withUnsafeBufferPointer { compressor.deflate(UnsafeBufferPointer(rebasing: $0[cuts[i]..<cuts[i + 1]]), level: level) }
        }
        var parts = [[UInt8]?](repeating: nil, count: pieces)
        CorePool.shared.withSpareCores(upTo: pieces - 1) { spare in
            if spare > 0 {
                parts.withUnsafeMutableBufferPointer { buffer in
                    let slots = DisjointSlots(buffer)
                    // A libdeflate compressor is not thread-safe: one per piece.
                    DispatchQueue.concurrentPerform(iterations: pieces) { i in slots.store(piece(i, ZlibCompressor()), at: i) }
                }
            } else {
                let compressor = ZlibCompressor()
                for i in 0..<pieces { parts[i] = piece(i, compressor) }
            }
        }
        var out = header(level: level)
        for (i, part) in parts.enumerated() {
            guard var part else { return nil }
            if i < pieces - 1 {
                guard continueAfter(&part) else { return nil }
            }
            out += part
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
