import Foundation

/// A strict structural check of an APNG (or plain PNG) file, written from the APNG and PNG
/// specifications: chunk order, CRCs, sequence numbers, frame count, frame regions, op values.
/// Every APNG a test writes goes through it.
enum APNGValidator {
    struct Failure: Error, CustomStringConvertible { let description: String }

    struct FrameControl: Equatable {
        var sequence: UInt32
        var width: Int, height: Int, x: Int, y: Int
        var delayNumerator: UInt16, delayDenominator: UInt16
        var dispose: UInt8, blend: UInt8
        /// The delay in seconds as a reduced fraction (numerator, denominator), den 0 read as 100.
        var delay: (Int, Int) {
            let den = delayDenominator == 0 ? 100 : Int(delayDenominator)
            return (Int(delayNumerator), den)
        }
    }

    struct Frame {
        var control: FrameControl
        /// The zlib stream: IDAT data for the default image, fdAT data without sequence numbers.
        var stream: [UInt8]
        var isDefaultImage: Bool
    }

    struct Result {
        var width: Int, height: Int, bitDepth: Int, colorType: Int
        var plte: [UInt8]?, trns: [UInt8]?
        var hasSRGB: Bool
        var numFrames: Int?, numPlays: Int?
        var frames: [Frame]
        var chunkTypes: [String]
        var isAnimated: Bool { numFrames != nil }
    }

    static func validate(_ bytes: [UInt8]) throws -> Result {
        let chunks = try PNGChunkParser.parse(bytes)
        func fail(_ s: String) -> Failure { Failure(description: s) }
        for (n, c) in chunks.enumerated() where c.storedCRC != c.computedCRC {
            throw fail("chunk \(n) \(c.type): CRC \(c.storedCRC) stored, \(c.computedCRC) computed")
        }
        guard let first = chunks.first, first.type == "IHDR", first.data.count == 13 else { throw fail("IHDR is not first or not 13 bytes") }
        guard let last = chunks.last, last.type == "IEND", last.data.isEmpty else { throw fail("IEND is not last or not empty") }
        guard chunks.filter({ $0.type == "IEND" }).count == 1, chunks.filter({ $0.type == "IHDR" }).count == 1 else {
            throw fail("more than one IHDR or IEND")
        }
        let h = first.data
        let width = Int(PNGChunkParser.be32(h, 0)), height = Int(PNGChunkParser.be32(h, 4))
        let bitDepth = Int(h[8]), colorType = Int(h[9])
        guard width > 0, height > 0 else { throw fail("IHDR size \(width)×\(height)") }
        let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard allowed[colorType]?.contains(bitDepth) == true else { throw fail("colour type \(colorType) with depth \(bitDepth)") }
        guard h[10] == 0, h[11] == 0, h[12] == 0 else { throw fail("IHDR compression/filter/interlace \(h[10]) \(h[11]) \(h[12])") }

        guard let firstIDAT = chunks.firstIndex(where: { $0.type == "IDAT" }) else { throw fail("no IDAT") }
        let lastIDAT = chunks.lastIndex { $0.type == "IDAT" }!
        guard chunks[firstIDAT...lastIDAT].allSatisfy({ $0.type == "IDAT" }) else { throw fail("IDAT chunks are not consecutive") }

        var result = Result(width: width, height: height, bitDepth: bitDepth, colorType: colorType, plte: nil, trns: nil,
                            hasSRGB: false, numFrames: nil, numPlays: nil, frames: [], chunkTypes: chunks.map(\.type))
        var expectedSequence: UInt32 = 0
        var current: Frame?
        var sawDefaultData = false
        for (n, c) in chunks.enumerated() {
            let beforeIDAT = n < firstIDAT
            switch c.type {
            case "IHDR", "IEND":
                break
            case "sRGB":
                guard beforeIDAT, result.plte == nil, c.data.count == 1, c.data[0] <= 3, !result.hasSRGB else { throw fail("sRGB misplaced or malformed") }
                result.hasSRGB = true
            case "PLTE":
                guard beforeIDAT, result.plte == nil, colorType == 3 || colorType == 2 || colorType == 6 else { throw fail("PLTE misplaced or repeated") }
                guard c.data.count % 3 == 0, c.data.count >= 3, c.data.count / 3 <= 256 else { throw fail("PLTE length \(c.data.count)") }
                if colorType == 3, c.data.count / 3 > 1 << bitDepth { throw fail("PLTE has \(c.data.count / 3) entries for depth \(bitDepth)") }
                result.plte = c.data
            case "tRNS":
                guard beforeIDAT, result.trns == nil else { throw fail("tRNS misplaced or repeated") }
                if colorType == 3 {
                    guard let p = result.plte else { throw fail("tRNS before PLTE") }
                    guard !c.data.isEmpty, c.data.count <= p.count / 3 else { throw fail("tRNS has \(c.data.count) entries for \(p.count / 3)") }
                } else if colorType == 4 || colorType == 6 {
                    throw fail("tRNS with alpha channel")
                }
                result.trns = c.data
            case "acTL":
                guard beforeIDAT, result.numFrames == nil, c.data.count == 8 else { throw fail("acTL misplaced, repeated or malformed") }
                let frames = Int(PNGChunkParser.be32(c.data, 0))
                guard frames >= 1 else { throw fail("acTL num_frames 0") }
                result.numFrames = frames
                result.numPlays = Int(PNGChunkParser.be32(c.data, 4))
            case "fcTL":
                guard result.numFrames != nil else { throw fail("fcTL without acTL before it") }
                guard c.data.count == 26 else { throw fail("fcTL length \(c.data.count)") }
                let d = c.data
                let fc = FrameControl(sequence: PNGChunkParser.be32(d, 0),
                                      width: Int(PNGChunkParser.be32(d, 4)), height: Int(PNGChunkParser.be32(d, 8)),
                                      x: Int(PNGChunkParser.be32(d, 12)), y: Int(PNGChunkParser.be32(d, 16)),
                                      delayNumerator: PNGChunkParser.be16(d, 20), delayDenominator: PNGChunkParser.be16(d, 22),
                                      dispose: d[24], blend: d[25])
                guard fc.sequence == expectedSequence else { throw fail("fcTL sequence \(fc.sequence), expected \(expectedSequence)") }
                expectedSequence += 1
                guard fc.width > 0, fc.height > 0, fc.x + fc.width <= width, fc.y + fc.height <= height else {
                    throw fail("fcTL region \(fc.x),\(fc.y) \(fc.width)×\(fc.height) outside \(width)×\(height)")
                }
                guard fc.dispose <= 2, fc.blend <= 1 else { throw fail("fcTL dispose \(fc.dispose) blend \(fc.blend)") }
                if let f = current {
                    guard !f.stream.isEmpty else { throw fail("frame \(result.frames.count) has no data") }
                    result.frames.append(f)
                }
                if beforeIDAT {
                    guard result.frames.isEmpty, fc.x == 0, fc.y == 0, fc.width == width, fc.height == height else {
                        throw fail("fcTL of the default image must cover the canvas exactly")
                    }
                    current = Frame(control: fc, stream: [], isDefaultImage: true)
                } else {
                    guard n > lastIDAT else { throw fail("fcTL between IDAT chunks") }
                    current = Frame(control: fc, stream: [], isDefaultImage: false)
                }
            case "IDAT":
                sawDefaultData = true
                if current?.isDefaultImage == true { current!.stream += c.data }
            case "fdAT":
                guard n > lastIDAT, var f = current, !f.isDefaultImage else { throw fail("fdAT without its own fcTL after IDAT") }
                guard c.data.count > 4 else { throw fail("fdAT of \(c.data.count) bytes") }
                let seq = PNGChunkParser.be32(c.data, 0)
                guard seq == expectedSequence else { throw fail("fdAT sequence \(seq), expected \(expectedSequence)") }
                expectedSequence += 1
                f.stream += c.data[4...]
                current = f
            default:
                let critical = c.type.first.map { $0.isUppercase } ?? true
                guard !critical else { throw fail("unknown critical chunk \(c.type)") }
            }
        }
        if let f = current {
            guard !f.stream.isEmpty else { throw fail("last frame has no data") }
            result.frames.append(f)
        }
        guard sawDefaultData else { throw fail("no IDAT data") }
        if colorType == 3, result.plte == nil { throw fail("palette image without PLTE") }
        if let n = result.numFrames {
            guard n == result.frames.count else { throw fail("acTL says \(n) frames, \(result.frames.count) fcTL") }
        } else if !result.frames.isEmpty {
            throw fail("fcTL in a file without acTL")
        }
        return result
    }
}
