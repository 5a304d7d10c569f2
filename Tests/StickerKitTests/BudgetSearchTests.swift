import ImageDecoding
import PNGEncoding
import TestSupport
import XCTest
@testable import StickerKit

/// The budget search: every written file fits, what does not fit says why, lossless when it can
/// be, the same bytes every time.
final class BudgetSearchTests: XCTestCase {
    /// A deterministic pseudo-random generator (`TestSupport.SplitMix64`).
    struct Rand {
        var generator: SplitMix64
        init(state: UInt64) { generator = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    }

    /// A photo-like still: smooth gradients plus noise, a soft-edged disc of alpha.
    static func photoLike(_ side: Int, seed: UInt64) -> Image {
        var r = Rand(state: seed)
        var img = Image(width: side, height: side)
        let c = Double(side) / 2
        for y in 0..<side {
            for x in 0..<side {
                let d = ((Double(x) - c) * (Double(x) - c) + (Double(y) - c) * (Double(y) - c)).squareRoot()
                let a = max(0, min(255, Int((c - d) * 8)))
                let n = Int(r.byte() % 24)
                img[x, y] = RGBA(UInt8((x * 200 / side + n) & 255), UInt8((y * 180 / side + n) & 255),
                                 UInt8(((x + y) * 90 / side + n) & 255), UInt8(a))
            }
        }
        img.zeroTransparentColor()
        return img
    }

    static func pngBytes(_ image: Image) -> [UInt8] { PNGEncoder.encode(image, effort: .fast) }

    func decode(_ bytes: [UInt8]) throws -> Animation { try ImageDecoder.decode(bytes).animation }

    func testStillFitsTheBudgetOrExplains() throws {
        let input = Self.pngBytes(Self.photoLike(700, seed: 1))
        for budget in [400_000, 120_000, 60_000, 25_000] {
            let r = try StickerConverter.convert(input, options: ConversionOptions(sizes: [.large], maxBytes: budget))
            switch r.outputs[0].result {
            case .success(let s):
                XCTAssertLessThanOrEqual(s.bytes.count, budget, "budget \(budget)")
                XCTAssertEqual(s.report.bytes, s.bytes.count)
                let a = try decode(s.bytes)
                XCTAssertEqual([a.width, a.height], [618, 618])
                XCTAssertFalse(a.frames[0].image.isOpaque, "alpha must survive")
                XCTAssertGreaterThan(s.report.ssim ?? 0, 0.5)
                if let colors = s.report.colors { XCTAssertLessThanOrEqual(colors, 256) }
            case .failure(let e):
                guard case let .stillOverBudget(smallest, reported) = e else { return XCTFail("budget \(budget): \(e)") }
                XCTAssertEqual(reported, budget)
                XCTAssertGreaterThan(smallest, budget)
            }
        }
    }

    func testImpossibleBudgetFailsWithTheBestSizeReached() throws {
        let input = Self.pngBytes(Self.photoLike(700, seed: 2))
        let r = try StickerConverter.convert(input, options: ConversionOptions(sizes: [.large], maxBytes: 300))
        guard case .failure(let e) = r.outputs[0].result else { return XCTFail("300 bytes cannot hold a 618 px photo") }
        guard case let .stillOverBudget(smallest, budget) = e else { return XCTFail("\(e)") }
        XCTAssertEqual(budget, 300)
        XCTAssertGreaterThan(smallest, 300)
        XCTAssertEqual(e.description, "does not fit: even 2 colours take \(smallest) bytes, over the 300-byte budget")
    }

    func testFewColoursAreKeptLosslessly() throws {
        var img = Image(width: 618, height: 618)
        let colors = [RGBA(255, 0, 0), RGBA(0, 128, 0, 200), RGBA(10, 20, 30, 60)]
        for y in 0..<618 { for x in 0..<618 where (x / 50 + y / 70) % 4 != 3 { img[x, y] = colors[(x / 50 + y / 70) % 4 % 3] } }
        let r = try StickerConverter.convert(Self.pngBytes(img), options: ConversionOptions(sizes: [.large]))
        guard case .success(let s) = r.outputs[0].result else { return XCTFail("\(r.outputs[0].result)") }
        XCTAssertEqual(s.report.mode, .paletteExact)
        XCTAssertEqual(s.report.quality, 100)
        XCTAssertEqual(try decode(s.bytes).frames[0].image, img, "an exact palette must round-trip every pixel")
    }

    func testOpaqueInputGivesAnOpaqueSticker() throws {
        var img = Self.photoLike(618, seed: 3)
        for i in stride(from: 3, to: img.pixels.count, by: 4) { img.pixels[i] = 255 }
        let r = try StickerConverter.convert(Self.pngBytes(img), options: ConversionOptions(sizes: [.large], maxBytes: 80_000))
        guard case .success(let s) = r.outputs[0].result else { return XCTFail("\(r.outputs[0].result)") }
        XCTAssertTrue(try decode(s.bytes).frames[0].image.isOpaque)
    }

    func testSameInputSameBytes() throws {
        let input = Self.pngBytes(Self.photoLike(500, seed: 4))
        let opts = ConversionOptions(sizes: [.small, .large], maxBytes: 90_000)
        let a = try StickerConverter.convert(input, options: opts)
        let b = try StickerConverter.convert(input, options: opts)
        for (x, y) in zip(a.outputs, b.outputs) {
            XCTAssertEqual(try x.result.get().bytes, try y.result.get().bytes)
        }
    }

    func testMinimumQualityIsReportedAsSkipped() throws {
        let input = Self.pngBytes(Self.photoLike(700, seed: 5))
        let r = try StickerConverter.convert(input, options: ConversionOptions(sizes: [.large], maxBytes: 30_000, quality: 99...100))
        guard case .failure(let e) = r.outputs[0].result else { return XCTFail("quality 99 cannot fit 30 KB") }
        guard case let .belowMinimumQuality(quality, minimum, _, budget) = e else { return XCTFail("\(e)") }
        XCTAssertLessThan(quality, 99)
        XCTAssertEqual([minimum, budget], [99, 30_000])
    }

    func testMaximumQualityStopsSpendingBytes() throws {
        let input = Self.pngBytes(Self.photoLike(700, seed: 6))
        let best = try StickerConverter.convert(input, options: ConversionOptions(sizes: [.large])).outputs[0].result.get()
        let capped = try StickerConverter.convert(input, options: ConversionOptions(sizes: [.large], quality: 0...80)).outputs[0].result.get()
        XCTAssertLessThan(capped.bytes.count, best.bytes.count)
        XCTAssertGreaterThanOrEqual(capped.report.quality, 80)
    }

    func testColoursOptionForcesAPalette() throws {
        let input = Self.pngBytes(Self.photoLike(618, seed: 8))
        let s = try StickerConverter.convert(input, options: ConversionOptions(sizes: [.large], maxColors: 16)).outputs[0].result.get()
        XCTAssertEqual(s.report.mode, .palette)
        XCTAssertLessThanOrEqual(s.report.colors ?? 999, 16)
        var distinct = Set<UInt32>()
        let img = try decode(s.bytes).frames[0].image
        for i in stride(from: 0, to: img.pixels.count, by: 4) {
            distinct.insert(UInt32(img.pixels[i]) << 24 | UInt32(img.pixels[i + 1]) << 16 | UInt32(img.pixels[i + 2]) << 8 | UInt32(img.pixels[i + 3]))
        }
        XCTAssertLessThanOrEqual(distinct.count, 16)
    }
}
