import ImageCore

/// Walks a PNG file chunk by chunk: checks the signature, each chunk's length, type and CRC, and
/// says precisely where the data ends when the file is cut short.
struct PNGChunkReader {
    /// The 8 bytes every PNG opens with (`ImageFormat.png`'s signature).
    static let signature: [UInt8] = ImageFormat.png.signatures[0].parts[0].bytes

    let bytes: [UInt8]
    let lenient: Bool
    /// Offset of the next chunk.
    private(set) var offset = 8
    /// Set when the file ends inside a chunk (lenient mode only; strict mode throws).
    private(set) var endedInsideChunk = false
    /// CRC mismatches ignored in lenient mode, for the warnings.
    private(set) var ignoredCRCMismatches: [PNGError] = []

    init(bytes: [UInt8], lenient: Bool) {
        self.bytes = bytes
        self.lenient = lenient
    }

    /// Checks the 8-byte signature, naming the typical damage: a stripped high bit (7-bit
    /// transfer) or CR/LF bytes rewritten by a text-mode transfer.
    static func checkSignature(_ bytes: [UInt8]) throws {
        func fail(_ reason: PNGError) -> ImageError { ImageError(.png, reason) }
        if bytes.isEmpty { throw fail(.emptyFile) }
        if bytes.count >= 8 && bytes.starts(with: signature) { return }
        let head = Array(bytes.prefix(8))
        if bytes.count < 8 && signature.starts(with: head) {
            throw fail(.shorterThanSignature(bytes: bytes.count))
        }
        let looksLikePNG = head.count >= 4 && head[1] == 0x50 && head[2] == 0x4E && head[3] == 0x47
        if looksLikePNG && head[0] == 0x09 && head.count == 8 && Array(head[4...]) == Array(signature[4...]) {
            throw fail(.highBitStripped)
        }
        if looksLikePNG && head[0] & 0x7F == 0x09 {
            // Bytes 4…7 are CR LF SUB LF; a text-mode transfer turns CR and LF into one another or
            // adds bytes. Show what it became.
            let tail = Array(bytes.dropFirst(4).prefix(4))
            if tail != Array(signature[4...]) && tail.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
                throw fail(.lineEndingsRewritten(found: tail))
            }
        }
        throw fail(.notASignature(firstBytes: head))
    }

    /// The next chunk, or nil at the end of the data (or, in lenient mode, where the data stops
    /// making sense). `format` names the file in errors.
    mutating func next(format: ImageFormat) throws -> PNGChunk? {
        func fail(_ reason: PNGError) -> ImageError { ImageError(format, reason) }
        let total = bytes.count
        if offset >= total { return nil }
        let remaining = total - offset
        if remaining < 8 {
            if lenient { endedInsideChunk = true; offset = total; return nil }
            throw fail(.endsInChunkHeader(fileSize: total, offset: offset))
        }
        let length = Int(read32(offset))
        let type = read32(offset + 4)
        let name = PNGChunk.name(of: type)
        if !PNGChunkReader.isValidType(type) {
            if lenient { endedInsideChunk = true; offset = total; return nil }
            throw fail(.invalidChunkType(type, offset: offset))
        }
        if length > 0x7FFF_FFFF {
            if lenient { endedInsideChunk = true; offset = total; return nil }
            throw fail(.chunkLengthOverMaximum(chunk: name, length: length))
        }
        let dataStart = offset + 8
        let available = total - dataStart
        if available < length + 4 {
            if lenient {
                endedInsideChunk = true
                offset = total
                return PNGChunk(type: type, dataStart: dataStart, length: min(length, available), declaredLength: length)
            }
            throw fail(.endsInChunk(fileSize: total, chunk: name, length: length, offset: offset))
        }
        let stored = read32(dataStart + length)
        let computed = bytes.withUnsafeBufferPointer { PNGChunk.crc($0, chunkAt: offset, length: length) }
        if stored != computed {
            let mismatch = PNGError.crcMismatch(chunk: name, stored: stored, computed: computed)
            if !lenient { throw fail(mismatch) }
            ignoredCRCMismatches.append(mismatch)
        }
        offset = dataStart + length + 4
        return PNGChunk(type: type, dataStart: dataStart, length: length, declaredLength: length)
    }

    func read32(_ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    /// Chunk types are four ASCII letters.
    static func isValidType(_ type: UInt32) -> Bool {
        for shift in stride(from: 24, through: 0, by: -8) {
            let c = UInt8(truncatingIfNeeded: type >> UInt32(shift))
            if !((c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)) { return false }
        }
        return true
    }
}
