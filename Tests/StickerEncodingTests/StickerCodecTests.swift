import Dispatch
import EncodingTestSupport
import ImageCore
import ImageDecoding
import PNGEncoding
import StickerEncoding
import TestSupport
import WebMEncoding
import WebPEncoding
import XCTest

final class StickerCodecTests: XCTestCase {
    private func sticker(_ side: Int, phase: Int) -> Image {
        Image(width: side, height: side, pixels: syntheticStickerPixels(width: side, height: side, phase: phase, seed: 5))
    }

    private func animation(_ side: Int = 64, count: Int = 4) -> StickerFrames {
        StickerFrames(pixels: .rgba((0..<count).map { sticker(side, phase: $0) }),
                      delays: Array(repeating: Delay(numerator: 1, denominator: 12), count: count), loopCount: 0, animated: true)
    }

    /// A palette version of `frames`: every colour snapped to a 4×4×4×4 grid, one shared palette.
    private func indexed(_ frames: [Image]) -> [IndexedImage] {
        var palette: [RGBA] = []
        var index: [UInt32: UInt8] = [:]
        return frames.map { f in
            var indices = [UInt8](repeating: 0, count: f.width * f.height)
            for i in 0..<indices.count {
                let p = f.pixels[(i * 4)..<(i * 4 + 4)].map { $0 & 0xC0 | 0x20 }
                let c = RGBA(p[0], p[1], p[2], p[3] == 0x20 ? 0 : p[3])
                if index[c.packed] == nil { index[c.packed] = UInt8(palette.count); palette.append(c) }
                indices[i] = index[c.packed]!
            }
            return IndexedImage(width: f.width, height: f.height, palette: palette, indices: indices)
        }.map { IndexedImage(width: $0.width, height: $0.height, palette: palette, indices: $0.indices) }
    }

    func testEveryCodecWritesItsContainer() throws {
        let still = StickerFrames(pixels: .rgba([sticker(48, phase: 0)]), delays: [.zero], animated: false)
        let cases: [(StickerCodec, EncodeQuality, StickerFrames, StickerContainer, ImageFormat?)] = [
            (.png(.fast), .lossless, still, .png, .png),
            (.png(.fast), .lossless, animation(), .apng, .apng),
            (.webp(WebPOptions()), .lossless, still, .webp, .webp),
            (.webp(WebPOptions()), .level(70), animation(), .webp, .webp),
            (.webm(WebMOptions(speed: 6)), .level(40), animation(), .webm, nil),
        ]
        for (codec, quality, frames, container, format) in cases {
            let out = try codec.encode(frames, quality: quality)
            XCTAssertEqual(out.container, container, "\(codec)")
            XCTAssertEqual(codec.container(still: frames.isStill), container)
            XCTAssertEqual(out.animated, container != .png && (container == .webm || !frames.isStill))
            if let format {
                let decoded = try ImageDecoder.decode(out.bytes)
                XCTAssertEqual(decoded.format, format, "\(codec)")
                XCTAssertEqual(decoded.animation.frames.count, frames.frameCount, "\(codec)")
                if quality == .lossless {
                    for (a, b) in zip(decoded.animation.frames, frames.rgbaFrames) {
                        // Invisible colour may differ (WebP without `exact`); what is seen may not.
                        XCTAssertEqual(ImageDifference(a.image, b).premultipliedMax, 0, "\(codec)")
                        XCTAssertEqual(ImageDifference(a.image, b).alphaMax, 0, "\(codec)")
                    }
                }
            } else {
                XCTAssertEqual(Array(out.bytes.prefix(4)), [0x1A, 0x45, 0xDF, 0xA3])
                XCTAssertEqual(try EBMLReader.parse(out.bytes).count, 2)
            }
        }
    }

    func testPaletteFramesStayExactInEveryLosslessCodec() throws {
        let frames = (0..<3).map { sticker(40, phase: $0) }
        let palette = indexed(frames)
        let input = StickerFrames(pixels: .indexed(palette), delays: Array(repeating: Delay(milliseconds: 90), count: 3),
                                  loopCount: 2, animated: true)
        for codec in [StickerCodec.png(.default), .webp(WebPOptions(exact: true))] {
            let decoded = try ImageDecoder.decode(try codec.encode(input, quality: .lossless).bytes).animation
            XCTAssertEqual(decoded.loopCount, 2, "\(codec)")
            XCTAssertEqual(decoded.frames.map(\.image), palette.map { $0.expanded() }, "\(codec)")
            XCTAssertEqual(decoded.frames.map(\.delay), Array(repeating: Delay(milliseconds: 90), count: 3))
        }
    }

    func testQualitiesACodecLacksAreTypedErrors() {
        func reason(_ body: () throws -> Any) -> StickerEncodingError? {
            do { _ = try body(); return nil } catch let e as ImageError { return e.reason as? StickerEncodingError } catch { return nil }
        }
        let frames = animation(16, count: 2)
        XCTAssertEqual(reason { try StickerCodec.png(.fast).encode(frames, quality: .level(50)) }, .noLevels(container: .apng))
        XCTAssertEqual(reason { try StickerCodec.webm(WebMOptions()).encode(frames, quality: .lossless) },
                       .noLossless(container: .webm))
        XCTAssertEqual(reason { try StickerCodec.webp(WebPOptions()).encode(frames, quality: .level(101)) },
                       .levelOutOfRange(level: 101, range: 0...100, container: .webp))
        XCTAssertEqual(reason { try StickerCodec.webm(WebMOptions()).encode(frames, quality: .level(-1)) },
                       .levelOutOfRange(level: -1, range: 0...63, container: .webm))
        XCTAssertNil(StickerCodec.png(.fast).qualityLevels)
        XCTAssertEqual(StickerCodec.webp(WebPOptions()).qualityLevels, 0...100)
        XCTAssertEqual(StickerCodec.webm(WebMOptions()).qualityLevels, 0...63)
    }

    func testHigherLevelsGiveLargerFiles() throws {
        let frames = animation(96, count: 3)
        for codec in [StickerCodec.webp(WebPOptions()), .webm(WebMOptions(speed: 5))] {
            let range = try XCTUnwrap(codec.qualityLevels)
            let levels = [range.lowerBound, (range.lowerBound + range.upperBound) / 2, range.upperBound]
            let sizes = try levels.map { try codec.encode(frames, quality: .level($0)).bytes.count }
            XCTAssertEqual(sizes, sizes.sorted(), "\(codec): \(sizes)")
        }
    }

    func testPNGEstimateIsCloseAndOthersHaveNone() throws {
        let palette = indexed((0..<3).map { sticker(96, phase: $0) })
        for frames in [StickerFrames(pixels: .indexed([palette[0]]), delays: [.zero], animated: false),
                       StickerFrames(pixels: .indexed(palette), delays: Array(repeating: Delay(milliseconds: 100), count: 3),
                                     animated: true)] {
            let estimate = try XCTUnwrap(StickerCodec.png(.default).estimatedSize(frames, quality: .lossless))
            let real = try StickerCodec.png(.default).encode(frames, quality: .lossless).bytes.count
            XCTAssertLessThan(abs(Double(estimate - real)) / Double(real), 0.15, "estimate \(estimate), real \(real)")
        }
        XCTAssertNil(StickerCodec.webp(WebPOptions()).estimatedSize(animation(), quality: .level(50)))
        XCTAssertNil(StickerCodec.webm(WebMOptions()).estimatedSize(animation(), quality: .level(50)))
        XCTAssertNil(StickerCodec.png(.fast).estimatedSize(animation(), quality: .lossless), "truecolour: no estimator")
    }

    /// What a batch with several jobs does: the same encodes on several threads at once give the
    /// bytes one thread gives.
    func testEveryCodecIsDeterministicUnderConcurrency() throws {
        let jobs: [(StickerCodec, EncodeQuality)] = [(.png(.fast), .lossless), (.webp(WebPOptions()), .lossless),
                                                     (.webp(WebPOptions(allowMixed: true)), .level(60)),
                                                     (.webm(WebMOptions(speed: 6)), .level(30))]
        let frames = animation(48, count: 3)
        let expected = try jobs.map { try $0.0.encode(frames, quality: $0.1).bytes }
        let results = ConcurrentResults(count: jobs.count * 3)
        DispatchQueue.concurrentPerform(iterations: jobs.count * 3) { i in
            let (codec, quality) = jobs[i % jobs.count]
            results.set(i, try? codec.encode(frames, quality: quality).bytes)
        }
        for (i, r) in results.values.enumerated() {
            XCTAssertEqual(r, expected[i % jobs.count], "job \(i): \(jobs[i % jobs.count].0)")
        }
    }
}
