import Foundation
import ImageCore
import ImageDecoding
import ImageResize
import PNGEncoding

/// The preview as one PNG: a row per sticker (its first frame), a column per
/// `PreviewBackground`, each sticker at its grid size (pixels ÷ 3) centred in its cell.
public enum ContactSheet {
    static let pad = 8
    static let gap = 4
    static let sheetColor = RGBA(244, 244, 244)

    /// Renders the sheet. Each image is one sticker's first frame at full size.
    public static func render(_ stickers: [Image]) -> Image {
        let cell = stickers.map { max(PreviewPage.cssSize($0.width), PreviewPage.cssSize($0.height)) }.max().map { $0 + 2 * pad } ?? 2 * pad
        let cols = PreviewBackground.allCases.count
        let rows = max(1, stickers.count)
        let width = cols * cell + (cols + 1) * gap
        let height = rows * cell + (rows + 1) * gap
        var px = [UInt8](repeating: 0, count: width * height * 4)
        fill(&px, width, 0, 0, width, height) { _, _ in sheetColor }

        let photo = photoCell(cell)
        for (row, sticker) in stickers.enumerated() {
            let w = PreviewPage.cssSize(sticker.width), h = PreviewPage.cssSize(sticker.height)
            let scaled = sticker.width > 0 && sticker.height > 0 ? Resizer.resize(sticker, width: w, height: h, fit: .cover) : nil
            for (col, bg) in PreviewBackground.allCases.enumerated() {
                let x0 = gap + col * (cell + gap), y0 = gap + row * (cell + gap)
                fill(&px, width, x0, y0, cell, cell) { x, y in
                    if let c = bg.color { return c }
                    if bg == .checkerboard { return (x / 8 + y / 8) % 2 == 0 ? RGBA(200, 200, 200) : RGBA(255, 255, 255) }
                    return photo.map { $0[x, y] } ?? RGBA(128, 128, 128)
                }
                if let scaled {
                    composite(scaled, onto: &px, width, x0 + (cell - w) / 2, y0 + (cell - h) / 2)
                }
            }
        }
        return Image(width: width, height: height, pixels: px)
    }

    /// A rendered sheet as the bytes of a PNG file, encoded at `.fast`: a proof to look at, held
    /// to no byte budget.
    public static func png(_ sheet: Image) -> [UInt8] {
        PNGEncoder.encode(sheet, effort: .fast)
    }

    /// The embedded photo, cover-fitted to a cell; nil if it cannot be decoded.
    static func photoCell(_ side: Int) -> Image? {
        guard let decoded = try? ImageDecoder.decode(PreviewPhoto.jpeg) else { return nil }
        let img = decoded.animation.frames[0].image
        return Resizer.resize(img, width: side, height: side, fit: .cover, over: RGBA(0, 0, 0))
    }

    /// Sets a `w × h` block at (x0, y0) from `color(x, y)` (coordinates within the block).
    static func fill(_ px: inout [UInt8], _ width: Int, _ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ color: (Int, Int) -> RGBA) {
        for y in 0..<h {
            for x in 0..<w {
                let c = color(x, y)
                let i = ((y0 + y) * width + x0 + x) * 4
                px[i] = c.r; px[i + 1] = c.g; px[i + 2] = c.b; px[i + 3] = 255
            }
        }
    }

    /// `image` (straight alpha) composited over the opaque sheet at (x0, y0).
    static func composite(_ image: Image, onto px: inout [UInt8], _ width: Int, _ x0: Int, _ y0: Int) {
        for y in 0..<image.height {
            for x in 0..<image.width {
                let s = image[x, y]
                let i = ((y0 + y) * width + x0 + x) * 4
                let a = Int(s.a)
                // c·a + d·(255 − a), divided by 255 rounding to nearest.
                px[i] = UInt8((Int(s.r) * a + Int(px[i]) * (255 - a) + 127) / 255)
                px[i + 1] = UInt8((Int(s.g) * a + Int(px[i + 1]) * (255 - a) + 127) / 255)
                px[i + 2] = UInt8((Int(s.b) * a + Int(px[i + 2]) * (255 - a) + 127) / 255)
            }
        }
    }
}
