import ImageCore

/// What is wrong with a file's structure, as `ImageOutline.inspect` finds it without decoding
/// any pixel: chunk and block framing, checksums, header fields, frame counts. Offsets are from
/// the start of the file.
public enum OutlineError: ImageErrorReason {
    // MARK: PNG and APNG
    case pngChunkHeaderTruncated(at: Int, fileSize: Int)
    case pngChunkPastEnd(chunk: String, at: Int, length: Int, left: Int)
    case pngChunkCRC(chunk: String, at: Int, stored: UInt32, computed: UInt32)
    case pngFirstChunkNotHeader(chunk: String)
    case pngHeaderLength(Int)
    case pngColorType(UInt8)
    case pngBitDepth(Int, colorType: PNGColorType)
    case pngZeroSize(width: Int, height: Int)
    case pngNoHeader
    case pngNoEnd(fileSize: Int)
    case pngNoImageData
    case apngControlLength(Int)
    case apngFrameControlLength(Int)
    case apngZeroFrames
    case apngFrameCount(declared: Int, frameControls: Int)

    // MARK: GIF
    case gifHeaderTruncated(fileSize: Int)
    case gifSubBlocksTruncated(at: Int)
    case gifNoTrailer(frames: Int, fileSize: Int)
    case gifExtensionTruncated(at: Int)
    case gifDescriptorTruncated(at: Int)
    case gifUnknownBlock(UInt8, at: Int)
    case gifNoImage
    case gifZeroScreen(width: Int, height: Int)

    // MARK: JPEG
    case jpegExpectedMarker(at: Int, found: UInt8)
    case jpegSegmentLength(marker: UInt8, length: Int)
    case jpegFrameHeaderTruncated(at: Int)
    case jpegZeroSize(width: Int, height: Int)
    case jpegNoFrameHeader(fileSize: Int)
    /// The image data runs to the end of the file without an end-of-image marker.
    case jpegNoEnd(fileSize: Int)

    // MARK: WebP
    case webpNoCanvas(fileSize: Int)
    /// The RIFF header declares more bytes than the file holds.
    case webpTruncated(declared: Int, fileSize: Int)

    public var kind: ImageError.Kind { .decoding }

    public var message: String {
        switch self {
        case let .pngChunkHeaderTruncated(at, total):
            "truncated chunk header at byte \(at) of \(total)"
        case let .pngChunkPastEnd(chunk, at, length, left):
            "\(chunk) chunk at byte \(at) says \(length) bytes, file has \(left) left"
        case let .pngChunkCRC(chunk, at, stored, computed):
            "\(chunk) chunk at byte \(at): CRC \(Hex.word(stored)) stored, \(Hex.word(computed)) computed"
        case .pngFirstChunkNotHeader(let chunk):
            "first chunk is \(chunk), not IHDR"
        case .pngHeaderLength(let n):
            "IHDR is \(n) bytes, not 13"
        case .pngColorType(let c):
            "IHDR colour type \(c) is not 0, 2, 3, 4 or 6"
        case let .pngBitDepth(depth, colorType):
            "IHDR bit depth \(depth) is not valid for colour type \(colorType.rawValue)"
        case let .pngZeroSize(w, h):
            "IHDR says \(w)×\(h): zero size"
        case .pngNoHeader:
            "truncated: no IHDR chunk"
        case .pngNoEnd(let total):
            "truncated: no IEND chunk after \(total) bytes"
        case .pngNoImageData:
            "no IDAT chunk"
        case .apngControlLength(let n):
            "acTL is \(n) bytes, not 8"
        case .apngFrameControlLength(let n):
            "fcTL is \(n) bytes, not 26"
        case .apngZeroFrames:
            "acTL says 0 frames"
        case let .apngFrameCount(declared, frameControls):
            "acTL says \(declared) frames, file has \(frameControls) fcTL chunks"

        case .gifHeaderTruncated(let total):
            "truncated header: \(total) bytes"
        case .gifSubBlocksTruncated(let at):
            "truncated data sub-blocks at byte \(at)"
        case let .gifNoTrailer(frames, total):
            "truncated: no trailer after \(frames) frames (\(total) bytes)"
        case .gifExtensionTruncated(let at):
            "truncated extension at byte \(at)"
        case .gifDescriptorTruncated(let at):
            "truncated image descriptor at byte \(at)"
        case let .gifUnknownBlock(byte, at):
            "unknown block 0x\(String(byte, radix: 16)) at byte \(at)"
        case .gifNoImage:
            "no image in file"
        case let .gifZeroScreen(w, h):
            "logical screen is \(w)×\(h)"

        case let .jpegExpectedMarker(at, found):
            "expected a marker at byte \(at), found 0x\(String(found, radix: 16))"
        case let .jpegSegmentLength(marker, length):
            "segment 0xFF\(String(marker, radix: 16)) says length \(length)"
        case .jpegFrameHeaderTruncated(let at):
            "truncated SOF at byte \(at)"
        case let .jpegZeroSize(w, h):
            "SOF says \(w)×\(h)"
        case .jpegNoFrameHeader(let total):
            "no SOF marker before the image data (\(total) bytes)"
        case .jpegNoEnd(let total):
            "data ends after \(total) bytes, before the end-of-image marker"

        case .webpNoCanvas(let total):
            "no canvas size in the first chunk (\(total) bytes)"
        case let .webpTruncated(declared, total):
            "data ends after \(total) of \(declared) bytes"
        }
    }
}
