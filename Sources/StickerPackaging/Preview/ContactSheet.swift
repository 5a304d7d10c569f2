import Foundation
import ImageCore
import ImageDecoding
import ImageResize
import PNGEncoding

/// The preview as one PNG: a row per sticker (its first frame), a column per
/// `PreviewBackground`, each sticker at its grid size (pixels ÷ 3) centred in its cell.
///
/// Built one sticker at a time: a sticker keeps only its picture at grid size, as a `.fast`
/// PNG (a few KB), and the sheet is composed and compressed a row of stickers at a time
/// (`BandedPNGEncoder`), so memory follows one row of the sheet, not the sheet (a sheet of 306
/// stickers is 1586 × 69,160 pixels, 439 MB as RGBA) nor the stickers' full-size frames.
public struct ContactSheet: Sendable {
    static let pad = 8
    static let gap = 4
    static let sheetColor = RGBA(244, 244, 244)

    /// Each sticker's picture at grid size, cover-fitted from its first frame, as a PNG; nil for
    /// an empty frame (its row shows the backgrounds alone).
    private var pictures: [[UInt8]?] = []
    /// The largest grid side of any sticker.
    private var largest = 0

    /// A sheet without stickers: one row of empty cells.
    public init() {}

    /// A sheet of `firstFrames`, each a sticker's first frame at full size.
    public init(_ firstFrames: [Image]) {
        for frame in firstFrames { add(frame) }
    }

    /// Stickers on the sheet.
    public var count: Int { pictures.count }

    /// The bytes the sheet holds for its stickers.
    var heldBytes: Int { pictures.reduce(0) { $0 + ($1?.count ?? 0) } }

    /// Adds a row for the sticker whose first frame at full size is `firstFrame`.
    public mutating func add(_ firstFrame: Image) {
        let w = PreviewPage.cssSize(firstFrame.width), h = PreviewPage.cssSize(firstFrame.height)
        largest = max(largest, w, h)
        guard firstFrame.width > 0, firstFrame.height > 0 else { pictures.append(nil); return }
        pictures.append(PNGEncoder.encode(Resizer.resize(firstFrame, width: w, height: h, fit: .cover), effort: .fast))
    }

    /// The side of a cell: the largest sticker and its padding.
    var cell: Int { (pictures.isEmpty ? 0 : largest) + 2 * Self.pad }
    var rows: Int { max(1, pictures.count) }
    public var width: Int { PreviewBackground.allCases.count * (cell + Self.gap) + Self.gap }
    public var height: Int { rows * (cell + Self.gap) + Self.gap }

    /// The whole sheet as one image.
    public func render() -> Image {
        let photo = Self.photoCell(cell)
        var px: [UInt8] = []
        px.reserveCapacity(width * height * 4)
        for k in 0...rows { px += band(k, photo: photo) }
        return Image(width: width, height: height, pixels: px)
    }

    /// The sheet as the bytes of an opaque RGB PNG, composed and compressed a row of stickers at
    /// a time: a proof to look at, held to no byte budget.
    public func png() -> [UInt8] {
        let photo = Self.photoCell(cell)
        var encoder = BandedPNGEncoder(width: width, height: height)
        for k in 0...rows { encoder.append(rgba: band(k, photo: photo)) }
        return encoder.finish()
    }

    /// The RGBA pixels of band `k`: for `k < rows`, the gap above sticker row `k` and the row's
    /// cells; for `k == rows`, the gap below the last row.
    func band(_ k: Int, photo: Image?) -> [UInt8] {
        let cell = self.cell, width = self.width, gap = Self.gap
        let bandHeight = k < rows ? gap + cell : gap
        var px = [UInt8](repeating: 0, count: width * bandHeight * 4)
        Self.fill(&px, width, 0, 0, width, bandHeight) { _, _ in Self.sheetColor }
        guard k < rows else { return px }
        let sticker = k < pictures.count ? pictures[k].flatMap { try? ImageDecoder.decode($0).animation.frames[0].image } : nil
        for (col, bg) in PreviewBackground.allCases.enumerated() {
            let x0 = gap + col * (cell + gap), y0 = gap
            Self.fill(&px, width, x0, y0, cell, cell) { x, y in
                if let c = bg.color { return c }
                if bg == .checkerboard { return (x / 8 + y / 8) % 2 == 0 ? RGBA(200, 200, 200) : RGBA(255, 255, 255) }
                return photo.map { $0[x, y] } ?? RGBA(128, 128, 128)
            }
            if let sticker {
                Self.composite(sticker, onto: &px, width, x0 + (cell - sticker.width) / 2, y0 + (cell - sticker.height) / 2)
            }
        }
        return px
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
