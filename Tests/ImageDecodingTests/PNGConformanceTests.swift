import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// Pixels of every colour type, bit depth and interlace method, checked against libpng, against
/// Pillow's manifest, and against RGBA computed here from the raw samples.
final class PNGConformanceTests: XCTestCase {
    typealias T = PNGTestSupport

    /// RGBA the spec says these samples mean: ≤ 8-bit grey scaled by 255/(2^d − 1), 16-bit
    /// rounded to nearest (v/257), palette and tRNS looked up, colour keys matched on raw samples.
    static func expectedRGBA(_ samples: [Int], count: Int, depth: Int, colorType: Int, palette: [UInt8]?, trns: [UInt8]?) -> [UInt8] {
        func scale(_ v: Int) -> UInt8 {
            depth == 16 ? UInt8((Double(v) / 257).rounded()) : UInt8(v * 255 / ((1 << depth) - 1))
        }
        var out: [UInt8] = []
        let ch = T.channels(colorType)
        let key: [Int]? = trns.flatMap { t in
            colorType == 0 && t.count == 2 ? [Int(t[0]) << 8 | Int(t[1])]
                : colorType == 2 && t.count == 6 ? [0, 2, 4].map { Int(t[$0]) << 8 | Int(t[$0 + 1]) } : nil
        }
        for i in 0..<count {
            let s = Array(samples[(i * ch)..<(i * ch + ch)])
            switch colorType {
            case 0: out += [scale(s[0]), scale(s[0]), scale(s[0]), key == s ? 0 : 255]
            case 2: out += [scale(s[0]), scale(s[1]), scale(s[2]), key == s ? 0 : 255]
            case 3:
                let p = palette!
                out += [p[s[0] * 3], p[s[0] * 3 + 1], p[s[0] * 3 + 2], s[0] < (trns?.count ?? 0) ? trns![s[0]] : 255]
            case 4: out += [scale(s[0]), scale(s[0]), scale(s[0]), scale(s[1])]
            default: out += s.map(scale)
            }
        }
        return out
    }

    func testEveryColourTypeBitDepthAndInterlaceMatchesLibpngAndSamples() throws {
        let combos: [(Int, [Int])] = [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])]
        var rng = T.Random(state: 42)
        var checkedAgainstLibpng = 0
        for (colorType, depths) in combos {
            for depth in depths {
                for interlace in [false, true] {
                    for (width, height) in [(1, 1), (3, 2), (13, 9), (33, 17)] {
                        for withTRNS in [false, true] {
                            if withTRNS && (colorType == 4 || colorType == 6) { continue }
                            let ch = T.channels(colorType)
                            var palette: [UInt8]? = nil
                            var trns: [UInt8]? = nil
                            var limit = 1 << depth
                            if colorType == 3 {
                                let entries = 1 + rng.below(1 << depth)
                                palette = (0..<(entries * 3)).map { _ in UInt8(rng.below(256)) }
                                limit = entries
                                if withTRNS { trns = (0..<(1 + rng.below(entries))).map { _ in UInt8(rng.below(256)) } }
                            }
                            let samples = (0..<(width * height * ch)).map { _ in rng.below(limit) }
                            if withTRNS && colorType == 0 { trns = T.be16(samples[0]) }
                            if withTRNS && colorType == 2 { trns = samples[0..<3].flatMap { T.be16($0) } }
                            let file = T.png(width: width, height: height, depth: depth, colorType: colorType, interlace: interlace,
                                             samples: samples, palette: palette, trns: trns, filterSeed: rng.below(5))
                            let what = "ct \(colorType) depth \(depth) interlace \(interlace) \(width)×\(height) tRNS \(withTRNS)"
                            let decoded = try PNGDecoder.decode(file, options: DecodeOptions())
                            XCTAssertEqual(decoded.format, .png)
                            XCTAssertTrue(decoded.warnings.isEmpty, "\(what): \(decoded.warnings)")
                            let image = decoded.animation.frames[0].image
                            XCTAssertEqual(image.width, width)
                            XCTAssertEqual(image.height, height)
                            let expected = Self.expectedRGBA(samples, count: width * height, depth: depth, colorType: colorType, palette: palette, trns: trns)
                            XCTAssertEqual(image.pixels, expected, "\(what): differs from the samples")
                            if depth <= 8 {
                                guard case .success(let (_, _, reference)) = T.libpngRGBA(file) else {
                                    XCTFail("\(what): libpng refused the file"); continue
                                }
                                XCTAssertEqual(image.pixels, reference, "\(what): differs from libpng")
                                checkedAgainstLibpng += 1
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checkedAgainstLibpng, 100)
    }

    func testPillowFixturesMatchLibpngAndPillow() throws {
        let manifest = try String(contentsOf: T.fixtures.appendingPathComponent("png/pillow_manifest.txt"), encoding: .utf8)
        var checked = 0
        for line in manifest.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ").map(String.init)
            let bytes = try T.fixture("png/pillow/\(parts[0])")
            let image = try PNGDecoder.decode(bytes, options: DecodeOptions()).animation.frames[0].image
            XCTAssertEqual(T.fnv1a64(image.pixels), parts[1], "\(parts[0]): differs from Pillow")
            guard case .success(let (w, h, reference)) = T.libpngRGBA(bytes) else { XCTFail("libpng refused \(parts[0])"); continue }
            XCTAssertEqual(image.width, w)
            XCTAssertEqual(image.height, h)
            XCTAssertEqual(image.pixels, reference, "\(parts[0]): differs from libpng")
            checked += 1
        }
        XCTAssertEqual(checked, 14)
    }

    func testSixteenBitGreyFixtureRoundsLibpngSamples() throws {
        let bytes = try T.fixture("png/pillow/gray16.png")
        let raw = try XCTUnwrap(T.libpngGray16(bytes))
        let image = try PNGDecoder.decode(bytes, options: DecodeOptions()).animation.frames[0].image
        XCTAssertEqual(raw.count, image.width * image.height)
        XCTAssertGreaterThan(Set(raw).count, 100, "fixture should hold varied 16-bit values")
        for (i, v) in raw.enumerated() {
            let e = UInt8((Double(v) / 257).rounded())
            if image.pixels[i * 4] != e || image.pixels[i * 4 + 3] != 255 {
                XCTFail("pixel \(i): 16-bit \(v) gave \(image.pixels[i * 4]), expected \(e)"); break
            }
        }
    }

    func testEvery16BitValueRoundsToNearest() throws {
        // 256×256 grey: every 16-bit value once, and an alpha channel ramp too.
        let samples = (0..<65536).flatMap { [$0, 65535 - $0] }
        let file = T.png(width: 256, height: 256, depth: 16, colorType: 4, samples: samples)
        let image = try PNGDecoder.decode(file, options: DecodeOptions()).animation.frames[0].image
        for v in 0..<65536 {
            let e = UInt8((Double(v) / 257).rounded())
            let ea = UInt8((Double(65535 - v) / 257).rounded())
            if image.pixels[v * 4] != e || image.pixels[v * 4 + 3] != ea {
                XCTFail("\(v): got \(image.pixels[v * 4]), expected \(e)"); return
            }
        }
        // Spot values worked by hand: 128 → 0, 129 → 1, 32896 → 128, 65535 → 255.
        XCTAssertEqual([128, 129, 32896, 65535].map { image.pixels[$0 * 4] }, [0, 1, 128, 255])
    }

    func testImageDataSplitOverManyIDATChunks() throws {
        var rng = T.Random(state: 7)
        let samples = (0..<(40 * 30 * 4)).map { _ in rng.below(256) }
        let one = T.png(width: 40, height: 30, depth: 8, colorType: 6, samples: samples)
        let many = T.png(width: 40, height: 30, depth: 8, colorType: 6, samples: samples, idatSplit: 17)
        let a = try PNGDecoder.decode(one, options: DecodeOptions()).animation.frames[0].image
        let b = try PNGDecoder.decode(many, options: DecodeOptions()).animation.frames[0].image
        XCTAssertEqual(a.pixels, samples.map(UInt8.init))
        XCTAssertEqual(a, b)
    }

    /// sRGB encoding of linear light, as IEC 61966-2-1 defines it.
    static func srgb(_ linear: Double) -> UInt8 {
        let s = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
        return UInt8((s * 255).rounded())
    }

    func testGammaChunkConvertsToSRGB() throws {
        let samples = (0..<256).map { $0 }
        let gAMA = { (g: Int) in T.chunk("gAMA", T.be32(g)) }
        // Gamma 1.0: samples are linear light.
        let linear = try PNGDecoder.decode(T.png(width: 256, height: 1, depth: 8, colorType: 0, samples: samples, before: [gAMA(100_000)]), options: DecodeOptions())
        let pixels = linear.animation.frames[0].image.pixels
        for v in 0..<256 {
            XCTAssertEqual(pixels[v * 4], Self.srgb(Double(v) / 255), "value \(v)")
            XCTAssertEqual(pixels[v * 4 + 3], 255)
        }
        XCTAssertTrue(linear.warnings.contains { $0.contains("gAMA") && $0.contains("sRGB") }, "\(linear.warnings)")
        // Gamma 1/2.2 (45455) is sRGB for practical purposes: untouched, no warning.
        for extra in [[gAMA(45455)], [T.chunk("sRGB", [0]), gAMA(100_000)], [gAMA(45455 + 400)]] {
            let d = try PNGDecoder.decode(T.png(width: 256, height: 1, depth: 8, colorType: 0, samples: samples, before: extra), options: DecodeOptions())
            XCTAssertEqual(d.animation.frames[0].image.pixels, Self.expectedRGBA(samples, count: 256, depth: 8, colorType: 0, palette: nil, trns: nil))
            XCTAssertEqual(d.warnings, [])
        }
    }

    func testGammaOutsideLibpngsRangeIsIgnoredWithAWarning() throws {
        // Main turned these into solid black (gamma 0.00001 or 0.00015) or white (gamma 7000):
        // libpng ignores gAMA outside 16…625000000, and so do we, saying so.
        let samples = (0..<256).map { $0 }
        let asStored = Self.expectedRGBA(samples, count: 256, depth: 8, colorType: 0, palette: nil, trns: nil)
        for g in [1, 15, 625_000_001, 700_000_000, Int(UInt32.max)] {
            let file = T.png(width: 256, height: 1, depth: 8, colorType: 0, samples: samples, before: [T.chunk("gAMA", T.be32(g))])
            let d = try PNGDecoder.decode(file, options: DecodeOptions())
            XCTAssertEqual(d.animation.frames[0].image.pixels, asStored, "gAMA \(g)")
            XCTAssertEqual(d.warnings.count, 1, "gAMA \(g)")
            XCTAssertTrue(d.warnings[0].hasPrefix("ignored gAMA of \(g) "), d.warnings[0])
        }
        // The ends of the range are honoured.
        for g in [16, 625_000_000] {
            let file = T.png(width: 256, height: 1, depth: 8, colorType: 0, samples: samples, before: [T.chunk("gAMA", T.be32(g))])
            let d = try PNGDecoder.decode(file, options: DecodeOptions())
            XCTAssertNotEqual(d.animation.frames[0].image.pixels, asStored, "gAMA \(g)")
            XCTAssertTrue(d.warnings[0].hasPrefix("converted from gamma"), "\(d.warnings)")
        }
    }

    func testDamagedICCProfileIsIgnoredWithAWarning() throws {
        let samples = [0, 100, 200, 255]
        let iccp = T.chunk("iCCP", Array("broken".utf8) + [0, 0] + [0x78, 0x9C, 1, 2, 3])
        let d = try PNGDecoder.decode(T.png(width: 4, height: 1, depth: 8, colorType: 0, samples: samples, before: [iccp]), options: DecodeOptions())
        XCTAssertEqual(d.animation.frames[0].image.pixels, Self.expectedRGBA(samples, count: 4, depth: 8, colorType: 0, palette: nil, trns: nil))
        XCTAssertEqual(d.warnings, ["ignored a damaged iCCP chunk"])
    }

    func testICCProfileIsInflatedAndHandedOver() throws {
        // A profile-shaped blob (≥ 128 bytes) compressed as iCCP requires: the decoder must
        // inflate it and hand it to ColorProfile rather than warn about damage.
        let profile = (0..<3000).map { UInt8($0 % 251) }
        let iccp = T.chunk("iCCP", Array("test".utf8) + [0, 0] + T.zlib(profile))
        XCTAssertEqual(PNGColorSpace.profile(fromICCP: ArraySlice(Array("test".utf8) + [0, 0] + T.zlib(profile))), profile)
        let d = try PNGDecoder.decode(T.png(width: 1, height: 1, depth: 8, colorType: 0, samples: [9], before: [iccp]), options: DecodeOptions())
        XCTAssertFalse(d.warnings.contains("ignored a damaged iCCP chunk"))
        // lcms2 rejects this blob: the pixels are still decoded, as sRGB, with a note.
        XCTAssertEqual(d.warnings, [ColorProfile.ignoredNote(ColorProfileError.invalidProfile(bytes: 3000))])
        XCTAssertEqual(d.warnings, ["ignored: embedded ICC profile is invalid (3000 bytes); colours used as sRGB"])
        XCTAssertEqual(d.animation.frames[0].image.pixels, [9, 9, 9, 255])
    }

    func testDispatcherDecodesPNG() throws {
        let file = T.png(width: 2, height: 1, depth: 8, colorType: 2, samples: [1, 2, 3, 4, 5, 6])
        let d = try ImageDecoder.decode(file)
        XCTAssertEqual(d.format, .png)
        XCTAssertEqual(d.animation.frames[0].image.pixels, [1, 2, 3, 255, 4, 5, 6, 255])
        XCTAssertEqual(d.animation.frames[0].delay, .zero)
    }
}
