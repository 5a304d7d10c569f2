import ImageCore
import XCTest
@testable import ImageResize

/// `RowFitter` (a still fed row by row, only a window of rows held) gives the bytes of
/// `FrameFitter` on the whole image, and holds no more rows than its memory estimate says.
final class RowFitterTests: XCTestCase {
    /// Random pixels with transparent margins (so trim crops), translucent and opaque parts.
    static func image(_ w: Int, _ h: Int, seed: UInt64) -> Image {
        var rng = SeededGenerator(seed: seed)
        let content = randomImage(w, h, &rng)
        var img = Image(width: w, height: h)
        for y in (h / 7)..<(h - h / 5) { for x in (w / 6)..<(w - w / 9) { img[x, y] = content[x, y] } }
        return img
    }

    static let optionSets: [FitOptions] = FrameFitterTests.optionSets + [
        FitOptions(size: 17, trim: true), FitOptions(size: 31, fit: .cover, trim: true, inset: 3),
        FitOptions(size: 300), FitOptions(size: 5, trim: true, linear: true),
    ]

    func testARectangleResizedByRowsOverABackgroundIsTheWholeImagesResize() {
        // Reductions and enlargements into rectangles (app icons), both fits, over an opaque colour.
        let background = RGBA(250, 200, 10)
        for (k, (w, h)) in [(203, 197), (640, 17), (9, 700), (41, 29), (1, 57)].enumerated() {
            let image = Self.image(w, h, seed: UInt64(k + 11))
            for (tw, th) in [(120, 90), (58, 58), (1024, 768), (7, 3)] {
                for fit in [FitMode.cover, .contain] {
                    let whole = Resizer.resize(image, width: tw, height: th, fit: fit, over: background)
                    guard let rows = Resizer.rowResizer(canvasWidth: w, canvasHeight: h, width: tw, height: th, fit: fit,
                                                        over: background) else { return XCTFail("\(w)×\(h) → \(tw)×\(th)") }
                    image.pixels.withUnsafeBytes { p in
                        for y in 0..<h { rows.add(row: p.baseAddress! + y * w * 4, y: y) }
                    }
                    XCTAssertEqual(rows.finish(), whole, "\(w)×\(h) → \(tw)×\(th) \(fit)")
                }
            }
        }
        XCTAssertNil(Resizer.rowResizer(canvasWidth: 10, canvasHeight: 10, width: 0, height: 5, over: background))
    }

    func testRowsGiveTheBytesOfTheWholeImage() {
        // Reductions by 1–40×, enlargements, wide, tall and 1-pixel sources.
        for (k, (w, h)) in [(41, 29), (29, 41), (203, 197), (1, 57), (57, 1), (640, 17), (9, 700), (3, 3)].enumerated() {
            let image = Self.image(w, h, seed: UInt64(k + 1))
            var bounds = VisibleBounds()
            bounds.add(image)
            var rowBounds = VisibleBounds()
            image.pixels.withUnsafeBytes { p in
                for y in 0..<h { rowBounds.add(row: p.baseAddress! + y * w * 4, y: y, width: w) }
            }
            XCTAssertEqual(rowBounds, bounds, "\(w)×\(h)")
            for options in Self.optionSets {
                var frameFitter = FrameFitter(canvasWidth: w, canvasHeight: h, options: options, visibleBounds: bounds)
                let whole = frameFitter.fit(image)
                let rows = RowFitter(canvasWidth: w, canvasHeight: h, options: options, visibleBounds: rowBounds)
                image.pixels.withUnsafeBytes { p in
                    for y in 0..<h { rows.add(row: p.baseAddress! + y * w * 4, y: y) }
                }
                XCTAssertEqual(rows.finish(), whole, "\(w)×\(h) \(options)")
                XCTAssertEqual(rows.warnings, frameFitter.warnings)
                XCTAssertEqual(rows.upscaled, frameFitter.upscaled)
                XCTAssertLessThanOrEqual(rows.windowRows, RowFitter.windowRows(width: w, height: h, options: options),
                                         "\(w)×\(h) \(options): the estimate is below the window")
            }
        }
    }

    func testTheWindowStaysSmallForAHugeReduction() {
        // 20000 rows of 3 pixels into 50 px: a reduction of 400×, about 400 rows at once, never
        // the whole height.
        let w = 3, h = 20_000, options = FitOptions(size: 50)
        let rows = RowFitter(canvasWidth: w, canvasHeight: h, options: options)
        XCTAssertLessThan(rows.windowRows, 1_000)
        XCTAssertLessThanOrEqual(rows.windowRows, RowFitter.windowRows(width: w, height: h, options: options))
        var row = [UInt8](repeating: 0, count: w * 4)
        for y in 0..<h {
            for x in 0..<w { row[x * 4] = UInt8(truncatingIfNeeded: y); row[x * 4 + 3] = 255 }
            row.withUnsafeBytes { rows.add(row: $0.baseAddress!, y: y) }
        }
        let out = rows.finish()
        XCTAssertEqual(out.width, 50)
        XCTAssertEqual(out[0, 25].a, 0, "the strip is a fraction of a pixel wide: transparent margins")
    }
}
