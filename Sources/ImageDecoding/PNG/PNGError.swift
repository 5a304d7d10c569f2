import ImageCore

/// Why a PNG or APNG file could not be decoded, with the offending values. The format (PNG or
/// APNG) is the `ImageError`'s; chunk types are named by their four letters.
public enum PNGError: ImageErrorReason {
    // MARK: Signature
    case emptyFile
    case shorterThanSignature(bytes: Int)
    /// The first byte is 0x09: a 7-bit transfer stripped its high bit.
    case highBitStripped
    /// Bytes 4…7 (CR LF SUB LF) as a text-mode transfer left them.
    case lineEndingsRewritten(found: [UInt8])
    case notASignature(firstBytes: [UInt8])

    // MARK: Chunk framing
    case endsInChunkHeader(fileSize: Int, offset: Int)
    case invalidChunkType(UInt32, offset: Int)
    case chunkLengthOverMaximum(chunk: String, length: Int)
    case endsInChunk(fileSize: Int, chunk: String, length: Int, offset: Int)
    case crcMismatch(chunk: String, stored: UInt32, computed: UInt32)

    // MARK: Header
    case endsBeforeHeader(fileSize: Int)
    case firstChunkNotHeader(chunk: String)
    case headerLength(Int)
    case sizeOverPNGMaximum(width: Int, height: Int)
    case invalidColorType(UInt8)
    case invalidBitDepth(Int, colorType: PNGColorType)
    case unknownCompressionMethod(UInt8)
    case unknownFilterMethod(UInt8)
    case unknownInterlaceMethod(UInt8)

    // MARK: Chunk order and contents
    case secondHeader
    case paletteAfterImageData
    case secondPalette
    case paletteInGrayscale(colorType: PNGColorType)
    case paletteSize(bytes: Int, maxEntries: Int, bitDepth: Int)
    case transparencyBeforePalette
    case transparencyOverPalette(entries: Int, paletteEntries: Int)
    case transparencySize(bytes: Int, colorType: PNGColorType)
    case imageDataNotConsecutive
    case unknownCriticalChunk(String)
    case endsBeforeImageData(fileSize: Int)
    case endsWithoutIEND(fileSize: Int)
    case noImageData
    case noPalette

    // MARK: Animation (APNG)
    // Each of these makes the file a still (its default image, `stillNote`) unless decoding is
    // lenient; see NOTES.md, "APNG: what is shown".
    case sequenceNumber(chunk: String, found: UInt32, expected: UInt32)
    case zeroFrames
    /// acTL's data is not 8 bytes.
    case animationControlLength(bytes: Int)
    case secondAnimationControl
    /// An acTL after the image data does not make an APNG.
    case animationControlAfterImageData
    /// An fcTL other than the default image's (frame 0) comes before IDAT.
    case frameControlBeforeImageData(frame: Int)
    case moreFrameControlsThanFrames(declared: Int)
    case frameWithoutData(frame: Int)
    case defaultImageNotCanvas(width: Int, height: Int, x: Int, y: Int, canvasWidth: Int, canvasHeight: Int)
    case frameDataTooShort(bytes: Int)
    case frameDataBeforeImageData
    case frameDataWithoutControl
    case frameCountMismatch(declared: Int, found: Int)
    case frameControlLength(frame: Int, bytes: Int)
    case frameZeroSize(frame: Int, width: Int, height: Int)
    case frameOutsideCanvas(frame: Int, width: Int, height: Int, x: Int, y: Int, canvasWidth: Int, canvasHeight: Int)
    case invalidDisposeOp(frame: Int, UInt8)
    case invalidBlendOp(frame: Int, UInt8)

    // MARK: Image data
    case canvasTooLarge(width: Int, height: Int)
    case imageSizeOverflows(PNGImageData, width: Int, height: Int)
    /// Deflate expands at most 1032:1, so `compressed` bytes cannot fill `needed`.
    case imageDataCannotFill(compressed: Int, in: PNGImageData, needed: Int, width: Int, height: Int)
    case imageDataShort(decoded: Int, expected: Int, in: PNGImageData)
    case badAdler32(bytes: Int, in: PNGImageData)
    case imageDataDamaged(decoded: Int, expected: Int, in: PNGImageData)
    /// `pass` is the Adam7 pass (1…7) of an interlaced image.
    case invalidFilterType(UInt8, row: Int, pass: Int?, in: PNGImageData)
    case paletteIndexOutOfRange(index: Int, row: Int, in: PNGImageData, paletteEntries: Int)

    /// The note for an APNG shown as its default image because of this problem in its animation
    /// chunks, as the APNG specification asks.
    public var stillNote: String {
        "\(message): the animation is invalid, so it is shown as a still (its default image)"
    }

    public var kind: ImageError.Kind {
        switch self {
        case .unknownCriticalChunk: .unsupported
        case .canvasTooLarge, .imageSizeOverflows: .limits
        default: .decoding
        }
    }

    public var message: String {
        switch self {
        case .emptyFile:
            "file is 0 bytes"
        case .shorterThanSignature(let n):
            "file is \(n) bytes, shorter than the 8-byte PNG signature"
        case .highBitStripped:
            "damaged signature: first byte is 0x09, not 0x89 (high bit stripped by a 7-bit transfer)"
        case .lineEndingsRewritten(let found):
            "damaged signature: CR/LF bytes changed by a text-mode transfer (\(Hex.bytes(found)) instead of 0d 0a 1a 0a)"
        case .notASignature(let head):
            "not a PNG signature (first bytes \(Hex.bytes(head)))"

        case let .endsInChunkHeader(total, offset):
            "data ends after \(total) bytes (inside a chunk header at offset \(offset))"
        case let .invalidChunkType(type, offset):
            "invalid chunk type 0x\(String(type, radix: 16)) at offset \(offset) (damaged or not a PNG)"
        case let .chunkLengthOverMaximum(chunk, length):
            "\(chunk) chunk length \(length) is over the 2^31−1 maximum"
        case let .endsInChunk(total, chunk, length, offset):
            "data ends after \(total) bytes (in \(chunk), which declares \(length) bytes at offset \(offset))"
        case let .crcMismatch(chunk, stored, computed):
            "\(chunk) CRC mismatch (stored 0x\(Hex.word(stored)), computed 0x\(Hex.word(computed)))"

        case .endsBeforeHeader(let total):
            "data ends after \(total) bytes (no complete IHDR chunk)"
        case .firstChunkNotHeader(let chunk):
            "first chunk is \(chunk), not IHDR"
        case .headerLength(let n):
            "IHDR is \(n) bytes, expected 13"
        case let .sizeOverPNGMaximum(w, h):
            "IHDR says \(w)×\(h), over PNG's 2^31−1 maximum"
        case .invalidColorType(let c):
            "invalid colour type \(c)"
        case let .invalidBitDepth(depth, colorType):
            "invalid bit depth \(depth) for colour type \(colorType.rawValue) (allowed: \(colorType.allowedBitDepths.map(String.init).joined(separator: ", ")))"
        case .unknownCompressionMethod(let m):
            "unknown compression method \(m) in IHDR"
        case .unknownFilterMethod(let m):
            "unknown filter method \(m) in IHDR"
        case .unknownInterlaceMethod(let m):
            "unknown interlace method \(m) in IHDR"

        case .secondHeader:
            "second IHDR chunk"
        case .paletteAfterImageData:
            "PLTE after IDAT"
        case .secondPalette:
            "second PLTE chunk"
        case .paletteInGrayscale(let c):
            "PLTE chunk in a greyscale image (colour type \(c.rawValue))"
        case let .paletteSize(bytes, maxEntries, depth):
            "PLTE of \(bytes) bytes is not 1 to \(maxEntries) RGB entries (bit depth \(depth))"
        case .transparencyBeforePalette:
            "tRNS before PLTE"
        case let .transparencyOverPalette(entries, paletteEntries):
            "tRNS has \(entries) entries, more than the \(paletteEntries) in PLTE"
        case let .transparencySize(bytes, c):
            "tRNS of \(bytes) bytes for colour type \(c.rawValue) (expected \(c == .grayscale ? 2 : 6))"
        case .imageDataNotConsecutive:
            "IDAT chunks are not consecutive"
        case .unknownCriticalChunk(let chunk):
            "unknown critical chunk \(chunk)"
        case .endsBeforeImageData(let total):
            "data ends after \(total) bytes, before any IDAT chunk"
        case .endsWithoutIEND(let total):
            "data ends after \(total) bytes without an IEND chunk"
        case .noImageData:
            "no IDAT chunk"
        case .noPalette:
            "palette image (colour type 3) has no PLTE chunk"

        case let .sequenceNumber(chunk, found, expected):
            "\(chunk) sequence number \(found), expected \(expected)"
        case .zeroFrames:
            "acTL says 0 frames"
        case .animationControlLength(let bytes):
            "acTL is \(bytes) bytes, expected 8"
        case .secondAnimationControl:
            "a second acTL chunk"
        case .animationControlAfterImageData:
            "acTL comes after IDAT"
        case .frameControlBeforeImageData(let frame):
            "fcTL of frame \(frame) comes before IDAT (only frame 0's may)"
        case .moreFrameControlsThanFrames(let declared):
            "more fcTL chunks than the \(declared) frame\(declared == 1 ? "" : "s") acTL declares"
        case .frameWithoutData(let frame):
            "frame \(frame) has no fdAT data"
        case let .defaultImageNotCanvas(w, h, x, y, cw, ch):
            "frame 0 (the IDAT image) is \(w)×\(h) at (\(x),\(y)), not the whole \(cw)×\(ch) canvas"
        case .frameDataTooShort(let bytes):
            "fdAT of \(bytes) bytes has no room for its sequence number"
        case .frameDataBeforeImageData:
            "fdAT before IDAT"
        case .frameDataWithoutControl:
            "fdAT without its own fcTL"
        case let .frameCountMismatch(declared, found):
            "acTL says \(declared) frame\(declared == 1 ? "" : "s") but the file has \(found) fcTL chunk\(found == 1 ? "" : "s")"
        case let .frameControlLength(frame, bytes):
            "fcTL of frame \(frame) is \(bytes) bytes, expected 26"
        case let .frameZeroSize(frame, w, h):
            "fcTL of frame \(frame) has zero size \(w)×\(h)"
        case let .frameOutsideCanvas(frame, w, h, x, y, cw, ch):
            "fcTL of frame \(frame) puts \(w)×\(h) at (\(x),\(y)), outside the \(cw)×\(ch) canvas"
        case let .invalidDisposeOp(frame, op):
            "fcTL of frame \(frame) has invalid dispose_op \(op)"
        case let .invalidBlendOp(frame, op):
            "fcTL of frame \(frame) has invalid blend_op \(op)"

        case let .canvasTooLarge(w, h):
            "canvas \(w)×\(h) is too large to allocate"
        case let .imageSizeOverflows(data, w, h):
            "\(data): \(w)×\(h) image data size overflows"
        case let .imageDataCannotFill(compressed, data, needed, w, h):
            "image data is incomplete: \(compressed) compressed bytes in \(data) cannot hold the \(needed) bytes a \(w)×\(h) image needs"
        case let .imageDataShort(decoded, expected, data):
            "image data is incomplete (decoded \(decoded) of \(expected) bytes in \(data))"
        case let .badAdler32(bytes, data):
            "zlib stream in \(data) is damaged after all \(bytes) bytes decoded (bad Adler-32 checksum)"
        case let .imageDataDamaged(decoded, expected, data):
            "image data is incomplete or damaged (decoded \(decoded) of \(expected) bytes in \(data))"
        case let .invalidFilterType(type, row, pass, data):
            "invalid filter type \(type) in \(pass.map { "row \(row) of Adam7 pass \($0)" } ?? "row \(row)") of \(data)"
        case let .paletteIndexOutOfRange(index, row, data, entries):
            "palette index \(index) out of range in row \(row) of \(data) (PLTE has \(entries) entries)"
        }
    }
}
