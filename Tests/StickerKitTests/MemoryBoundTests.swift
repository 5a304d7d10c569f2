import Foundation
import ImageCore
import EncodingTestSupport
import ImageDecoding
import WebPEncoding
import XCTest
@testable import StickerKit

/// One conversion's memory stays within `Limits.maxMemory` whatever the frame count or canvas:
/// generated long animations, a huge canvas with tiny frames, and a 10000² still, checked through
/// the library's own accounting (the decoder's boxes, the frame store's bytes, the structural
/// estimate). `scripts/check-bombs` measures the same files' peak RSS and time on the release
/// binary.
final class MemoryBoundTests: XCTestCase {
    /// The canvas regions the decoder holds for each frame of `data`.
    static func regionsHeld(_ data: [UInt8]) throws -> [[PixelRect]] {
        var held: [[PixelRect]] = []
        _ = try ImageDecoder.decodeCanvas(data) { held.append($0.regions.map(\.rect)) }
        return held
    }

    /// What `ImageOutline` estimates decoding `data` holds.
    static func decodingMemory(_ data: [UInt8]) -> Int? {
        data.withUnsafeBytes { ImageOutline.decodingMemory($0) }
    }

    /// A GIF with a `width × height` screen and 1×1 frames at `positions`, each shown 40 ms.
    static func gif(width: Int, height: Int, positions: [(Int, Int)]) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var out = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for (x, y) in positions {
            out += [0x21, 0xF9, 4, 0x04, 4, 0, 0, 0]                  // disposal 1, 40 ms
            out += [0x2C] + le16(x) + le16(y) + le16(1) + le16(1) + [0]
            out += [2, 2, 0x4C, 0x01, 0]                              // one pixel of colour 1
        }
        return out + [0x3B]
    }

    func testThousandsOfFramesConvertWithinTheBudget() throws {
        // 2,000 frames of a dot walking round a 64×64 screen.
        let positions = (0..<2_000).map { k in (k % 64, (k / 64) % 64) }
        let data = Self.gif(width: 64, height: 64, positions: positions)
        let options = ConversionOptions(sizes: [.small], maxBytes: 200_000, effort: .fast, maxColors: 8)
        let memory = ConversionMemory(data, options: options)
        XCTAssertLessThanOrEqual(memory.estimate, options.limits.maxMemory)
        let result = try StickerConverter.convert(data, options: options)
        XCTAssertEqual(result.frames, 2_000)
        let output = try result.outputs[0].result.get()
        XCTAssertLessThanOrEqual(output.bytes.count, 200_000)
    }

    func testTheFrameStoreKeepsWithinItsShareWhateverTheFrameCount() {
        // 3,000 frames of 300×300, each changing a 20×20 square: the store holds the first frame
        // and the changed spans, deflated past half its share, and gives up (frames are made
        // again on each walk) before it would pass the share.
        let side = 300, share = 2_000_000
        let frames = FittedFrames(side: side, budget: share)
        var image = Image(width: side, height: side, pixels: [UInt8](repeating: 0, count: side * side * 4))
        var rand = BudgetSearchTests.Rand(state: 3)
        var most = 0
        for k in 0..<3_000 {
            var damage = RowDamage(rows: side)
            let x0 = Int(rand.next() % UInt64(side - 20)), y0 = Int(rand.next() % UInt64(side - 20))
            for y in y0..<(y0 + 20) {
                for x in x0..<(x0 + 20) { for c in 0..<4 { image.pixels[(y * side + x) * 4 + c] = rand.byte() } }
                damage.mark(row: y, from: x0, to: x0 + 20)
            }
            frames.append(image, damage: k == 0 ? nil : damage, delay: Delay(milliseconds: 40))
            most = max(most, frames.bytes)
        }
        XCTAssertLessThanOrEqual(most, share + 20 * 20 * 4 * 2, "the store passed its share")
        XCTAssertTrue(frames.replays, "3,000 frames of noise cannot fit 2 MB")
        XCTAssertEqual(frames.bytes, 0)
        XCTAssertEqual(frames.count, 3_000)
    }

    func testAHugeCanvasWithTinyFramesHoldsOnlyTheirBox() throws {
        // A 10000×10000 screen, two 1×1 frames side by side in its middle: the decoder composites
        // on their 2×1 box, and the estimate says so.
        let data = Self.gif(width: 10_000, height: 10_000, positions: [(5_000, 5_000), (5_001, 5_000)])
        let decoding = Self.decodingMemory(data)
        XCTAssertNotNil(decoding)
        XCTAssertLessThan(decoding!, 1_000_000)
        var boxes: [PixelRect] = []
        _ = try ImageDecoder.decodeCanvas(data) { frame in
            XCTAssertEqual(frame.regions.count, 1)
            XCTAssertEqual(frame.regions[0].pixels.pixels.count, frame.box.area * 4)
            boxes.append(frame.box)
        }
        XCTAssertEqual(boxes, [PixelRect(x: 5_000, y: 5_000, width: 2, height: 1), PixelRect(x: 5_000, y: 5_000, width: 2, height: 1)])
        let result = try StickerConverter.convert(data, options: ConversionOptions(sizes: [.small], effort: .fast))
        XCTAssertNoThrow(try result.outputs[0].result.get())

        // Frames in opposite corners: two 1×1 regions, not the 10000² box that holds both.
        let corners = Self.gif(width: 10_000, height: 10_000, positions: [(0, 0), (9_999, 9_999)])
        let cornerDecoding = Self.decodingMemory(corners)
        XCTAssertEqual(cornerDecoding, 2 * 4 + 65_536)
        let held = try Self.regionsHeld(corners)
        let cornerRegions = [PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 9_999, y: 9_999, width: 1, height: 1)]
        XCTAssertEqual(held, [cornerRegions, cornerRegions])
        let cornerOptions = ConversionOptions(sizes: [.large], effort: .fast)
        XCTAssertNoThrow(try ConversionMemory(corners, options: cornerOptions).check(cornerOptions.limits))
        XCTAssertNoThrow(try StickerConverter.convert(corners, options: cornerOptions).outputs[0].result.get())
    }

    /// A GIF with a `width × height` screen, a 256-colour table (index 0 transparent) and one
    /// frame per entry: its rectangle, disposal (1 keep, 2 clear, 3 restore) and a seed for its
    /// indices (a quarter of them transparent). The LZW data sends a clear code before every
    /// pixel, so it stays 9-bit codes without a dictionary. Each frame is shown for 40 ms, or
    /// for its entry of `centiseconds`.
    static func gif(width: Int, height: Int, frames: [(rect: PixelRect, disposal: Int, seed: UInt64)],
                    centiseconds: [Int]? = nil) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        var out = Array("GIF89a".utf8) + le16(width) + le16(height) + [0x87, 0, 0]
        for i in 0..<256 { out += [UInt8(i), UInt8((i * 7) & 255), UInt8(255 - i)] }
        out += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        for (i, f) in frames.enumerated() {
            let cs = centiseconds?[i] ?? 4
            out += [0x21, 0xF9, 4, UInt8(f.disposal << 2 | 1)] + le16(cs) + [0, 0]
            out += [0x2C] + le16(f.rect.x) + le16(f.rect.y) + le16(f.rect.width) + le16(f.rect.height) + [0, 8]
            var rand = BudgetSearchTests.Rand(state: f.seed)
            var data: [UInt8] = [], acc = 0, bits = 0
            func put(_ code: Int) {
                acc |= code << bits; bits += 9
                while bits >= 8 { data.append(UInt8(acc & 255)); acc >>= 8; bits -= 8 }
            }
            for _ in 0..<f.rect.area {
                put(256)
                let v = rand.byte()
                put(v < 64 ? 0 : Int(v))
            }
            put(257)
            if bits > 0 { data.append(UInt8(acc & 255)) }
            var at = 0
            while at < data.count {
                let n = min(255, data.count - at)
                out += [UInt8(n)] + data[at..<(at + n)]
                at += n
            }
            out += [0]
        }
        return out + [0x3B]
    }

    /// The frames of `gif(width:height:frames:)` composited on a whole canvas by the GIF rules,
    /// written out plainly: the reference the decoder's regions must match.
    static func composite(width: Int, height: Int, frames: [(rect: PixelRect, disposal: Int, seed: UInt64)]) -> [Image] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var shown: [Image] = []
        for f in frames {
            let before = canvas
            var rand = BudgetSearchTests.Rand(state: f.seed)
            for y in f.rect.y..<(f.rect.y + f.rect.height) {
                for x in f.rect.x..<(f.rect.x + f.rect.width) {
                    let v = rand.byte()
                    guard v >= 64 else { continue }
                    let i = Int(v), o = (y * width + x) * 4
                    canvas[o] = UInt8(i); canvas[o + 1] = UInt8((i * 7) & 255); canvas[o + 2] = UInt8(255 - i); canvas[o + 3] = 255
                }
            }
            shown.append(Image(width: width, height: height, pixels: canvas))
            for y in f.rect.y..<(f.rect.y + f.rect.height) {
                let o = (y * width + f.rect.x) * 4, n = f.rect.width * 4
                if f.disposal == 2 { for k in o..<(o + n) { canvas[k] = 0 } }
                if f.disposal == 3 { canvas.replaceSubrange(o..<(o + n), with: before[o..<(o + n)]) }
            }
        }
        return shown
    }

    /// An animated WebP with a `width × height` canvas and one lossless frame per entry: its
    /// pixels (our encoder's bitstream), even offset, blending and disposal to the background.
    static func webp(width: Int, height: Int, frames: [(image: Image, x: Int, y: Int, blend: Bool, dispose: Bool)]) throws -> [UInt8] {
        func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8((v >> (8 * $0)) & 255) } }
        func chunk(_ fourCC: String, _ data: [UInt8]) -> [UInt8] {
            Array(fourCC.utf8) + le(data.count, 4) + data + (data.count % 2 == 1 ? [0] : [])
        }
        var body = Array("WEBP".utf8) + chunk("VP8X", [0x12, 0, 0, 0] + le(width - 1, 3) + le(height - 1, 3))
        body += chunk("ANIM", [0, 0, 0, 0, 0, 0])
        for f in frames {
            let still = try WebPEncoder.encode(f.image, compression: .lossless)
            // The still's last chunk is its VP8L bitstream (after VP8X/ALPH when present).
            var at = 12, bitstream: [UInt8] = []
            while at + 8 <= still.count {
                let n = Int(still[at + 4]) | Int(still[at + 5]) << 8 | Int(still[at + 6]) << 16 | Int(still[at + 7]) << 24
                if String(decoding: still[at..<(at + 4)], as: UTF8.self) == "VP8L" { bitstream = Array(still[at..<(at + 8 + n + (n & 1))]) }
                at += 8 + n + (n & 1)
            }
            let flags = UInt8((f.blend ? 0 : 2) | (f.dispose ? 1 : 0))
            body += chunk("ANMF", le(f.x / 2, 3) + le(f.y / 2, 3) + le(f.image.width - 1, 3) + le(f.image.height - 1, 3)
                          + le(100, 3) + [flags] + bitstream)
        }
        return Array("RIFF".utf8) + le(body.count, 4) + body
    }

    /// libwebp (and Chromium) draw an animated WebP's frame at its bitstream's size, whatever its
    /// ANMF header says, and refuse one that does not fit the canvas before decoding it: the
    /// estimate reads the bitstream's size too. FuzzBudget found a 190-byte file whose ANMF headers
    /// claimed frames of 16×16,383,992 on a 16×10 canvas: estimated at 2,185 MB, it was refused
    /// under the default budget and converted, in 41 MB, under a budget of its estimate.
    func testAWebPFrameIsEstimatedAtItsBitstreamsSizeWhateverItsHeaderSays() throws {
        var rand = BudgetSearchTests.Rand(state: 9)
        let frames = (0..<2).map { _ in Image(width: 16, height: 10, pixels: (0..<640).map { i in i % 4 == 3 ? 255 : rand.byte() }) }
        let honest = try Self.webp(width: 16, height: 10, frames: frames.map { ($0, 0, 0, false, false) })
        let anmf = (0..<(honest.count - 4)).filter { honest[$0..<($0 + 4)].elementsEqual("ANMF".utf8) }
        XCTAssertEqual(anmf.count, 2)
        func saying(_ chunks: [Int], width: Int, height: Int) -> [UInt8] {
            var d = honest
            for at in chunks {
                for (k, v) in [(14, width - 1), (17, height - 1)] { for b in 0..<3 { d[at + k + b] = UInt8((v >> (8 * b)) & 255) } }
            }
            return d
        }
        let tall = saying([anmf[1]], width: 16, height: 16_383_992)
        // Headers that say less than the bitstreams hold: counted at what is drawn, not under it.
        let tiny = saying(anmf, width: 1, height: 1)
        for lying in [tall, tiny] {
            XCTAssertEqual(Self.decodingMemory(lying), Self.decodingMemory(honest))
            XCTAssertEqual(try ImageDecoder.decode(lying).animation.frames.map(\.image), try ImageDecoder.decode(honest).animation.frames.map(\.image))
        }
        let options = ConversionOptions(sizes: [.small], effort: .fast)
        XCTAssertEqual(try StickerConverter.convert(tall, options: options).outputs.first?.result.get().bytes,
                       try StickerConverter.convert(honest, options: options).outputs.first?.result.get().bytes)
    }

    func testWebPFramesInOppositeCornersComposeAndFitAsTheWholeCanvas() throws {
        // Translucent frames in two corners, blended or not, one disposed to the background.
        func noise(_ w: Int, _ h: Int, _ seed: UInt64) -> Image {
            var rand = BudgetSearchTests.Rand(state: seed)
            return Image(width: w, height: h, pixels: (0..<(w * h * 4)).map { _ in rand.byte() | 1 })
        }
        let (w, h) = (1_600, 1_200)
        let data = try Self.webp(width: w, height: h, frames: [
            (noise(30, 20, 1), 0, 0, false, false),
            (noise(30, 20, 2), 1_570, 1_180, true, true),
            (noise(20, 10, 3), 4, 6, true, false),
            (noise(30, 20, 4), 1_570, 1_180, true, false),
        ])
        let held = try Self.regionsHeld(data)
        let regions = [PixelRect(x: 0, y: 0, width: 30, height: 20), PixelRect(x: 1_570, y: 1_180, width: 30, height: 20)]
        XCTAssertEqual(held, Array(repeating: regions, count: 4))
        let decoding = Self.decodingMemory(data)
        XCTAssertEqual(decoding, 2 * 600 * 4 + 600 * 8)

        let decoded = try ImageDecoder.decode(data).animation
        try assertStickersEqual(data, decoded)
    }

    /// Stickers at 300 and 618 converted from `data` (decoded as regions) are byte for byte those
    /// converted from its whole decoded frames (`decoded`, one box: the whole canvas).
    func assertStickersEqual(_ data: [UInt8], _ decoded: Animation, file: StaticString = #filePath, line: UInt = #line) throws {
        let options = ConversionOptions(sizes: [.small, .large], effort: .fast)
        let sparse = try StickerConverter.convert(data, options: options)
        let whole = StickerConverter.convert(decoded, options: options)
        XCTAssertEqual(sparse.outputs.count, 2, file: file, line: line)
        for (a, b) in zip(sparse.outputs, whole.outputs) {
            XCTAssertEqual(try a.result.get().bytes, try b.result.get().bytes, file: file, line: line)
        }
    }

    func testFramesScatteredOverALargeCanvasComposeAndFitAsTheWholeCanvas() throws {
        // Two overlapping frames in the middle, one in each corner, a small one beside the first
        // (joined to it: their box is small), every disposal mode.
        let (w, h) = (1_600, 1_200)
        let frames: [(rect: PixelRect, disposal: Int, seed: UInt64)] = [
            (PixelRect(x: 0, y: 0, width: 40, height: 30), 1, 1),
            (PixelRect(x: 1_560, y: 1_170, width: 40, height: 30), 2, 2),
            (PixelRect(x: 700, y: 500, width: 60, height: 50), 3, 3),
            (PixelRect(x: 730, y: 520, width: 70, height: 40), 1, 4),
            (PixelRect(x: 50, y: 10, width: 20, height: 20), 3, 5),
            (PixelRect(x: 1_560, y: 1_170, width: 40, height: 30), 1, 6),
            (PixelRect(x: 700, y: 500, width: 60, height: 50), 2, 7),
            (PixelRect(x: 0, y: 0, width: 40, height: 30), 1, 8),
        ]
        let data = Self.gif(width: w, height: h, frames: frames)
        let regions = [PixelRect(x: 1_560, y: 1_170, width: 40, height: 30), PixelRect(x: 700, y: 500, width: 100, height: 60),
                       PixelRect(x: 0, y: 0, width: 70, height: 30)]
        let held = try Self.regionsHeld(data)
        XCTAssertEqual(held, Array(repeating: regions, count: frames.count))
        // The estimate counts the regions (twice: a frame restores the previous screen).
        let decoding = Self.decodingMemory(data)
        XCTAssertEqual(decoding, regions.reduce(0) { $0 + $1.area } * 8 + 65_536)

        let reference = Self.composite(width: w, height: h, frames: frames)
        let decoded = try ImageDecoder.decode(data).animation
        XCTAssertEqual(decoded.frames.map(\.image), reference)

        try assertStickersEqual(data, decoded)
    }

    func testAPNGFramesInOppositeCornersOfAHugeCanvasAreHeldAsRegions() throws {
        // A 10000² canvas whose default image is not a frame, a 1×1 frame in each corner: two
        // 1×1 regions, not the canvas or the box that holds both.
        let pixel = Image(width: 1, height: 1, pixels: [200, 30, 90, 255])
        let data = Self.apng(width: 10_000, height: 10_000, frames: [(pixel, 0, 0, 0, 1), (pixel, 9_999, 9_999, 0, 1)])
        // The regions, the largest frame's scanlines (1 + 4 bytes) and its pixels.
        let decoding = Self.decodingMemory(data)
        XCTAssertEqual(decoding, 2 * 4 + 5 + 4)
        let held = try Self.regionsHeld(data)
        let corners = [PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 9_999, y: 9_999, width: 1, height: 1)]
        XCTAssertEqual(held, [corners, corners])
        let options = ConversionOptions(sizes: [.large], effort: .fast)
        XCTAssertNoThrow(try ConversionMemory(data, options: options).check(options.limits))
        XCTAssertNoThrow(try StickerConverter.convert(data, options: options).outputs[0].result.get())
    }

    func testAPNGFramesScatteredOverALargeCanvasComposeAndFitAsTheWholeCanvas() throws {
        // Translucent frames in two corners and overlapping in the middle, every dispose op
        // (PREVIOUS first: it means BACKGROUND there) and both blend ops.
        func noise(_ w: Int, _ h: Int, _ seed: UInt64) -> Image {
            var rand = BudgetSearchTests.Rand(state: seed)
            return Image(width: w, height: h, pixels: (0..<(w * h * 4)).map { _ in rand.byte() })
        }
        let (w, h) = (1_600, 1_200)
        let frames: [(image: Image, x: Int, y: Int, dispose: UInt8, blend: UInt8)] = [
            (noise(30, 20, 1), 0, 0, 2, 1),
            (noise(40, 30, 2), 1_560, 1_170, 0, 0),
            (noise(60, 50, 3), 700, 500, 2, 1),
            (noise(70, 40, 4), 730, 520, 1, 1),
            (noise(20, 10, 5), 5, 7, 0, 1),
            (noise(40, 30, 6), 1_560, 1_170, 1, 1),
            (noise(60, 50, 7), 700, 500, 0, 0),
            (noise(30, 20, 8), 0, 0, 2, 1),
            (noise(70, 40, 9), 730, 520, 0, 1),
        ]
        let data = Self.apng(width: w, height: h, frames: frames)
        let regions = [PixelRect(x: 0, y: 0, width: 30, height: 20), PixelRect(x: 1_560, y: 1_170, width: 40, height: 30),
                       PixelRect(x: 700, y: 500, width: 100, height: 60)]
        let held = try Self.regionsHeld(data)
        XCTAssertEqual(held, Array(repeating: regions, count: frames.count))
        // The regions, the largest frame's scanlines and pixels, and those pixels again (a frame
        // after the first disposes to PREVIOUS).
        let decoding = Self.decodingMemory(data)
        XCTAssertEqual(decoding, regions.reduce(0) { $0 + $1.area } * 4 + 50 * (60 * 4 + 1) + 2 * 60 * 50 * 4)

        let decoded = try ImageDecoder.decode(data).animation
        XCTAssertEqual(decoded.frames.count, frames.count)
        try assertStickersEqual(data, decoded)
    }

    /// A 1-bit gray `side × side` PNG of stripes, black on even columns and white on odd ones
    /// (its scanlines stored, 12.5 MB at 10000²), interlaced or not: the same image.
    static func stripedGrayPNG(side: Int, interlaced: Bool = false) -> [UInt8] {
        guard interlaced else {
            let rowBytes = (side + 7) / 8 + 1
            var raw = [UInt8](repeating: 0x55, count: rowBytes * side)
            for y in 0..<side { raw[y * rowBytes] = 0 }
            return png(width: side, height: side, bitDepth: 1, colorType: 0, scanlines: raw)
        }
        // Adam7: a pass whose columns step by an even count holds one parity of column only.
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] {
            let w = (side - x0 + dx - 1) / dx, h = (side - y0 + dy - 1) / dy
            let byte: UInt8 = dx == 1 ? 0x55 : (x0 % 2 == 1 ? 0xFF : 0x00)
            let row = [0] + [UInt8](repeating: byte, count: (w + 7) / 8)
            for _ in 0..<h { raw += row }
        }
        return png(width: side, height: side, bitDepth: 1, colorType: 0, scanlines: raw, interlaced: true)
    }

    func testA10000SquarePNGIsConvertedRowByRowWithinTheBudget() throws {
        // A 1-bit gray 10000×10000 PNG: its RGBA image alone is 400 MB; decoded row by row it
        // holds two scanlines, one RGBA row and each size's window.
        let side = 10_000
        let png = Self.stripedGrayPNG(side: side)
        let options = ConversionOptions(sizes: StickerSize.allCases, effort: .fast)
        let memory = ConversionMemory(png, options: options)
        XCTAssertTrue(memory.byRows)
        XCTAssertGreaterThanOrEqual(memory.wholeEstimate, 400_000_000)
        let stickers = StickerSize.allCases.reduce(0) { $0 + $1.pixels * $1.pixels } * ConversionMemory.perStickerPixel
        // Windows of 2·(⌈10000/side⌉ + 2) + 1 rows of 40 KB: 2.8 + 2.1 + 1.4 MB.
        XCTAssertLessThan(memory.estimate - stickers - ConversionMemory.process - png.count - ConversionMemory.stillWorkspace, 8_000_000)
        let result = try StickerConverter.convert(png, options: options)
        XCTAssertEqual(result.width, side)
        for output in result.outputs { XCTAssertNoThrow(try output.result.get()) }

        // Interlaced, each row is whole only at the last Adam7 pass: decoded a band of rows at a
        // time (`PNGRowDecoder.bandBytes`), within the budget, into the same stickers.
        let interlaced = Self.stripedGrayPNG(side: side, interlaced: true)
        let banded = ConversionMemory(interlaced, options: options)
        XCTAssertTrue(banded.byRows)
        XCTAssertLessThan(banded.estimate - memory.estimate - interlaced.count + png.count, 40_000_000)
        XCTAssertNoThrow(try banded.check(options.limits))
        let again = try StickerConverter.convert(interlaced, options: options)
        XCTAssertEqual(again.outputs.map { try? $0.result.get().bytes }, result.outputs.map { try? $0.result.get().bytes })
    }

    /// A fixture JPEG whose frame header claims `width × height`: lenient decoding fills what
    /// the data does not hold with gray, so it decodes whole at that size.
    static func jpeg(_ name: String, claiming width: Int, _ height: Int) throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: StreamingConversionTests.fixtures.appendingPathComponent("jpeg/\(name)")))
        var pos = 2
        while pos + 9 < bytes.count {
            let marker = bytes[pos + 1], length = Int(bytes[pos + 2]) << 8 | Int(bytes[pos + 3])
            if [0xC0, 0xC1, 0xC2].contains(marker) {
                bytes[pos + 5] = UInt8(height >> 8); bytes[pos + 6] = UInt8(height & 0xFF)
                bytes[pos + 7] = UInt8(width >> 8); bytes[pos + 8] = UInt8(width & 0xFF)
                return bytes
            }
            pos += 2 + length
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    func testA10000SquareJPEGIsConvertedRowByRowWithinTheBudget() throws {
        // Its RGBA image alone would be 400 MB: the estimate counts the decoder's rows and each
        // size's window of rows instead (about 17 rows of 40 KB at 618 px). `cover`, which is
        // never decoded reduced (`DecodeReduction`), so the rows are the file's own width.
        let jpeg = try Self.jpeg("rocket_640x427.jpg", claiming: 10_000, 10_000)
        let options = ConversionOptions(sizes: StickerSize.allCases, fit: .cover, effort: .fast, lenient: true)
        let memory = ConversionMemory(jpeg, options: options)
        XCTAssertTrue(memory.byRows)
        let stickers = StickerSize.allCases.reduce(0) { $0 + $1.pixels * $1.pixels } * ConversionMemory.perStickerPixel
        XCTAssertLessThan(memory.estimate - stickers - ConversionMemory.process - jpeg.count - ConversionMemory.stillWorkspace, 20_000_000)
        XCTAssertNoThrow(try memory.check(options.limits))
        let result = try StickerConverter.convert(jpeg, options: options)
        XCTAssertEqual(result.width, 10_000)
        for output in result.outputs { XCTAssertNoThrow(try output.result.get()) }
        // A progressive file needs its coefficients whole (libjpeg keeps them between scans):
        // 10000² at 4:2:0 is 300 MB of them, refused from the structure.
        assertRefusedForMemory(try Self.jpeg("progressive.jpg", claiming: 10_000, 10_000), atLeast: 256_000_000)
    }

    /// `jpeg` with an EXIF block whose orientation is `orientation`, right after SOI.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt8) -> [UInt8] {
        // TIFF, big-endian: header, IFD0 with one entry (0x0112 SHORT 1 = orientation), no next IFD.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + Array(jpeg[2...])
    }

    func testA10000SquareJPEGTurnedByEXIFIsDecodedReducedWithinTheBudget() throws {
        // A turn needs the whole image, and at full size two of them (the decode and its turned
        // copy, 800 MB): over the budget. The stickers need a long side of 4 × 618 at most, so
        // the decode is reduced to 1/4 (2500²) and both images fit: the estimate counts them so.
        let jpeg = Self.withOrientation(try Self.jpeg("rocket_640x427.jpg", claiming: 10_000, 10_000), 6)
        let options = ConversionOptions(sizes: StickerSize.allCases, effort: .fast, lenient: true)
        let memory = ConversionMemory(jpeg, options: options)
        XCTAssertFalse(memory.byRows)
        let stickers = StickerSize.allCases.reduce(0) { $0 + $1.pixels * $1.pixels } * ConversionMemory.perStickerPixel
        XCTAssertEqual(memory.estimate - stickers - ConversionMemory.process - jpeg.count - ConversionMemory.stillWorkspace, 2 * 2500 * 2500 * 4)
        let result = try StickerConverter.convert(jpeg, options: options)
        XCTAssertEqual(result.width, 10_000)
        XCTAssertTrue(result.warnings.contains { $0.contains("EXIF orientation 6") }, "\(result.warnings)")
        for output in result.outputs { XCTAssertNoThrow(try output.result.get()) }
        // Decoded at full size (`cover` is never reduced), the same file is refused from its structure.
        let cover = ConversionOptions(sizes: [.small], fit: .cover)
        XCTAssertThrowsError(try StickerConverter.convert(jpeg, options: cover)) { error in
            guard let e = error as? ImageError, case let .overMemory(estimate, _)? = e.reason as? LimitsError else {
                return XCTFail("\(error)")
            }
            XCTAssertGreaterThanOrEqual(estimate, 2 * 10_000 * 10_000 * 4)
        }
    }

    func testPicturesOfAJPEGTurnedByEXIFAreMadeFromAsReducedADecodeAsTheyAllow() throws {
        // 2560×1600 turned to 1600×2560. For 96² pictures (contain) a long side of 4 × 96 × 2560 / 2560
        // = 384 is kept: libjpeg's 1/4 (640×400), not 1/8 (320×200). The 1024² icons (cover) need it whole.
        let jpeg = [UInt8](try Data(contentsOf: StreamingConversionTests.fixtures.appendingPathComponent("jpeg/large_orient_6.jpg")))
        let small = try Artwork.firstFrame(jpeg, forPictures: (96, 96), fit: .contain)
        XCTAssertEqual([small.image.width, small.image.height, small.width, small.height], [400, 640, 1600, 2560])
        let whole = try Artwork.firstFrame(jpeg, forPictures: (1024, 1024), fit: .cover)
        XCTAssertEqual([whole.image.width, whole.image.height, whole.width, whole.height], [1600, 2560, 1600, 2560])
        XCTAssertEqual(whole.image, try Artwork.firstFrame(jpeg))
        // The tray picture from the reduced decode looks like the one from the whole image.
        let icon = try XCTUnwrap(StickerTarget.whatsapp.packIcons.first)
        let fromFile = try PackIconRenderer.render(file: jpeg, target: .whatsapp)[0].get()
        let fromImage = try PackIconRenderer.render(whole.image, icon: icon).get()
        let d = ImageDifference(try ImageDecoder.decode(fromFile).animation.frames[0].image,
                                try ImageDecoder.decode(fromImage).animation.frames[0].image)
        XCTAssertGreaterThan(d.premultipliedPSNR, 40)
    }

    func testStillsConvertedByRowsAreTheBytesOfTheWholeImage() throws {
        // Every JPEG fixture the rows path takes, at every size, with and without trim and inset.
        let dir = StreamingConversionTests.fixtures.appendingPathComponent("jpeg")
        var compared = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".jpg") {
            let data = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
            for (trim, inset) in [(false, 0), (true, 7)] {
                let options = ConversionOptions(sizes: StickerSize.allCases, trim: trim, inset: inset, effort: .fast)
                guard let rows = try StickerConverter.convertByRows(data, options: options) else { continue }
                let whole = try StickerConverter.convert(data, options: options, plan: MemoryPlan(options: options))
                XCTAssertEqual(rows.warnings, whole.warnings, name)
                XCTAssertEqual(rows.outputs.map(\.size), whole.outputs.map(\.size))
                for (a, b) in zip(rows.outputs, whole.outputs) {
                    let (x, y) = (try a.result.get(), try b.result.get())
                    XCTAssertEqual(x.bytes, y.bytes, "\(name) \(a.size) trim \(trim)")
                    XCTAssertEqual(x.report.warnings, y.report.warnings, "\(name) \(a.size)")
                }
                compared += 1
            }
        }
        XCTAssertGreaterThanOrEqual(compared, 10)
    }

    func testAProgressiveJPEGWithAbsurdlyManyScansIsRefusedFromItsStructure() throws {
        let url = StreamingConversionTests.fixtures.appendingPathComponent("jpeg/progressive.jpg")
        let jpeg = [UInt8](try Data(contentsOf: url))
        XCTAssertNoThrow(try ImageDecoder.decode(jpeg))
        // 200 more (empty) DC scans before EOI: counted from the markers, never decoded.
        let scan: [UInt8] = [0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0, 0]
        var many = Array(jpeg.dropLast(2))
        for _ in 0..<200 { many += scan }
        many += [0xFF, 0xD9]
        XCTAssertThrowsError(try ImageDecoder.decode(many)) { error in
            guard let e = error as? ImageError, case let .overScans(scans, maxScans)? = e.reason as? LimitsError else {
                return XCTFail("\(error)")
            }
            XCTAssertGreaterThan(scans, 200)
            XCTAssertEqual(maxScans, 100)
            XCTAssertEqual(e.kind, .limits)
            XCTAssertEqual(Self.preflightError(many, ConversionOptions(sizes: [.small])), "\(error)")
        }
        XCTAssertNil(Self.preflightError(jpeg, ConversionOptions(sizes: [.small])))
    }

    /// What `StickerConverter.preflight` throws for `data`, as text, or nil.
    static func preflightError(_ data: [UInt8], _ options: ConversionOptions) -> String? {
        do {
            try StickerConverter.preflight(data, options: options)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func assertRefusedForMemory(_ data: [UInt8], atLeast: Int, file: StaticString = #filePath, line: UInt = #line) {
        let options = ConversionOptions(sizes: [.small])
        XCTAssertThrowsError(try StickerConverter.convert(data, options: options), file: file, line: line) { error in
            guard let e = error as? ImageError, case let .overMemory(estimate, maxMemory)? = e.reason as? LimitsError else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertGreaterThanOrEqual(estimate, atLeast, file: file, line: line)
            XCTAssertEqual(maxMemory, Limits.defaultMemory, file: file, line: line)
            XCTAssertTrue(e.message.contains("--max-memory"), e.message, file: file, line: line)
            // A dry run finds the same refusal without converting.
            XCTAssertEqual(Self.preflightError(data, options), "\(error)", file: file, line: line)
        }
    }

    /// A PNG whose IDAT holds `scanlines` (every Adam7 pass in turn when `interlaced`) in stored
    /// (uncompressed) deflate blocks.
    static func png(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, scanlines: [UInt8], interlaced: Bool = false) -> [UInt8] {
        let ihdr = be32(width) + be32(height) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
        return pngSignature + chunk("IHDR", ihdr) + chunk("IDAT", storedZlib(scanlines)) + chunk("IEND", [])
    }

    /// An RGBA8 APNG on a `width × height` canvas whose default image (all transparent) is not a
    /// frame, with one frame per entry: its pixels, offset, dispose op (0 none, 1 background,
    /// 2 previous) and blend op (0 source, 1 over).
    static func apng(width: Int, height: Int, frames: [(image: Image, x: Int, y: Int, dispose: UInt8, blend: UInt8)]) -> [UInt8] {
        var file = pngSignature + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
        file += chunk("acTL", be32(frames.count) + be32(0))
        file += chunk("IDAT", zeroZlib(count: height * (width * 4 + 1)))
        var sequence = 0
        for f in frames {
            file += chunk("fcTL", be32(sequence) + be32(f.image.width) + be32(f.image.height) + be32(f.x) + be32(f.y)
                          + [0, 1, 0, 10, f.dispose, f.blend])
            var scanlines: [UInt8] = []
            for y in 0..<f.image.height {
                scanlines += [0] + f.image.pixels[(y * f.image.width * 4)..<((y + 1) * f.image.width * 4)]
            }
            file += chunk("fdAT", be32(sequence + 1) + storedZlib(scanlines))
            sequence += 2
        }
        return file + chunk("IEND", [])
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// A PNG chunk: length, type, data and CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        var c: UInt32 = 0xFFFF_FFFF
        for b in body {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return be32(data.count) + body + be32(Int(c ^ 0xFFFF_FFFF))
    }

    /// `bytes` as a zlib stream of stored (uncompressed) deflate blocks.
    static func storedZlib(_ bytes: [UInt8]) -> [UInt8] {
        var z: [UInt8] = [0x78, 0x01]
        z.reserveCapacity(bytes.count + bytes.count / 65_535 * 5 + 16)
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        var pos = 0
        repeat {
            let n = min(65_535, bytes.count - pos)
            let last: UInt8 = pos + n == bytes.count ? 1 : 0
            z += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            z += bytes[pos..<(pos + n)]
            pos += n
        } while pos < bytes.count
        return z + be32(Int(b << 16 | a))
    }

    /// `count` zero bytes (`count` ≥ 1) as a zlib stream: one fixed-Huffman block, a literal 0
    /// then matches of distance 1 (length 258, then what is left: 3…258, or literals).
    static func zeroZlib(count: Int) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01], acc: UInt64 = 0, bits = 0
        func put(_ value: Int, _ n: Int) {
            acc |= UInt64(value) << UInt64(bits); bits += n
            while bits >= 8 { out.append(UInt8(acc & 0xFF)); acc >>= 8; bits -= 8 }
        }
        /// A Huffman code, most significant bit first.
        func code(_ value: Int, _ n: Int) { for k in stride(from: n - 1, through: 0, by: -1) { put(value >> k & 1, 1) } }
        func literalZero() { code(0x30, 8) }
        /// A match of `length` (3…258) at distance 1, with the fixed code's length table.
        func match(_ length: Int) {
            let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
            let extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
            let i = bases.lastIndex { $0 <= length }!
            let symbol = 257 + i
            if symbol < 280 { code(symbol - 256, 7) } else { code(0xC0 + symbol - 280, 8) }
            put(length - bases[i], extra[i])
            code(0, 5)
        }
        put(1, 1); put(1, 2)  // the last block, fixed Huffman codes
        literalZero()
        var left = count - 1
        while left >= 258 { match(258); left -= 258 }
        if left >= 3 { match(left) } else { for _ in 0..<left { literalZero() } }
        code(0, 7)  // end of block
        if bits > 0 { out.append(UInt8(acc & 0xFF)) }
        return out + be32((count % 65_521) << 16 | 1)
    }
}

extension MemoryBoundTests {
    /// A long animation converted for WhatsApp (animated WebP) and Signal (APNG) is fitted frame by
    /// frame into a store that keeps within its share of the budget, and walked by the search:
    /// with a budget so small that the store gives up (frames decoded and fitted again on every
    /// walk) the sticker is byte for byte the one made with the default budget.
    func testLongAnimationsForWhatsAppAndSignalKeepTheirFramesWithinTheStoreShare() throws {
        // 600 frames of a dot walking round a 64×64 screen, 40 ms each (24 s: sped up to each cap).
        let positions = (0..<600).map { k in (k % 64, (k / 64) % 64) }
        let data = Self.gif(width: 64, height: 64, positions: positions)
        for target in [StickerTarget.whatsapp, .signal] {
            var options = ConversionOptions()
            options.target = target
            let memory = ConversionMemory(data, options: options)
            XCTAssertLessThanOrEqual(memory.estimate, options.limits.maxMemory)
            let share = 300_000
            let frames = try PlatformFrames.fit(data, options: options, side: 512, box: nil, budget: share)
            XCTAssertEqual(frames.store.count, 600)
            XCTAssertTrue(frames.store.replays || frames.store.bytes <= share, "\(target.name): the store passed its share")
            XCTAssertTrue(frames.store.replays, "600 frames of 512² cannot fit 300 KB")
            let whole = try XCTUnwrap(StickerConverter.convert(data, options: options).outputs.first?.result.get())
            let replayed = try XCTUnwrap(try PlatformConverter.convert(data, options: options,
                                                                       plan: MemoryPlan(options: options, available: share * 2))
                .outputs.first?.result.get())
            XCTAssertEqual(replayed.bytes, whole.bytes, "\(target.name): the store's tier changed the sticker")
            XCTAssertEqual(whole.report.framesInput, 600)
            XCTAssertLessThanOrEqual(whole.bytes.count, target.maxBytes(animated: true))
        }
    }
}
