/// Writes EBML elements (RFC 8794): an ID, the body's size as a variable-length integer of the
/// fewest bytes, then the body. Master elements are written by a closure into a nested writer,
/// so every size is known when it is written (a sticker's file is built in memory whole; no
/// unknown sizes, no seeking back).
struct EBMLWriter {
    private(set) var bytes: [UInt8] = []

    /// A master element whose children `body` writes.
    mutating func master(_ id: MatroskaID, _ body: (inout EBMLWriter) -> Void) {
        var inner = EBMLWriter()
        body(&inner)
        binary(id, inner.bytes)
    }

    /// An unsigned integer in the fewest bytes (one for zero).
    mutating func unsigned(_ id: MatroskaID, _ value: UInt64) {
        var count = 1
        while count < 8 && value >> (8 * UInt64(count)) != 0 { count += 1 }
        unsigned(id, value, width: count)
    }

    /// An unsigned integer in exactly `width` bytes, for values patched after the layout is known.
    mutating func unsigned(_ id: MatroskaID, _ value: UInt64, width: Int) {
        binary(id, (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }

    /// A signed integer, two's complement, in the fewest bytes.
    mutating func signed(_ id: MatroskaID, _ value: Int64) {
        var count = 1
        while count < 8 && !(Int64(-1) << (8 * Int64(count) - 1) <= value && value < Int64(1) << (8 * Int64(count) - 1)) {
            count += 1
        }
        binary(id, (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * Int64($0))) })
    }

    /// An IEEE 754 double, 8 bytes big-endian.
    mutating func float(_ id: MatroskaID, _ value: Double) {
        unsigned(id, value.bitPattern, width: 8)
    }

    /// A UTF-8 string without terminator.
    mutating func string(_ id: MatroskaID, _ value: String) {
        binary(id, Array(value.utf8))
    }

    mutating func binary(_ id: MatroskaID, _ body: [UInt8]) {
        bytes += id.bytes
        bytes += EBMLWriter.size(body.count)
        bytes += body
    }

    /// `size` as an EBML variable-length integer: the fewest bytes whose value bits hold it
    /// without being all ones (which means "unknown size").
    static func size(_ size: Int) -> [UInt8] {
        let value = UInt64(size)
        var length = 1
        while length < 8 && value >= (UInt64(1) << (7 * UInt64(length))) - 1 { length += 1 }
        let marked = value | (UInt64(1) << (7 * UInt64(length)))
        return (0..<length).reversed().map { UInt8(truncatingIfNeeded: marked >> (8 * UInt64($0))) }
    }
}
