import ImageCore

/// What a file's structure says before any pixel is decoded: the format, the canvas size and how
/// many frames it holds. Read from headers and the chunk or block layout only (no inflating, no
/// checksums), in time proportional to the number of chunks or blocks.
///
/// It is a plan, not a promise: a batch uses it to start the longest jobs first. The decoder
/// alone decides what a file holds and names what is wrong with it; an outline may count a frame
/// that fails to decode or miss frames behind damage.
public struct ImageOutline: Sendable, Equatable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// Frames the container announces (APNG `acTL`) or holds (GIF image descriptors, WebP `ANMF`
    /// chunks); 1 for still formats.
    public var frameCount: Int

    public init(format: ImageFormat, width: Int, height: Int, frameCount: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.frameCount = frameCount
    }

    /// The outline of `bytes`, or nil when the format is unknown or the header cannot be read.
    public static func read(_ bytes: [UInt8]) -> ImageOutline? {
        bytes.withUnsafeBytes { read($0) }
    }

    /// The outline of the file in `bytes` (a memory-mapped file is read only where its structure
    /// lies, plus one byte per GIF sub-block).
    public static func read(_ bytes: UnsafeRawBufferPointer) -> ImageOutline? {
        let b = bytes.assumingMemoryBound(to: UInt8.self)
        guard let format = ImageDecoder.sniff(Array(b.prefix(12))) else { return nil }
        let r = Reader(b)
        switch format {
        case .png, .apng: return r.png()
        case .gif: return r.gif()
        case .webp: return r.webp()
        case .jpeg: return r.jpeg()
        }
    }

    /// Bounds-checked little reads over the file; every out-of-range read gives nil.
    private struct Reader {
        let b: UnsafeBufferPointer<UInt8>
        init(_ b: UnsafeBufferPointer<UInt8>) { self.b = b }

        func u8(_ i: Int) -> Int? { i >= 0 && i < b.count ? Int(b[i]) : nil }
        func be16(_ i: Int) -> Int? { guard let h = u8(i), let l = u8(i + 1) else { return nil }; return h << 8 | l }
        func le16(_ i: Int) -> Int? { guard let l = u8(i), let h = u8(i + 1) else { return nil }; return h << 8 | l }
        func be32(_ i: Int) -> Int? { guard let h = be16(i), let l = be16(i + 2) else { return nil }; return h << 16 | l }
        func le24(_ i: Int) -> Int? { guard let l = le16(i), let h = u8(i + 2) else { return nil }; return h << 16 | l }
        func le32(_ i: Int) -> Int? { guard let l = le16(i), let h = le16(i + 2) else { return nil }; return h << 16 | l }
        func tag(_ i: Int) -> String? {
            guard i >= 0, i + 4 <= b.count else { return nil }
            return String(decoding: b[i..<(i + 4)], as: UTF8.self)
        }

        /// IHDR, then chunks up to the first IDAT: an `acTL` before it makes an APNG.
        func png() -> ImageOutline? {
            guard tag(12) == "IHDR", let w = be32(16), let h = be32(20) else { return nil }
            var at = 8
            while let length = be32(at), let type = tag(at + 4) {
                if type == "IDAT" { break }
                if type == "acTL", let frames = be32(at + 8) {
                    return ImageOutline(format: .apng, width: w, height: h, frameCount: max(1, frames))
                }
                at += 12 + length
            }
            return ImageOutline(format: .png, width: w, height: h, frameCount: 1)
        }

        /// Image descriptors counted by walking the blocks (sub-blocks skipped by their sizes).
        func gif() -> ImageOutline? {
            guard let w = le16(6), let h = le16(8), let flags = u8(10) else { return nil }
            var at = 13 + (flags & 0x80 != 0 ? 3 << ((flags & 7) + 1) : 0)
            var frames = 0
            func skipSubBlocks(_ from: Int) -> Int? {
                var i = from
                while let n = u8(i) {
                    if n == 0 { return i + 1 }
                    i += 1 + n
                }
                return nil
            }
            loop: while let introducer = u8(at) {
                switch introducer {
                case 0x2C:
                    guard let local = u8(at + 9) else { break loop }
                    frames += 1
                    // Descriptor, local colour table, LZW minimum code size, then the data.
                    let data = at + 10 + (local & 0x80 != 0 ? 3 << ((local & 7) + 1) : 0) + 1
                    guard let next = skipSubBlocks(data) else { break loop }
                    at = next
                case 0x21:
                    guard let next = skipSubBlocks(at + 2) else { break loop }
                    at = next
                default:
                    break loop   // trailer (0x3B) or damage: count what was seen
                }
            }
            return ImageOutline(format: .gif, width: w, height: h, frameCount: max(1, frames))
        }

        /// RIFF chunks: the canvas from VP8X (or the bitstream header of a simple file), frames
        /// from the ANMF chunks.
        func webp() -> ImageOutline? {
            var at = 12
            var size: (Int, Int)? = nil
            var frames = 0
            while let type = tag(at), let length = le32(at + 4) {
                let data = at + 8
                switch type {
                case "VP8X":
                    if let w = le24(data + 4), let h = le24(data + 7) { size = (w + 1, h + 1) }
                case "ANMF":
                    frames += 1
                case "VP8 ":
                    if size == nil, let w = le16(data + 6), let h = le16(data + 8) { size = (w & 0x3FFF, h & 0x3FFF) }
                case "VP8L":
                    if size == nil, u8(data) == 0x2F, let bits = le32(data + 1) {
                        size = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
                    }
                default:
                    break
                }
                at = data + length + (length & 1)
            }
            guard let (w, h) = size else { return nil }
            return ImageOutline(format: .webp, width: w, height: h, frameCount: max(1, frames))
        }

        /// Markers up to the first start-of-frame, which holds the size.
        func jpeg() -> ImageOutline? {
            var at = 2
            while u8(at) == 0xFF, let marker = u8(at + 1) {
                if marker == 0xFF { at += 1; continue }   // fill byte
                if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { at += 2; continue }
                guard let length = be16(at + 2) else { return nil }
                let sof = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
                if sof, let h = be16(at + 5), let w = be16(at + 7) {
                    return ImageOutline(format: .jpeg, width: w, height: h, frameCount: 1)
                }
                if marker == 0xDA || marker == 0xD9 { return nil }
                at += 2 + length
            }
            return nil
        }
    }
}
