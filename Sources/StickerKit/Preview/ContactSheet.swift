import Foundation
import ImageCore
import ImageDecoding
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
            let scaled = sticker.width > 0 && sticker.height > 0
                ? CoverScaler.scale(sticker, x: 0, y: 0, w: Double(sticker.width), h: Double(sticker.height), width: w, height: h)
                : []
            for (col, bg) in PreviewBackground.allCases.enumerated() {
                let x0 = gap + col * (cell + gap), y0 = gap + row * (cell + gap)
                fill(&px, width, x0, y0, cell, cell) { x, y in
                    if let c = bg.color { return c }
                    if bg == .checkerboard { return (x / 8 + y / 8) % 2 == 0 ? RGBA(200, 200, 200) : RGBA(255, 255, 255) }
                    return photo.map { $0[x, y] } ?? RGBA(128, 128, 128)
                }
                if !scaled.isEmpty {
                    composite(scaled, w, h, onto: &px, width, x0 + (cell - w) / 2, y0 + (cell - h) / 2)
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
        return CoverScaler.flatten(CoverScaler.cover(img, width: side, height: side), width: side, height: side, over: RGBA(0, 0, 0))
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

    /// Premultiplied `w × h` pixels composited over the opaque sheet at (x0, y0).
    static func composite(_ src: [Float], _ w: Int, _ h: Int, onto px: inout [UInt8], _ width: Int, _ x0: Int, _ y0: Int) {
        src.withUnsafeBufferPointer { s in
            px.withUnsafeMutableBufferPointer { d in
                for y in 0..<h {
                    compositeRow(s.baseAddress! + y * w * 4, d.baseAddress! + ((y0 + y) * width + x0) * 4, w)
                }
            }
        }
    }

    private static func compositeRow(_ s: UnsafePointer<Float>, _ d: UnsafeMutablePointer<UInt8>, _ n: Int) {
        var i = 0
        while i < n {
            let keep = 1 - s[i * 4 + 3] * (1.0 / 255.0)
            d[i * 4] = CoverScaler.clamp8(s[i * 4] + Float(d[i * 4]) * keep)
            d[i * 4 + 1] = CoverScaler.clamp8(s[i * 4 + 1] + Float(d[i * 4 + 1]) * keep)
            d[i * 4 + 2] = CoverScaler.clamp8(s[i * 4 + 2] + Float(d[i * 4 + 2]) * keep)
            i += 1
        }
    }
}
