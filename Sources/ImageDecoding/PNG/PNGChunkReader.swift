import CDeflate
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
    private(set) var ignoredCRCMismatches: [String] = []

    init(bytes: [UInt8], lenient: Bool) {
        self.bytes = bytes
        self.lenient = lenient
    }

    /// Checks the 8-byte signature, naming the typical damage: a stripped high bit (7-bit
    /// transfer) or CR/LF bytes rewritten by a text-mode transfer.
    static func checkSignature(_ bytes: [UInt8]) throws {
        if bytes.isEmpty { throw ImageError.decoding(.png, "file is 0 bytes") }
        if bytes.count >= 8 && bytes.starts(with: signature) { return }
        let head = Array(bytes.prefix(8))
        let hex = head.map(hexByte).joined(separator: " ")
        if bytes.count < 8 && signature.starts(with: head) {
            throw ImageError.decoding(.png, "file is \(bytes.count) bytes, shorter than the 8-byte PNG signature")
        }
        let looksLikePNG = head.count >= 4 && head[1] == 0x50 && head[2] == 0x4E && head[3] == 0x47
        if looksLikePNG && head[0] == 0x09 && head.count == 8 && Array(head[4...]) == Array(signature[4...]) {
            throw ImageError.decoding(.png, "damaged signature: first byte is 0x09, not 0x89 (high bit stripped by a 7-bit transfer)")
        }
        if looksLikePNG && head[0] & 0x7F == 0x09 {
            // Bytes 4…7 are CR LF SUB LF; a text-mode transfer turns CR and LF into one another or
            // adds bytes. Show what it became.
            let tail = Array(bytes.dropFirst(4).prefix(4))
            if tail != Array(signature[4...]) && tail.contains(where: { $0 == 0x0D || $0 == 0x0A }) {
                throw ImageError.decoding(.png, "damaged signature: CR/LF bytes changed by a text-mode transfer (\(tail.map(hexByte).joined(separator: " ")) instead of 0d 0a 1a 0a)")
            }
        }
        throw ImageError.decoding(.png, "not a PNG signature (first bytes \(hex))")
    }

    /// The next chunk, or nil at the end of the data (or, in lenient mode, where the data stops
    /// making sense). `format` names the file in messages.
    mutating func next(format: ImageFormat) throws -> PNGChunk? {
        let total = bytes.count
        if offset >= total { return nil }
        let remaining = total - offset
        if remaining < 8 {
            if lenient { endedInsideChunk = true; offset = total; return nil }
            throw ImageError.decoding(format, "data ends after \(total) bytes (inside a chunk header at offset \(offset))")
        }
        let length = Int(read32(offset))
        let type = read32(offset + 4)
        let name = PNGChunk.name(of: type)
        if !PNGChunkReader.isValidType(type) {
            if lenient { endedInsideChunk = true; offset = total; return nil }
            throw ImageError.decoding(format, "invalid chunk type 0x\(String(type, radix: 16)) at offset \(offset) (damaged or not a PNG)")
        }
        if length > 0x7FFF_FFFF {
            if lenient { endedInsideChunk = true; offset = total; return nil }
            throw ImageError.decoding(format, "\(name) chunk length \(length) is over the 2^31−1 maximum")
        }
        let dataStart = offset + 8
        let available = total - dataStart
        if available < length + 4 {
            if lenient {
                endedInsideChunk = true
                offset = total
                return PNGChunk(type: type, dataStart: dataStart, length: min(length, available), declaredLength: length)
            }
            throw ImageError.decoding(format, "data ends after \(total) bytes (in \(name), which declares \(length) bytes at offset \(offset))")
        }
        let stored = read32(dataStart + length)
        let computed = bytes.withUnsafeBufferPointer { p -> UInt32 in
            UInt32(libdeflate_crc32(0, p.baseAddress! + offset + 4, 4 + length))
        }
        if stored != computed {
            let what = "\(name) CRC mismatch (stored 0x\(hex32(stored)), computed 0x\(hex32(computed)))"
            if !lenient { throw ImageError.decoding(format, what) }
            ignoredCRCMismatches.append(what)
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

func hexByte(_ b: UInt8) -> String {
    let s = String(b, radix: 16)
    return s.count == 1 ? "0" + s : s
}

func hex32(_ v: UInt32) -> String {
    let s = String(v, radix: 16)
    return String(repeating: "0", count: max(0, 8 - s.count)) + s
}
