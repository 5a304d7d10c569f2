import ImageCore
import ImageDecoding
import ImageResize
import PNGEncoding
import XCTest
@testable import StickerKit

/// Platform stills too large to decode whole within the memory budget are decoded row by row
/// (`BoxRowFit`, `PlatformFrames.fitByRows`): the same pixels and the same stickers as the whole
/// path, for square platforms and LINE's box, and refused from the structure only where the
/// fit needs the whole canvas (a `cover` box).
final class PlatformRowsTests: XCTestCase {
    /// A `width × height` RGBA still: a translucent gradient with an opaque disc, transparent
    /// borders (so `trim` has something to cut).
    static func art(width: Int, height: Int) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let cx = Double(width) / 2, cy = Double(height) / 2, r = Double(min(width, height)) * 0.3
        for y in height / 10..<(height - height / 8) {
            for x in width / 12..<(width - width / 9) {
                let i = (y * width + x) * 4
                let inDisc = (Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy) < r * r
                pixels[i] = UInt8(x * 255 / width)
                pixels[i + 1] = inDisc ? 200 : UInt8(y * 255 / height)
                pixels[i + 2] = UInt8((x ^ y) & 0xFF)
                pixels[i + 3] = inDisc ? 255 : UInt8(64 + (x + y) % 160)
            }
        }
        return Image(width: width, height: height, pixels: pixels)
    }

    func options(_ target: StickerTarget, fit: FitMode = .contain, trim: Bool = false, inset: Int = 0) -> ConversionOptions {
        var o = ConversionOptions(fit: fit, trim: trim, inset: inset, effort: .fast)
        o.target = target
        return o
    }

    func testRowFitGivesTheWholeFitsPixels() throws {
        let image = Self.art(width: 901, height: 613)
        let png = PNGEncoder.encode(image, effort: .fast)
        var rows: [[UInt8]] = []
        _ = try XCTUnwrap(try ImageDecoder.decodeRows(png, start: { _, _ in }, row: { row, _ in
            rows.append([UInt8](UnsafeRawBufferPointer(start: row, count: image.width * 4)))
        }))
        let frame = CanvasFrame(canvasWidth: image.width, canvasHeight: image.height,
                                box: PixelRect(x: 0, y: 0, width: image.width, height: image.height),
                                pixels: image, damage: nil, delay: .zero)
        for target in [StickerTarget.whatsapp, .discord, .line] {
            for (fit, trim, inset) in [(FitMode.contain, false, 0), (.contain, true, 0), (.contain, true, 24), (.cover, false, 0)] {
                let o = options(target, fit: fit, trim: trim, inset: inset)
                let side = target.side ?? StickerSize.regular.pixels
                let box = target.box(animated: false)
                var bounds: VisibleBounds?
                if trim {
                    var union = VisibleBounds()
                    for (y, row) in rows.enumerated() { row.withUnsafeBytes { union.add(row: $0.baseAddress!, y: y, width: image.width) } }
                    bounds = union
                }
                var whole = BoxFit(canvasWidth: image.width, canvasHeight: image.height, side: side, box: box, options: o,
                                   visibleBounds: bounds)
                let expected = whole.fit(frame)
                let label = "\(target.name) \(fit) trim \(trim) inset \(inset)"
                guard let byRows = BoxRowFit(canvasWidth: image.width, canvasHeight: image.height, side: side, box: box,
                                             options: o, visibleBounds: bounds) else {
                    // Only a box filled by `cover` needs the whole canvas.
                    XCTAssertTrue(box != nil && fit == .cover, label)
                    XCTAssertNil(BoxRowFit.windowBound(side: side, box: box, options: o), label)
                    continue
                }
                for (y, row) in rows.enumerated() { row.withUnsafeBytes { byRows.add(row: $0.baseAddress!, y: y) } }
                let got = byRows.finish()
                XCTAssertEqual(got.width, whole.width, label)
                XCTAssertEqual(got.height, whole.height, label)
                XCTAssertEqual(got.pixels, expected.pixels, label)
                XCTAssertEqual(byRows.warnings, whole.warnings, label)
                // The estimate's window is at least the fitter's.
                let bound = try XCTUnwrap(BoxRowFit.windowBound(side: side, box: box, options: o), label)
                let square = try XCTUnwrap(BoxFit.square(canvasWidth: image.width, canvasHeight: image.height, side: side, box: box,
                                                         options: o, visibleBounds: bounds), label)
                XCTAssertGreaterThanOrEqual(RowFitter.windowRows(width: image.width, height: image.height, options: bound),
                                            RowFitter.windowRows(width: image.width, height: image.height, options: square.fit), label)
            }
        }
    }

    func testAPlatformStillByRowsIsTheWholePathsSticker() throws {
        let png = PNGEncoder.encode(Self.art(width: 1400, height: 1000), effort: .fast)
        for target in [StickerTarget.whatsapp, .signal, .telegram, .discord, .line] {
            for trim in [false, true] {
                let o = options(target, trim: trim)
                let plan = MemoryPlan(options: o)
                let rows = try XCTUnwrap(try PlatformConverter.convertByRows(png, options: o, plan: plan), target.name)
                let whole = try PlatformConverter.convert(png, options: o, plan: plan)
                XCTAssertEqual(rows.width, whole.width)
                XCTAssertEqual(rows.height, whole.height)
                XCTAssertEqual(rows.warnings, whole.warnings, target.name)
                let a = try rows.outputs[0].result.get(), b = try whole.outputs[0].result.get()
                XCTAssertEqual(a.bytes, b.bytes, "\(target.name) trim \(trim)")
                XCTAssertEqual(a.report.warnings, b.report.warnings, "\(target.name) trim \(trim)")
            }
        }
        // An animation is not decoded by rows: nothing is done.
        let apng = try StreamingConversionTests.fixture("png/maneki_neko_palette_3f.apng")
        XCTAssertNil(try PlatformConverter.convertByRows(apng, options: options(.signal), plan: MemoryPlan(options: options(.signal))))
    }

    func testA10000SquarePNGConvertsForEveryPlatformWithinTheBudget() throws {
        // The 1-bit gray 10000² PNG of `MemoryBoundTests`: 400 MB as RGBA, refused for every
        // platform before; by rows a window of source rows.
        let side = 10_000
        let png = MemoryBoundTests.stripedGrayPNG(side: side)
        for target in [StickerTarget.whatsapp, .line] {
            let o = options(target)
            let memory = ConversionMemory(png, options: o)
            XCTAssertTrue(memory.byRows, target.name)
            XCTAssertGreaterThanOrEqual(memory.wholeEstimate, 400_000_000)
            XCTAssertLessThan(memory.estimate, 80_000_000, target.name)
            let result = try StickerConverter.convert(png, options: o)
            XCTAssertEqual(result.width, side)
            XCTAssertNoThrow(try result.outputs[0].result.get(), target.name)
        }
        // LINE filled by `cover` resizes the whole canvas: refused from the structure.
        let cover = options(.line, fit: .cover)
        XCTAssertFalse(ConversionMemory(png, options: cover).byRows)
        XCTAssertThrowsError(try StickerConverter.convert(png, options: cover)) { error in
            guard let e = error as? ImageError, case .overMemory? = e.reason as? LimitsError else { return XCTFail("\(error)") }
        }
    }
}
