import ImageCore

/// What a WebM file's structure says, read from its EBML elements without decoding a frame: what
/// `check --platform` validates video stickers with. The one reader of WebM structure (the
/// encoder's muxer writes it; nothing here decodes VP9).
///
/// Read: the EBML header's DocType (`webm`), the Segment's Info (TimestampScale, Duration), the
/// first video track (CodecID, PixelWidth, PixelHeight, AlphaMode) and every Cluster's block
/// timestamps (SimpleBlock and BlockGroup/Block of that track). Framing is checked: an element
/// running past its parent or the file is an error.
public struct WebMOutline: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// The track's codec, as stored (`V_VP9`, `V_VP8`, `V_AV1`).
    public var codecID: String
    /// The track declares alpha (`AlphaMode` 1: a second stream in BlockAdditional).
    public var alphaMode: Bool
    /// Blocks of the video track, that is frames.
    public var frameCount: Int
    /// Each frame's timestamp in milliseconds, in file order.
    public var frameTimesMs: [Double]
    /// The Segment's Duration in milliseconds, when stored.
    public var durationMs: Double?

    /// The outline of `bytes`, or nil when they do not open with an EBML header of DocType
    /// `webm`. Throws `ImageError` (`WebMOutlineError`) for broken framing or a missing track.
    public static func read(_ bytes: [UInt8]) throws -> WebMOutline? {
        guard bytes.count >= 4, bytes[0] == 0x1A, bytes[1] == 0x45, bytes[2] == 0xDF, bytes[3] == 0xA3 else { return nil }
        var reader = Reader(bytes: bytes)
        return try reader.outline()
    }

    /// Whether `bytes` open with an EBML header (WebM or Matroska).
    public static func isEBML(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x1A && bytes[1] == 0x45 && bytes[2] == 0xDF && bytes[3] == 0xA3
    }

    private struct Element {
        var id: UInt32
        var start: Int   // first byte of the data
        var end: Int     // one past the last byte of the data
    }

    private struct Reader {
        let bytes: [UInt8]

        func fail(_ e: WebMOutlineError) -> ImageError { ImageError(nil, e) }

        /// The element header at `at`, within `limit`.
        func element(at: Int, limit: Int) throws -> Element {
            var p = at
            guard p < limit else { throw fail(.truncated(at: at)) }
            let first = bytes[p]
            guard first != 0 else { throw fail(.badElement(at: at)) }
            let idLength = first.leadingZeroBitCount + 1
            guard idLength <= 4, p + idLength <= limit else { throw fail(.truncated(at: at)) }
            var id: UInt32 = 0
            for k in 0..<idLength { id = id << 8 | UInt32(bytes[p + k]) }
            p += idLength
            guard p < limit else { throw fail(.truncated(at: at)) }
            let s = bytes[p]
            guard s != 0 else { throw fail(.badElement(at: at)) }
            let sizeLength = s.leadingZeroBitCount + 1
            guard p + sizeLength <= limit else { throw fail(.truncated(at: at)) }
            var size = UInt64(s) & ((1 << (8 - UInt64(sizeLength))) - 1)
            var allOnes = size == (1 << (8 - UInt64(sizeLength))) - 1
            for k in 1..<sizeLength {
                size = size << 8 | UInt64(bytes[p + k])
                allOnes = allOnes && bytes[p + k] == 0xFF
            }
            p += sizeLength
            // An unknown size (all ones) runs to the end of the parent.
            let end = allOnes ? limit : (size <= UInt64(limit - p) ? p + Int(size) : -1)
            guard end >= 0 else { throw fail(.pastEnd(id: id, at: at)) }
            return Element(id: id, start: p, end: end)
        }

        func children(_ start: Int, _ end: Int) throws -> [Element] {
            var out: [Element] = []
            var p = start
            while p < end {
                let e = try element(at: p, limit: end)
                out.append(e)
                p = e.end
            }
            return out
        }

        func uint(_ e: Element) -> UInt64 {
            bytes[e.start..<e.end].prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        }

        func float(_ e: Element) -> Double? {
            switch e.end - e.start {
            case 4: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: uint(e))))
            case 8: return Double(bitPattern: uint(e))
            default: return nil
            }
        }

        func string(_ e: Element) -> String {
            String(decoding: bytes[e.start..<e.end].prefix { $0 != 0 }, as: UTF8.self)
        }

        mutating func outline() throws -> WebMOutline {
            let top = try children(0, bytes.count)
            guard let header = top.first, header.id == 0x1A45DFA3 else { throw fail(.notWebM(docType: nil)) }
            let docType = try children(header.start, header.end).first { $0.id == 0x4282 }.map(string)
            guard docType == "webm" else { throw fail(.notWebM(docType: docType)) }
            guard let segment = top.first(where: { $0.id == 0x18538067 }) else { throw fail(.missing("Segment")) }
            var scale = 1_000_000.0
            var rawDuration: Double? = nil
            var track: (number: UInt64, codec: String, width: Int, height: Int, alpha: Bool)? = nil
            var times: [Double] = []
            for e in try children(segment.start, segment.end) {
                switch e.id {
                case 0x1549A966:   // Info
                    for i in try children(e.start, e.end) {
                        if i.id == 0x2AD7B1 { scale = Double(uint(i)) }
                        if i.id == 0x4489 { rawDuration = float(i) }
                    }
                case 0x1654AE6B:   // Tracks
                    for t in try children(e.start, e.end) where t.id == 0xAE && track == nil {
                        var number: UInt64 = 0, codec = "", type: UInt64 = 0, w = 0, h = 0, alpha = false
                        for f in try children(t.start, t.end) {
                            switch f.id {
                            case 0xD7: number = uint(f)
                            case 0x83: type = uint(f)
                            case 0x86: codec = string(f)
                            case 0xE0:
                                for v in try children(f.start, f.end) {
                                    if v.id == 0xB0 { w = Int(clamping: uint(v)) }
                                    if v.id == 0xBA { h = Int(clamping: uint(v)) }
                                    if v.id == 0x53C0 { alpha = uint(v) == 1 }
                                }
                            default: break
                            }
                        }
                        if type == 1 { track = (number, codec, w, h, alpha) }
                    }
                case 0x1F43B675:   // Cluster
                    guard let track else { throw fail(.missing("video track before the first Cluster")) }
                    var clusterTime: UInt64 = 0
                    for c in try children(e.start, e.end) {
                        switch c.id {
                        case 0xE7: clusterTime = uint(c)
                        case 0xA3:
                            if let t = blockTime(c, track: track.number) { times.append((Double(clusterTime) + t) * scale / 1e6) }
                        case 0xA0:
                            for b in try children(c.start, c.end) where b.id == 0xA1 {
                                if let t = blockTime(b, track: track.number) { times.append((Double(clusterTime) + t) * scale / 1e6) }
                            }
                        default: break
                        }
                    }
                default: break
                }
            }
            guard let track else { throw fail(.missing("video track")) }
            return WebMOutline(width: track.width, height: track.height, codecID: track.codec, alphaMode: track.alpha,
                               frameCount: times.count, frameTimesMs: times, durationMs: rawDuration.map { $0 * scale / 1e6 })
        }

        /// A block's timestamp relative to its cluster, when it belongs to `track`.
        func blockTime(_ b: Element, track: UInt64) -> Double? {
            guard b.end - b.start >= 4 else { return nil }
            let first = bytes[b.start]
            let n = first.leadingZeroBitCount + 1
            guard n <= 8, b.start + n + 2 <= b.end else { return nil }
            var number = UInt64(first) & ((1 << (8 - UInt64(n))) - 1)
            for k in 1..<n { number = number << 8 | UInt64(bytes[b.start + k]) }
            guard number == track else { return nil }
            let rel = Int16(bitPattern: UInt16(bytes[b.start + n]) << 8 | UInt16(bytes[b.start + n + 1]))
            return Double(rel)
        }
    }
}

/// What is wrong with a WebM file's structure (`WebMOutline.read`). Offsets are from the start
/// of the file.
public enum WebMOutlineError: ImageErrorReason {
    case truncated(at: Int)
    case badElement(at: Int)
    case pastEnd(id: UInt32, at: Int)
    case notWebM(docType: String?)
    case missing(String)

    public var kind: ImageError.Kind { .decoding }

    public var message: String {
        switch self {
        case .truncated(let at): "WebM: element header cut off at byte \(at)"
        case .badElement(let at): "WebM: invalid element header at byte \(at)"
        case let .pastEnd(id, at): "WebM: element 0x\(String(id, radix: 16, uppercase: true)) at byte \(at) runs past its parent"
        case .notWebM(let docType): "EBML file of DocType \(docType.map { "'\($0)'" } ?? "(none)"), not WebM"
        case .missing(let what): "WebM: no \(what)"
        }
    }
}
