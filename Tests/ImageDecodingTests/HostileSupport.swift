import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Files and hand-built byte streams for the hostile-input tests.
enum Hostile {
    static let fixtures = OtherFormatFixture.root
    static let samples = fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples")

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// Every regular file below `folder`, sorted, skipping notes, scripts and raw pixel dumps.
    static func files(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        let skipped: Set<String> = ["md", "txt", "py", "rgba", "icc"]
        var found: [URL] = []
        for case let url as URL in walker where !skipped.contains(url.pathExtension.lowercased()) {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Decodes and returns the error, failing the test on success or on an error of another type.
    static func decodeError(_ bytes: [UInt8], _ options: DecodeOptions = .init(), _ what: String,
                            file: StaticString = #filePath, line: UInt = #line) -> ImageError? {
        do {
            let d = try ImageDecoder.decode(bytes, options: options)
            XCTFail("\(what): expected an ImageError, decoded \(d.format) \(d.animation.width)×\(d.animation.height)", file: file, line: line)
        } catch let error as ImageError {
            return error
        } catch {
            XCTFail("\(what): expected ImageError, got \(type(of: error)): \(error)", file: file, line: line)
        }
        return nil
    }

    // MARK: hand-built streams

    /// CRC-32 (ISO 3309, as PNG uses), bit by bit: slow and obviously right.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le24(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typed + be32(crc32(typed))
    }

    /// A zlib stream holding `raw` in one stored (uncompressed) deflate block.
    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in raw { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        let n = raw.count
        return [0x78, 0x01, 0x01] + le16(n) + le16(n ^ 0xFFFF) + raw + be32(b << 16 | a)
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// An 8-bit RGBA PNG header for `width × height`.
    static func ihdr(_ width: UInt32, _ height: UInt32) -> [UInt8] {
        pngChunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
    }

    /// A valid 1×1 APNG whose acTL claims `frames` frames (only one is present).
    static func apngClaiming(frames: UInt32) -> [UInt8] {
        let fcTL = be32(0) + be32(1) + be32(1) + be32(0) + be32(0) + [0, 1, 0, 10, 0, 0]
        return pngSignature + ihdr(1, 1) + pngChunk("acTL", be32(frames) + be32(0)) + pngChunk("fcTL", fcTL)
            + pngChunk("IDAT", zlibStored([0, 255, 0, 0, 255])) + pngChunk("IEND", [])
    }

    /// A GIF89a whose logical screen is `width × height`, holding one 1×1 frame.
    static func gifWithScreen(_ width: Int, _ height: Int) -> [UInt8] {
        let header = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        // Image descriptor at (0,0) 1×1, no local table; LZW min code size 2: clear, index 0, end.
        let image: [UInt8] = [0x2C] + le16(0) + le16(0) + le16(1) + le16(1) + [0] + [2, 2, 0x44, 0x01, 0]
        return header + image + [0x3B]
    }

    /// An extended-format (VP8X) animated WebP whose canvas is `width × height`, with one tiny
    /// lossless frame.
    static func webpAnimatedCanvas(_ width: Int, _ height: Int) -> [UInt8] {
        func chunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
            Array(fourCC.utf8) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
        }
        let vp8x = chunk("VP8X", [0x02, 0, 0, 0] + le24(width - 1) + le24(height - 1))
        let anim = chunk("ANIM", [0, 0, 0, 0] + le16(0))
        // A 1×1 VP8L bitstream: signature 0x2F, 14-bit width-1 and height-1 (0), alpha hint, version 0,
        // then a minimal image. The decoder should refuse on the canvas before reading it.
        let vp8l = chunk("VP8L", [0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x08, 0x08])
        let anmf = chunk("ANMF", le24(0) + le24(0) + le24(0) + le24(0) + le24(100) + [0] + vp8l)
        let body = Array("WEBP".utf8) + vp8x + anim + anmf
        return Array("RIFF".utf8) + le32(body.count) + body
    }
}

extension Hostile {
    /// A 2×2 APNG whose frames differ and whose delays are (p−1)/p s for the given primes `p`:
    /// valid, but the exact sum of the delays needs a denominator far beyond Int.
    static func apngWithCoprimeDelays(_ primes: [Int]) -> [UInt8] {
        var out = pngSignature + ihdr(2, 2) + pngChunk("acTL", be32(UInt32(primes.count)) + be32(0))
        var sequence: UInt32 = 0
        for (i, p) in primes.enumerated() {
            let fcTL = be32(sequence) + be32(2) + be32(2) + be32(0) + be32(0)
                + [UInt8((p - 1) >> 8), UInt8((p - 1) & 0xFF), UInt8(p >> 8), UInt8(p & 0xFF), 0, 0]
            out += pngChunk("fcTL", fcTL)
            sequence += 1
            let pixel: [UInt8] = [UInt8(i * 40 % 256), UInt8(255 - i * 40 % 256), 0, 255]
            let row: [UInt8] = [0] + pixel + pixel
            let data = zlibStored(row + row)
            if i == 0 {
                out += pngChunk("IDAT", data)
            } else {
                out += pngChunk("fdAT", be32(sequence) + data)
                sequence += 1
            }
        }
        return out + pngChunk("IEND", [])
    }
}

extension Hostile {
    /// A 2×2 APNG whose second frame is 2×2 at (1,1): past the canvas.
    static func apngWithFrameOutsideCanvas() -> [UInt8] {
        func fcTL(_ sequence: UInt32, x: UInt32, y: UInt32) -> [UInt8] {
            pngChunk("fcTL", be32(sequence) + be32(2) + be32(2) + be32(x) + be32(y) + [0, 1, 0, 10, 0, 0])
        }
        let row: [UInt8] = [0, 255, 0, 0, 255, 255, 0, 0, 255]
        let data = zlibStored(row + row)
        return pngSignature + ihdr(2, 2) + pngChunk("acTL", be32(2) + be32(0))
            + fcTL(0, x: 0, y: 0) + pngChunk("IDAT", data)
            + fcTL(1, x: 1, y: 1) + pngChunk("fdAT", be32(2) + data) + pngChunk("IEND", [])
    }

    /// A 2×1 8-bit palette PNG with two PLTE entries whose second pixel uses index 7.
    static func paletteIndexOutOfRange() -> [UInt8] {
        pngSignature + pngChunk("IHDR", be32(2) + be32(1) + [8, 3, 0, 0, 0])
            + pngChunk("PLTE", [255, 0, 0, 0, 0, 255]) + pngChunk("IDAT", zlibStored([0, 0, 7])) + pngChunk("IEND", [])
    }
}
