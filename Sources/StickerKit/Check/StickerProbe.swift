import ImageCore
import ImageDecoding

/// Reads a sticker's facts from its headers alone — PNG/APNG chunks, GIF blocks, JPEG markers,
/// WebP RIFF chunks — so that `check` can judge files the pixel decoders cannot (or need not) open.
/// Every read is bounds-checked; malformed data throws `ImageError` with an `OutlineError` reason.
enum StickerProbe {
    static func probe(_ b: [UInt8]) throws -> StickerFacts {
        if b.isEmpty { throw ImageError(nil, SniffError.emptyFile) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return try png(b) }
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return try jpeg(b) }
        if b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) { return try gif(b) }
        if b.count >= 12, b.starts(with: Array("RIFF".utf8)), Array(b[8..<12]) == Array("WEBP".utf8) { return webp(b) }
        return StickerFacts(format: nil)
    }

    static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }
    static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    static func le24(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }

    // MARK: PNG / APNG

    static func png(_ b: [UInt8]) throws -> StickerFacts {
        var facts = StickerFacts(format: "PNG")
        var pos = 8
        var sawIHDR = false, sawIEND = false, sawIDAT = false
        var colorType = 0
        var declaredFrames: Int?
        var fcTLCount = 0
        var delays: [Double] = []
        var hasTRNS = false
        while pos < b.count {
            guard b.count - pos >= 12 else {
                throw ImageError(.png, OutlineError.pngChunkHeaderTruncated(at: pos, fileSize: b.count))
            }
            let length = be32(b, pos)
            let type = String(decoding: b[(pos + 4)..<(pos + 8)], as: UTF8.self)
            guard length <= 0x7FFF_FFFF, length <= b.count - pos - 12 else {
                throw ImageError(.png, OutlineError.pngChunkPastEnd(chunk: type, at: pos, length: length, left: b.count - pos - 12))
            }
            let data = pos + 8
            let stored = UInt32(be32(b, data + length))
            let computed = CRC32.checksum(b, from: pos + 4, count: length + 4)
            if stored != computed {
                throw ImageError(.png, OutlineError.pngChunkCRC(chunk: type, at: pos, stored: stored, computed: computed))
            }
            if !sawIHDR && type != "IHDR" {
                throw ImageError(.png, OutlineError.pngFirstChunkNotHeader(chunk: type))
            }
            switch type {
            case "IHDR":
                guard length == 13 else { throw ImageError(.png, OutlineError.pngHeaderLength(length)) }
                facts.width = be32(b, data)
                facts.height = be32(b, data + 4)
                let depth = Int(b[data + 8])
                colorType = Int(b[data + 9])
                guard let type = PNGColorType(rawValue: UInt8(colorType)) else {
                    throw ImageError(.png, OutlineError.pngColorType(UInt8(colorType)))
                }
                guard type.allowedBitDepths.contains(depth) else {
                    throw ImageError(.png, OutlineError.pngBitDepth(depth, colorType: type))
                }
                guard facts.width! > 0, facts.height! > 0 else {
                    throw ImageError(.png, OutlineError.pngZeroSize(width: facts.width!, height: facts.height!))
                }
                sawIHDR = true
            case "tRNS":
                if colorType == 3 {
                    // Palette alpha: transparent only if some entry is below 255.
                    for i in 0..<length where b[data + i] != 255 { hasTRNS = true; break }
                } else {
                    hasTRNS = true
                }
            case "acTL":
                guard length == 8 else { throw ImageError(.apng, OutlineError.apngControlLength(length)) }
                declaredFrames = be32(b, data)
                facts.loopCount = be32(b, data + 4)
            case "fcTL":
                guard length == 26 else { throw ImageError(.apng, OutlineError.apngFrameControlLength(length)) }
                fcTLCount += 1
                delays.append(StickerFacts.displayed(numerator: be16(b, data + 20), denominator: be16(b, data + 22)))
            case "IDAT":
                sawIDAT = true
            case "IEND":
                sawIEND = true
            default:
                break
            }
            pos = data + length + 4
            if sawIEND { break }
        }
        guard sawIHDR else { throw ImageError(.png, OutlineError.pngNoHeader) }
        guard sawIEND else { throw ImageError(.png, OutlineError.pngNoEnd(fileSize: b.count)) }
        guard sawIDAT else { throw ImageError(.png, OutlineError.pngNoImageData) }
        facts.mayHaveAlpha = colorType == 4 || colorType == 6 || hasTRNS
        if let declared = declaredFrames {
            facts.format = "APNG"
            guard declared >= 1 else { throw ImageError(.apng, OutlineError.apngZeroFrames) }
            guard declared == fcTLCount else {
                throw ImageError(.apng, OutlineError.apngFrameCount(declared: declared, frameControls: fcTLCount))
            }
            facts.frames = declared
            facts.setTiming(delays)
            if declared == 1 { facts.loopCount = nil }
        }
        return facts
    }

    // MARK: GIF

    static func gif(_ b: [UInt8]) throws -> StickerFacts {
        guard b.count >= 13 else { throw ImageError(.gif, OutlineError.gifHeaderTruncated(fileSize: b.count)) }
        var facts = StickerFacts(format: "GIF", width: le16(b, 6), height: le16(b, 8))
        var pos = 13
        if b[10] & 0x80 != 0 { pos += 3 << (Int(b[10] & 7) + 1) }
        var frames = 0
        var delays: [Double] = []
        var pendingDelay = 0
        var transparent = false
        var loopCount: Int?
        func skipSubBlocks(_ p: inout Int) throws {
            while true {
                guard p < b.count else { throw ImageError(.gif, OutlineError.gifSubBlocksTruncated(at: p)) }
                let n = Int(b[p])
                p += 1 + n
                if n == 0 { return }
            }
        }
        loop: while true {
            guard pos < b.count else {
                throw ImageError(.gif, OutlineError.gifNoTrailer(frames: frames, fileSize: b.count))
            }
            switch b[pos] {
            case 0x21:
                guard pos + 2 < b.count else { throw ImageError(.gif, OutlineError.gifExtensionTruncated(at: pos)) }
                let label = b[pos + 1]
                if label == 0xF9, pos + 7 < b.count, b[pos + 2] == 4 {
                    pendingDelay = le16(b, pos + 4)
                    if b[pos + 3] & 1 != 0 { transparent = true }
                } else if label == 0xFF, pos + 18 < b.count, b[pos + 2] == 11,
                          Array(b[(pos + 3)..<(pos + 14)]) == Array("NETSCAPE2.0".utf8), b[pos + 15] == 1 {
                    loopCount = le16(b, pos + 16)
                }
                pos += 2
                try skipSubBlocks(&pos)
            case 0x2C:
                guard pos + 10 < b.count else { throw ImageError(.gif, OutlineError.gifDescriptorTruncated(at: pos)) }
                let flags = b[pos + 9]
                pos += 10
                if flags & 0x80 != 0 { pos += 3 << (Int(flags & 7) + 1) }
                pos += 1 // LZW minimum code size
                try skipSubBlocks(&pos)
                frames += 1
                delays.append(StickerFacts.displayed(numerator: pendingDelay, denominator: 100))
                pendingDelay = 0
            case 0x3B:
                break loop
            default:
                throw ImageError(.gif, OutlineError.gifUnknownBlock(b[pos], at: pos))
            }
        }
        guard frames > 0 else { throw ImageError(.gif, OutlineError.gifNoImage) }
        guard facts.width! > 0, facts.height! > 0 else {
            throw ImageError(.gif, OutlineError.gifZeroScreen(width: facts.width!, height: facts.height!))
        }
        facts.frames = frames
        facts.mayHaveAlpha = transparent
        if frames > 1 {
            facts.loopCount = loopCount ?? 1
            facts.setTiming(delays)
        }
        return facts
    }

    // MARK: JPEG

    static func jpeg(_ b: [UInt8]) throws -> StickerFacts {
        var pos = 2
        while pos + 3 < b.count {
            guard b[pos] == 0xFF else { throw ImageError(.jpeg, OutlineError.jpegExpectedMarker(at: pos, found: b[pos])) }
            let marker = b[pos + 1]
            if marker == 0xFF { pos += 1; continue }           // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { pos += 2; continue }
            if marker == 0xD9 || marker == 0xDA { break }
            let length = be16(b, pos + 2)
            guard length >= 2 else { throw ImageError(.jpeg, OutlineError.jpegSegmentLength(marker: marker, length: length)) }
            let isSOF = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isSOF {
                guard pos + 9 <= b.count, length >= 7 else { throw ImageError(.jpeg, OutlineError.jpegFrameHeaderTruncated(at: pos)) }
                let height = be16(b, pos + 5), width = be16(b, pos + 7)
                guard width > 0, height > 0 else { throw ImageError(.jpeg, OutlineError.jpegZeroSize(width: width, height: height)) }
                return StickerFacts(format: "JPEG", width: width, height: height, mayHaveAlpha: false)
            }
            pos += 2 + length
        }
        throw ImageError(.jpeg, OutlineError.jpegNoFrameHeader(fileSize: b.count))
    }

    // MARK: WebP (size only: Messages does not take WebP)

    static func webp(_ b: [UInt8]) -> StickerFacts {
        var facts = StickerFacts(format: "WebP", mayHaveAlpha: true)
        guard b.count >= 30 else { return facts }
        let tag = String(decoding: b[12..<16], as: UTF8.self)
        switch tag {
        case "VP8X":
            facts.width = le24(b, 24) + 1
            facts.height = le24(b, 27) + 1
        case "VP8L":
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            facts.width = (bits & 0x3FFF) + 1
            facts.height = ((bits >> 14) & 0x3FFF) + 1
        case "VP8 ":
            facts.width = le16(b, 26) & 0x3FFF
            facts.height = le16(b, 28) & 0x3FFF
            facts.mayHaveAlpha = false
        default:
            break
        }
        return facts
    }
}
