import XCTest
import ImageCore
@testable import ImageQuantize

/// `AlphaProfile` and `HistogramPalettes(keepsPaintedAlpha:)`: art painted almost opaque keeps
/// palette entries of alpha 254 only when asked; without it every palette is as before.
final class PaintedAlphaTests: XCTestCase {
    /// 4,096 colours; the left half at `leftAlpha`, the right half opaque.
    private func image(leftAlpha: UInt8) -> Image {
        var img = Image(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 { img[x, y] = RGBA(UInt8(x * 4), UInt8(y * 4), 128, x < 32 ? leftAlpha : 255) } }
        return img
    }

    private func palette(_ image: Image, keepsPaintedAlpha: Bool) -> [RGBA] {
        var histogram = Histogram()
        histogram.add(image)
        return HistogramPalettes(histogram, keepsPaintedAlpha: keepsPaintedAlpha).palette(maxColors: 32).colors
    }

    func testProfileTellsPaintedAlphaFromSoftEdges() {
        XCTAssertTrue(AlphaProfile(histogram: AlphaProfile.histogram(of: [image(leftAlpha: 254)])).isPaintedNearlyOpaque)
        let soft = AlphaProfile(histogram: AlphaProfile.histogram(of: [image(leftAlpha: 128)]))
        XCTAssertTrue(soft.hasDetail)
        XCTAssertFalse(soft.isPaintedNearlyOpaque)
        XCTAssertFalse(AlphaProfile(histogram: AlphaProfile.histogram(of: [image(leftAlpha: 255)])).hasDetail)
    }

    func testPaintedAlphaKeeps254OnlyWhenAsked() {
        let painted = image(leftAlpha: 254)
        XCTAssertFalse(palette(painted, keepsPaintedAlpha: false).contains { $0.a == 254 }, "snapped to opaque as always")
        XCTAssertTrue(palette(painted, keepsPaintedAlpha: true).contains { $0.a == 254 })
        // Soft alpha is not painted: the same palette either way.
        let soft = image(leftAlpha: 128)
        XCTAssertEqual(palette(soft, keepsPaintedAlpha: true), palette(soft, keepsPaintedAlpha: false))
    }
}
