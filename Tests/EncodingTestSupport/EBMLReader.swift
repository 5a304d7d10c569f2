
/// A small, strict EBML reader for the tests: it parses a whole file into elements, recursing
/// into the master elements WebM uses, and fails on any size that does not add up (a child that
/// runs past its parent, a parent whose children do not fill it exactly, an unknown size).
public struct EBMLElement: Sendable {
    public var id: UInt32
    /// Offset of the element's ID in the file, and of its body.
    public var offset: Int
    public var bodyOffset: Int
    public var body: ArraySlice<UInt8>
    public var children: [EBMLElement]

    public func first(_ id: UInt32) -> EBMLElement? { children.first { $0.id == id } }
    public func all(_ id: UInt32) -> [EBMLElement] { children.filter { $0.id == id } }
    /// The element at the end of a path of IDs (first match at each step).
    public func find(_ path: UInt32...) -> EBMLElement? {
        var e: EBMLElement? = self
        for id in path { e = e?.first(id) }
        return e
    }

    public var unsigned: UInt64 { body.reduce(0) { $0 << 8 | UInt64($1) } }
    public var signed: Int64 {
        guard let first = body.first else { return 0 }
        var v: Int64 = first & 0x80 != 0 ? -1 : 0
        for b in body { v = v << 8 | Int64(b) }
        return v
    }
    public var string: String { String(decoding: body, as: UTF8.self) }
    public var float: Double {
        body.count == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: unsigned))) : Double(bitPattern: unsigned)
    }
}

public enum EBMLReaderError: Error { case badVint(at: Int), runsPast(at: Int, end: Int), unknownSize(at: Int) }

public enum EBMLReader {
    /// Master elements of the WebM profile that the reader descends into.
    public static let masters: Set<UInt32> = [0x1A45_DFA3, 0x1853_8067, 0x114D_9B74, 0x4DBB, 0x1549_A966, 0x1654_AE6B, 0xAE,
                                        0xE0, 0x55B0, 0x1F43_B675, 0xA0, 0x75A1, 0xA6, 0x1C53_BB6B, 0xBB, 0xB7]

    public static func parse(_ bytes: [UInt8]) throws -> [EBMLElement] {
        try parse(bytes, from: 0, to: bytes.count)
    }

    private static func parse(_ bytes: [UInt8], from start: Int, to end: Int) throws -> [EBMLElement] {
        var out: [EBMLElement] = []
        var at = start
        while at < end {
            let (id, idLength) = try vint(bytes, at, keepMarker: true, limit: end)
            let (size, sizeLength) = try vint(bytes, at + idLength, keepMarker: false, limit: end)
            if size == (UInt64(1) << (7 * UInt64(sizeLength))) - 1 { throw EBMLReaderError.unknownSize(at: at) }
            let bodyStart = at + idLength + sizeLength
            let bodyEnd = bodyStart + Int(size)
            guard bodyEnd <= end else { throw EBMLReaderError.runsPast(at: at, end: end) }
            let children = masters.contains(UInt32(id)) ? try parse(bytes, from: bodyStart, to: bodyEnd) : []
            out.append(EBMLElement(id: UInt32(id), offset: at, bodyOffset: bodyStart, body: bytes[bodyStart..<bodyEnd],
                                   children: children))
            at = bodyEnd
        }
        return out
    }

    private static func vint(_ b: [UInt8], _ at: Int, keepMarker: Bool, limit: Int) throws -> (UInt64, Int) {
        guard at < limit, b[at] != 0 else { throw EBMLReaderError.badVint(at: at) }
        let length = b[at].leadingZeroBitCount + 1
        guard at + length <= limit else { throw EBMLReaderError.runsPast(at: at, end: limit) }
        var v = UInt64(keepMarker ? b[at] : b[at] & (0xFF >> length))
        for i in 1..<length { v = v << 8 | UInt64(b[at + i]) }
        return (v, length)
    }
}
