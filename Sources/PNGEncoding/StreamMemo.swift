import Foundation

/// What one `ZlibCompressor` has deflated, by input: an input met again, byte for byte, at the
/// same level and in the same form takes the stream (or size) made the first time. In an APNG
/// encode the same rows come back whenever a region returns to an earlier state — a terminal's
/// cursor blinking on and off, a clock's hand back where it was — and their candidates are
/// ranked and compressed again otherwise (the 380-frame terminal recording of the animated
/// corpus: 1,026 of its 9,040 level-1 rankings and 974 of its 8,844 level-6 streams at
/// `--size all`). libdeflate's output depends on its input and level alone, so the bytes are
/// the same either way.
///
/// Entries keep their inputs (shared arrays, not copies) to be compared in full on a hit. Only
/// small inputs are kept (`maxInputBytes`), at most `maxHeldBytes` of inputs and results in
/// all, the oldest dropped first: the regions that repeat are small, and repeat soon.
struct StreamMemo {
    enum Form: UInt64 {
        /// A zlib stream (`ZlibCompressor.compress`).
        case zlib = 1
        /// The size of a raw deflate stream (`ZlibCompressor.compressedSize`).
        case rawSize = 2
    }

    enum Result {
        case stream([UInt8])
        case size(Int)

        var bytes: Int {
            switch self {
            case .stream(let s): s.count
            case .size: 8
            }
        }
    }

    private struct Entry {
        let input: [UInt8]
        let form: Form
        let level: Int
        let result: Result
        /// Its place in `order`.
        let serial: Int
        var bytes: Int { input.count + result.bytes }
    }

    static let maxInputBytes = 128 * 1024
    static let maxHeldBytes = 4 << 20

    private var entries: [UInt64: Entry] = [:]
    /// Digests and serials in the order kept; the oldest still kept at `head`.
    private var order: [(digest: UInt64, serial: Int)] = []
    private var head = 0
    private var serials = 0
    private var held = 0

    init() {}

    /// Bytes the kept entries hold.
    var heldBytes: Int { held }
    /// Lookups answered so far.
    private(set) var hits = 0

    /// A digest of the form, level and length and of a sample of the bytes (at most 64 words,
    /// spread over them, and the last): equal inputs have equal digests, and a hit is
    /// confirmed by comparing every byte.
    static func digest(_ input: [UInt8], form: Form, level: Int) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ form.rawValue << 8 ^ UInt64(level)
        @inline(__always) func mix(_ v: UInt64) {
            h = (h ^ v) &* 0x100_0000_01B3
            h ^= h >> 29
        }
        mix(UInt64(input.count))
        input.withUnsafeBytes { b in
            let words = b.count / 8
            guard words > 0 else {
                for x in b { mix(UInt64(x)) }
                return
            }
            let step = max(1, words / 64)
            for w in stride(from: 0, to: words, by: step) { mix(b.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)) }
            mix(b.loadUnaligned(fromByteOffset: b.count - 8, as: UInt64.self))
        }
        return h
    }

    /// The result kept for `input` in `form` at `level`, if any.
    mutating func lookup(_ input: [UInt8], digest: UInt64, form: Form, level: Int) -> Result? {
        guard let e = entries[digest], e.form == form, e.level == level, e.input.count == input.count else { return nil }
        let same = e.input.withUnsafeBytes { a in
            input.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        guard same else { return nil }
        hits += 1
        return e.result
    }

    /// Keeps `result` for `input`, if small enough to keep, dropping the oldest entries past
    /// `maxHeldBytes`.
    mutating func remember(_ input: [UInt8], digest: UInt64, form: Form, level: Int, result: Result) {
        guard input.count <= StreamMemo.maxInputBytes else { return }
        serials += 1
        let entry = Entry(input: input, form: form, level: level, result: result, serial: serials)
        // A digest met again with other bytes keeps the newer input; the older one's place in
        // `order` then drops nothing when its turn comes.
        if let old = entries.removeValue(forKey: digest) { held -= old.bytes }
        while held + entry.bytes > StreamMemo.maxHeldBytes, head < order.count {
            let oldest = order[head]
            head += 1
            if let e = entries[oldest.digest], e.serial == oldest.serial {
                entries[oldest.digest] = nil
                held -= e.bytes
            }
        }
        if head > 64 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
        entries[digest] = entry
        order.append((digest, serials))
        held += entry.bytes
    }
}
