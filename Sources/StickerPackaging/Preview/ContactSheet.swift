import Foundation
import ImageCore
import ImageDecoding
import ImageResize
import PNGEncoding
import StickerKit

/// The preview as one PNG: a row per sticker (its first frame), a column per
/// `PreviewBackground`, each sticker at its grid size (pixels ÷ 3) centred in its cell; artwork
/// larger than the large sticker is shown at most at its grid size (206 px a side), so that one
/// 10000² file does not make every cell 3349 px.
///
/// Built one sticker at a time: a sticker keeps only its picture at grid size, as a `.fast`
/// PNG (a few KB), and the sheet is composed and compressed about a megabyte of rows at a time
/// (`BandedPNGEncoder`), so memory follows neither the sheet (1586 × 69,160 pixels, 439 MB as
/// RGBA, for 306 stickers of 618 px) nor the stickers' full-size frames.
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

    /// The longest side of a picture on the sheet: the large sticker's grid size (618 ÷ 3).
    static let longestSide = PreviewPage.cssSize(StickerSize.large.pixels)

    /// The size of a `width × height` sticker's picture: its grid size, scaled down to
    /// `longestSide` when larger.
    static func pictureSize(_ width: Int, _ height: Int) -> (width: Int, height: Int) {
        let w = PreviewPage.cssSize(width), h = PreviewPage.cssSize(height), side = max(w, h)
        guard side > longestSide else { return (w, h) }
        return (max(1, (w * longestSide + side / 2) / side), max(1, (h * longestSide + side / 2) / side))
    }

    /// Adds a row for the sticker whose first frame at full size is `firstFrame`.
    public mutating func add(_ firstFrame: Image) {
        add(frame: firstFrame, shownWidth: firstFrame.width, shownHeight: firstFrame.height)
    }

    /// Adds a row for a sticker shown at `shownWidth × shownHeight` whose first frame is `frame`
    /// (at that size, or smaller when decoded reduced).
    private mutating func add(frame: Image, shownWidth: Int, shownHeight: Int) {
        let (w, h) = Self.pictureSize(shownWidth, shownHeight)
        guard frame.width > 0, frame.height > 0 else { return add(picture: nil, width: w, height: h) }
        add(picture: Resizer.resize(frame, width: w, height: h, fit: .cover), width: w, height: h)
    }

    /// Adds a row for the sticker file `bytes`, the picture `add(_:)` makes of its first frame,
    /// within `limits.maxMemory`: resized as its rows arrive and never held whole
    /// (`Artwork.resizedByRows`: a still decoded by rows, an animation's first frame composed row
    /// by row from the regions its frames draw); any other still is decoded as
    /// `Artwork.firstFrame(_:forPictures:fit:limits:)` decodes it (refused from the file's
    /// structure past the budget; a JPEG decoded reduced). Throws `ImageError` when the file
    /// does not decode or would pass the budget.
    public mutating func add(file bytes: [UInt8], limits: Limits = .default) throws {
        guard let o = bytes.withUnsafeBytes({ ImageOutline.read($0) }) else { return add(try Artwork.firstFrame(bytes, limits: limits)) }
        let (w, h) = Self.pictureSize(o.width, o.height)
        let target = ArtworkResize.rectangle(width: w, height: h, fit: .cover, background: nil)
        if let r = try Artwork.resizedByRows(bytes, targets: [target], limits: limits) {
            return add(picture: r.images[0], width: w, height: h)
        }
        let first = try Artwork.firstFrame(bytes, forPictures: (w, h), fit: .cover, limits: limits)
        add(frame: first.image, shownWidth: first.width, shownHeight: first.height)
    }

    /// Adds a row for a sticker whose grid size is `width × height` and whose picture at that
    /// size is `picture` (nil: an empty frame).
    private mutating func add(picture: Image?, width: Int, height: Int) {
        largest = max(largest, width, height)
        pictures.append(picture.map { PNGEncoder.encode($0, effort: .fast) })
    }

    /// The side of a cell: the largest sticker and its padding.
    var cell: Int { (pictures.isEmpty ? 0 : largest) + 2 * Self.pad }
    var rows: Int { max(1, pictures.count) }
    public var width: Int { PreviewBackground.allCases.count * (cell + Self.gap) + Self.gap }
    public var height: Int { rows * (cell + Self.gap) + Self.gap }
    /// Rows composed (and compressed) at a time: about 1 MiB of RGBA.
    var pieceRows: Int { max(1, (1 << 20) / (width * 4)) }

    /// The whole sheet as one image.
    public func render() -> Image {
        var px: [UInt8] = []
        px.reserveCapacity(width * height * 4)
        forEachPiece { px += $0 }
        return Image(width: width, height: height, pixels: px)
    }

    /// The sheet as the bytes of an opaque RGB PNG, composed and compressed `pieceRows` rows at
    /// a time: a proof to look at, held to no byte budget.
    public func png() -> [UInt8] {
        var encoder = BandedPNGEncoder(width: width, height: height)
        forEachPiece { encoder.append(rgba: $0) }
        return encoder.finish()
    }

    /// Calls `body` with the sheet's RGBA rows, top to bottom, `pieceRows` at a time.
    func forEachPiece(_ body: ([UInt8]) -> Void) {
        let photo = Self.photoCell(cell)
        var current: (k: Int, image: Image?)? = nil
        var y = 0
        while y < height {
            let n = min(pieceRows, height - y)
            body(pixels(rows: y..<(y + n), photo: photo, picture: &current))
            y += n
        }
    }

    /// The RGBA pixels of the sheet's rows `range`. `current` holds the last sticker row's
    /// picture decoded, for the next range that crosses the same row.
    func pixels(rows range: Range<Int>, photo: Image?, picture current: inout (k: Int, image: Image?)?) -> [UInt8] {
        let cell = self.cell, width = self.width, gap = Self.gap, stride = cell + gap
        var px = [UInt8](repeating: 0, count: width * range.count * 4)
        Self.fill(&px, width, 0, 0, width, range.count) { _, _ in Self.sheetColor }
        var y = range.lowerBound
        while y < range.upperBound {
            // Sticker row k: a gap, then its cells.
            let k = y / stride, cellTop = k * stride + gap
            let end = min(range.upperBound, (k + 1) * stride)
            let top = max(y, cellTop)
            y = end
            guard k < rows, top < end else { continue }
            if current?.k != k {
                current = (k, k < pictures.count ? pictures[k].flatMap { try? ImageDecoder.decode($0).animation.frames[0].image } : nil)
            }
            let cy = top - cellTop, n = end - top, at = top - range.lowerBound
            for (col, bg) in PreviewBackground.allCases.enumerated() {
                let x0 = gap + col * stride
                Self.fill(&px, width, x0, at, cell, n) { x, y in
                    if let c = bg.color { return c }
                    let y = y + cy
                    if bg == .checkerboard { return (x / 8 + y / 8) % 2 == 0 ? RGBA(200, 200, 200) : RGBA(255, 255, 255) }
                    return photo.map { $0[x, y] } ?? RGBA(128, 128, 128)
                }
                if let sticker = current?.image {
                    let oy = (cell - sticker.height) / 2
                    let lo = max(cy, oy), hi = min(cy + n, oy + sticker.height)
                    if lo < hi {
                        Self.composite(sticker, rows: (lo - oy)..<(hi - oy), onto: &px, width, x0 + (cell - sticker.width) / 2, at + lo - cy)
                    }
                }
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

    /// Rows `rows` of `image` (straight alpha) composited over the opaque sheet, the first of
    /// them at (x0, y0).
    static func composite(_ image: Image, rows: Range<Int>, onto px: inout [UInt8], _ width: Int, _ x0: Int, _ y0: Int) {
        for y in rows {
            for x in 0..<image.width {
                let s = image[x, y]
                let i = ((y0 + y - rows.lowerBound) * width + x0 + x) * 4
                let a = Int(s.a)
                // c·a + d·(255 − a), divided by 255 rounding to nearest.
                px[i] = UInt8((Int(s.r) * a + Int(px[i]) * (255 - a) + 127) / 255)
                px[i + 1] = UInt8((Int(s.g) * a + Int(px[i + 1]) * (255 - a) + 127) / 255)
                px[i + 2] = UInt8((Int(s.b) * a + Int(px[i + 2]) * (255 - a) + 127) / 255)
            }
        }
    }
}
