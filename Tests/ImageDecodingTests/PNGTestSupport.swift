import TestSupport
import CDeflate
import CPNG
import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Test-side PNG tools, written independently of the decoder: a tiny PNG/APNG writer (filters,
/// Adam7, chunks), libpng's simplified reader, fixture paths and FNV-1a hashes.
enum PNGTestSupport {
    // Macros built with `|` are not imported from png.h.
    static let formatRGBA: UInt32 = 3  // PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA
    static let formatLinearGray: UInt32 = 4  // PNG_FORMAT_FLAG_LINEAR: 16-bit grey

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    static func fixture(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        let s = String(h, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }

    /// libpng's RGBA decoding (simplified API), or its error message.
    static func libpngRGBA(_ bytes: [UInt8]) -> Result<(Int, Int, [UInt8]), LibpngError> {
        libpngRead(bytes, format: formatRGBA, bytesPerPixel: 4).map { ($0.0, $0.1, $0.2) }
    }

    /// libpng's decoding to 16-bit grey samples (raw values for an opaque 16-bit grey file
    /// without gAMA, which libpng treats as linear).
    static func libpngGray16(_ bytes: [UInt8]) -> [UInt16]? {
        guard case .success(let (_, _, raw)) = libpngRead(bytes, format: formatLinearGray, bytesPerPixel: 2) else { return nil }
        return raw.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    }

    private static func libpngRead(_ bytes: [UInt8], format: UInt32, bytesPerPixel: Int) -> Result<(Int, Int, [UInt8]), LibpngError> {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let ok = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard ok != 0 else { return .failure(LibpngError(message: message(image))) }
        image.format = format
        let w = Int(image.width), h = Int(image.height)
        var out = [UInt8](repeating: 0, count: w * h * bytesPerPixel)
        let done = out.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        png_image_free(&image)
        guard done != 0 else { return .failure(LibpngError(message: message(image))) }
        return .success((w, h, out))
    }

    struct LibpngError: Error { let message: String }

    private static func message(_ image: png_image) -> String {
        var m = image.message
        return withUnsafeBytes(of: &m) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }

    // MARK: - Writer

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        // Bitwise CRC-32 (ISO-HDLC), independent of the decoder's libdeflate call.
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
    static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 255), UInt8(v & 255)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc(body)))
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func ihdr(width: Int, height: Int, depth: Int, colorType: Int, interlace: Int = 0) -> [UInt8] {
        chunk("IHDR", be32(width) + be32(height) + [UInt8(depth), UInt8(colorType), 0, 0, UInt8(interlace)])
    }

    static func zlib(_ raw: [UInt8], level: Int32 = 6) -> [UInt8] {
        let c = libdeflate_alloc_compressor(level)!
        defer { libdeflate_free_compressor(c) }
        let bound = libdeflate_zlib_compress_bound(c, raw.count)
        var out = [UInt8](repeating: 0, count: bound)
        let n = raw.withUnsafeBytes { r in out.withUnsafeMutableBytes { o in libdeflate_zlib_compress(c, r.baseAddress, raw.count, o.baseAddress, bound) } }
        return Array(out.prefix(n))
    }

    static func channels(_ colorType: Int) -> Int { [1, 0, 3, 1, 2, 0, 4][colorType] }

    /// Adam7 pass geometry as the spec's table lists it (x0, y0, dx, dy).
    static let adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]

    /// Filtered scanlines (filter byte + row) for `samples` (width·height·channels values, each
    /// below 2^depth), rows cycling through filter types from `filterSeed`.
    static func scanlines(width: Int, height: Int, depth: Int, colorType: Int, interlace: Bool, samples: [Int], filterSeed: Int = 0) -> [UInt8] {
        let ch = channels(colorType)
        let passes: [(Int, Int, Int, Int)] = interlace ? adam7 : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        var rowIndex = filterSeed
        for (x0, y0, dx, dy) in passes {
            let xs = Array(stride(from: x0, to: width, by: dx))
            let ys = Array(stride(from: y0, to: height, by: dy))
            if xs.isEmpty || ys.isEmpty { continue }
            var prior: [UInt8]? = nil
            for y in ys {
                var values: [Int] = []
                for x in xs { for c in 0..<ch { values.append(samples[(y * width + x) * ch + c]) } }
                let raw = pack(values, depth: depth)
                let bpp = max(1, ch * depth / 8)
                let type = rowIndex % 5
                rowIndex += 1
                out.append(UInt8(type))
                out += filter(raw, prior: prior ?? [UInt8](repeating: 0, count: raw.count), type: type, bpp: bpp)
                prior = raw
            }
        }
        return out
    }

    static func pack(_ values: [Int], depth: Int) -> [UInt8] {
        switch depth {
        case 16: return values.flatMap { be16($0) }
        case 8: return values.map { UInt8($0) }
        default:
            var out: [UInt8] = []
            var acc = 0, bits = 0
            for v in values {
                acc = acc << depth | v
                bits += depth
                if bits == 8 { out.append(UInt8(acc)); acc = 0; bits = 0 }
            }
            if bits > 0 { out.append(UInt8(acc << (8 - bits))) }
            return out
        }
    }

    static func filter(_ raw: [UInt8], prior: [UInt8], type: Int, bpp: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: raw.count)
        for i in 0..<raw.count {
            let a = i >= bpp ? Int(raw[i - bpp]) : 0
            let b = Int(prior[i])
            let c = i >= bpp ? Int(prior[i - bpp]) : 0
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            default:
                let p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
            }
            out[i] = UInt8((Int(raw[i]) - predictor) & 255)
        }
        return out
    }

    /// A whole PNG from samples.
    static func png(width: Int, height: Int, depth: Int, colorType: Int, interlace: Bool = false, samples: [Int],
                    palette: [UInt8]? = nil, trns: [UInt8]? = nil, before: [[UInt8]] = [], idatSplit: Int = 1, filterSeed: Int = 0) -> [UInt8] {
        var file = signature + ihdr(width: width, height: height, depth: depth, colorType: colorType, interlace: interlace ? 1 : 0)
        for c in before { file += c }
        if let palette { file += chunk("PLTE", palette) }
        if let trns { file += chunk("tRNS", trns) }
        let z = zlib(scanlines(width: width, height: height, depth: depth, colorType: colorType, interlace: interlace, samples: samples, filterSeed: filterSeed))
        let part = (z.count + idatSplit - 1) / idatSplit
        var i = 0
        while i < z.count {
            file += chunk("IDAT", Array(z[i..<min(z.count, i + part)]))
            i += part
        }
        return file + chunk("IEND", [])
    }

    /// Deterministic pseudo-random numbers (`TestSupport.SplitMix64`).
    struct Random {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// Decoding that must fail: returns the error (or nil when it succeeded).
    static func decodeError(_ bytes: [UInt8], lenient: Bool = false) -> ImageError? {
        do {
            _ = try PNGDecoder.decode(bytes, options: DecodeOptions(lenient: lenient))
            return nil
        } catch let e as ImageError {
            return e
        } catch {
            XCTFail("non-ImageError \(error)")
            return nil
        }
    }
}
