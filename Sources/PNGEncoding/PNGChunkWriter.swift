import CDeflate

/// Builds a PNG byte stream: the signature, then chunks (length, type, data, CRC-32). Which
/// chunks come in which order is `PNGFile`'s business.
struct PNGChunkWriter {
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    /// Image data is split into chunks of at most this many bytes. One large chunk costs the
    /// fewest bytes (12 per chunk); 1 MiB keeps every chunk far below the 2³¹ − 1 limit and
    /// below what cautious decoders accept.
    static let maxDataChunk = 1 << 20

    private(set) var bytes: [UInt8]

    init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity + 64)
        bytes.append(contentsOf: PNGChunkWriter.signature)
    }

    /// Appends one chunk. `type` is the four ASCII letters.
    mutating func append(_ type: StaticString, _ data: [UInt8]) {
        data.withUnsafeBufferPointer { append(type, prefix: nil, data: UnsafeRawBufferPointer($0)) }
    }

    /// Appends one chunk whose data is `prefix` (a big-endian sequence number, for fdAT) followed
    /// by `data`.
    mutating func append(_ type: StaticString, prefix: UInt32?, data: UnsafeRawBufferPointer) {
        precondition(type.utf8CodeUnitCount == 4)
        let length = data.count + (prefix == nil ? 0 : 4)
        bytes.appendBigEndian(UInt32(length))
        let typeStart = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(start: type.utf8Start, count: 4))
        if let prefix { bytes.appendBigEndian(prefix) }
        if data.count > 0 { bytes.append(contentsOf: data) }
        let crc = bytes.withUnsafeBufferPointer { b in
            libdeflate_crc32(0, b.baseAddress! + typeStart, bytes.count - typeStart)
        }
        bytes.appendBigEndian(crc)
    }

    /// Appends `stream` as IDAT chunks of at most `maxDataChunk` bytes.
    mutating func appendImageData(_ stream: [UInt8]) {
        appendSplit("IDAT", stream) { nil }
    }

    /// Appends `stream` as fdAT chunks of at most `maxDataChunk` bytes, each taking the next
    /// sequence number.
    mutating func appendFrameData(_ stream: [UInt8], sequence: inout UInt32) {
        var next = sequence
        appendSplit("fdAT", stream) {
            defer { next += 1 }
            return next
        }
        sequence = next
    }

    /// `stream` in chunks of type `type`, each prefixed by `prefix()` when that is not nil.
    private mutating func appendSplit(_ type: StaticString, _ stream: [UInt8], prefix: () -> UInt32?) {
        stream.withUnsafeBytes { s in
            var offset = 0
            repeat {
                let n = min(PNGChunkWriter.maxDataChunk, s.count - offset)
                append(type, prefix: prefix(), data: UnsafeRawBufferPointer(rebasing: s[offset..<(offset + n)]))
                offset += n
            } while offset < s.count
        }
    }
}
