import ImageCore
import PNGEncoding
import XCTest
@testable import StickerKit

/// `ConversionOptions.measuresQuality`: off, a lossy sticker's report has no SSIM or PSNR and
/// the bytes are the same; lossless stickers say 1 and 99 either way.
final class QualityMeasurementTests: XCTestCase {
    /// The sticker of `input` at `size` with quality measured or not.
    func convert(_ input: [UInt8], _ options: ConversionOptions, measured: Bool) throws -> StickerOutput {
        var o = options
        o.measuresQuality = measured
        return try StickerConverter.convert(input, options: o).outputs[0].result.get()
    }

    func assertOnlyTheScoresDiffer(_ input: [UInt8], _ options: ConversionOptions, mode: OutputMode,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let on = try convert(input, options, measured: true), off = try convert(input, options, measured: false)
        XCTAssertEqual(on.report.mode, mode, file: file, line: line)
        XCTAssertEqual(on.bytes, off.bytes, "measuring never changes the file", file: file, line: line)
        let ssim = try XCTUnwrap(on.report.ssim, file: file, line: line)
        XCTAssertGreaterThan(ssim, 0.5, file: file, line: line)
        XCTAssertLessThan(ssim, 1, "a lossy sticker is measured, not assumed exact", file: file, line: line)
        XCTAssertNotNil(on.report.psnr, file: file, line: line)
        XCTAssertNil(off.report.ssim, file: file, line: line)
        XCTAssertNil(off.report.psnr, file: file, line: line)
        var a = on.report, b = off.report
        a.ssim = nil; a.psnr = nil; b.ssim = nil; b.psnr = nil
        XCTAssertEqual(a, b, "the rest of the report is the same", file: file, line: line)
    }

    func testLossyStillIsMeasuredOnlyWhenAsked() throws {
        let input = BudgetSearchTests.pngBytes(BudgetSearchTests.photoLike(500, seed: 3))
        try assertOnlyTheScoresDiffer(input, ConversionOptions(sizes: [.small], maxBytes: 30_000, maxColors: 64), mode: .palette)
    }

    func testLossyAnimationIsMeasuredOnlyWhenAsked() throws {
        let a = AnimationBudgetTests.animation(frames: 6, side: 200, delay: Delay(milliseconds: 100), loops: 0)
        let input = try PNGEncoder.encodeAnimation(frames: a.frames.map(\.image), delays: a.frames.map(\.delay),
                                                   loopCount: 0, effort: .fast)
        try assertOnlyTheScoresDiffer(input, ConversionOptions(sizes: [.small], maxBytes: 200_000, maxColors: 128), mode: .palette)
    }

    func testLosslessStickersAreExactWithoutMeasuring() throws {
        var flat = Image(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { flat[x, y] = x < 32 ? RGBA(200, 30, 30, 255) : RGBA(0, 0, 0, 0) } }
        let s = try convert(PNGEncoder.encode(flat, effort: .fast), ConversionOptions(sizes: [.small]), measured: false)
        XCTAssertEqual(s.report.mode, .paletteExact)
        XCTAssertEqual(s.report.ssim, 1)
        XCTAssertEqual(s.report.psnr, 99)
    }
}
