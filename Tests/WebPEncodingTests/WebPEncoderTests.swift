import Dispatch
import Foundation
import ImageCore
import ImageDecoding
import EncodingTestSupport
import TestSupport
import XCTest
import WebPEncoding

final class WebPEncoderTests: XCTestCase {
    private func sticker(_ side: Int = 96, phase: Int = 0, seed: UInt64 = 1) -> Image {
        Image(width: side, height: side, pixels: syntheticStickerPixels(width: side, height: side, phase: phase, seed: seed))
    }

    func testLosslessStillIsPixelExact() throws {
        let image = sticker()
        let bytes = try WebPEncoder.encode(image, compression: .lossless, options: WebPOptions(exact: true))
        let decoded = try ImageDecoder.decode(bytes)
        XCTAssertEqual(decoded.format, .webp)
        XCTAssertEqual(decoded.animation.frames.count, 1)
        XCTAssertTrue(decoded.animation.frames[0].image == image, "lossless WebP did not decode to its input")
    }

    func testLosslessStillWithoutExactKeepsEveryVisiblePixel() throws {
        var image = sticker(seed: 7)
        // Colour under full transparency that `exact: false` is free to change.
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i + 3] == 0 { image.pixels[i] = 200 }
        let out = try ImageDecoder.decode(try WebPEncoder.encode(image, compression: .lossless)).animation.frames[0].image
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            if image.pixels[i + 3] == 0 {
                XCTAssertEqual(out.pixels[i + 3], 0)
            } else {
                XCTAssertEqual(Array(out.pixels[i..<i + 4]), Array(image.pixels[i..<i + 4]), "pixel \(i / 4)")
            }
        }
    }

    func testLossyStillWithAlphaStaysWithinError() throws {
        let image = sticker(128)
        let bytes = try WebPEncoder.encode(image, compression: .lossy(quality: 80))
        let out = try ImageDecoder.decode(bytes).animation.frames[0].image
        let difference = ImageDifference(image, out)
        // Alpha quality 100 (the default) keeps alpha lossless.
        XCTAssertEqual(difference.alphaMax, 0)
        XCTAssertGreaterThan(difference.premultipliedPSNR, 32)
        // A lower quality makes a smaller file that is still recognisably the image.
        let small = try WebPEncoder.encode(image, compression: .lossy(quality: 10))
        XCTAssertLessThan(small.count, bytes.count)
        XCTAssertGreaterThan(ImageDifference(image, try ImageDecoder.decode(small).animation.frames[0].image).premultipliedPSNR, 24)
    }

    func testLossyAlphaQualityBelow100ChangesAlphaALittle() throws {
        let image = sticker(128)
        let out = try ImageDecoder.decode(try WebPEncoder.encode(image, compression: .lossy(quality: 80),
                                                                 options: WebPOptions(alphaQuality: 30)))
        let difference = ImageDifference(image, out.animation.frames[0].image)
        XCTAssertGreaterThan(difference.alphaMax, 0, "alpha quality 30 is lossy")
        XCTAssertLessThan(difference.alphaMean, 3)
    }

    func testSizeFallsWithQuality() throws {
        let image = sticker(128, seed: 3)
        let sizes = try [95, 75, 50, 25, 5].map { try WebPEncoder.encode(image, compression: .lossy(quality: $0)).count }
        XCTAssertEqual(sizes, sizes.sorted(by: >), "sizes \(sizes)")
    }

    func testAnimationRoundTripsFramesDelaysAndLoopCount() throws {
        let frames = (0..<5).map { sticker(64, phase: $0) }
        // Exact delays that milliseconds cannot all hold: 1/30 s, 1/3 s, 70 ms, 1/7 s, 45 ms.
        let delays = [Delay(numerator: 1, denominator: 30), Delay(numerator: 1, denominator: 3), Delay(milliseconds: 70),
                      Delay(numerator: 1, denominator: 7), Delay(milliseconds: 45)]
        let bytes = try WebPEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: 3, compression: .lossless,
                                                    options: WebPOptions(exact: true))
        let decoded = try ImageDecoder.decode(bytes)
        let a = decoded.animation
        XCTAssertEqual(a.frames.count, 5)
        XCTAssertEqual(a.loopCount, 3)
        let times = Delay.millisecondTimeline(delays)
        XCTAssertEqual(times, [0, 33, 367, 437, 580, 625])
        var exactStart = Delay.zero
        for (i, frame) in a.frames.enumerated() {
            XCTAssertTrue(frame.image == frames[i], "frame \(i) differs")
            XCTAssertEqual(frame.delay, Delay(milliseconds: times[i + 1] - times[i]), "frame \(i)")
            // Every frame starts within half a millisecond of its exact time.
            XCTAssertLessThanOrEqual(abs(Double(times[i]) - exactStart.milliseconds), 0.5)
            exactStart = exactStart + delays[i]
        }
        XCTAssertEqual(a.duration.roundedMilliseconds, exactStart.roundedMilliseconds)
    }

    func testLossyAndMixedAnimationsDecode() throws {
        let frames = (0..<4).map { sticker(80, phase: $0 * 2) }
        let delays = Array(repeating: Delay(milliseconds: 100), count: 4)
        for options in [WebPOptions(), WebPOptions(allowMixed: true), WebPOptions(minimizeSize: true),
                        WebPOptions(keyframeSpacing: 1...1), WebPOptions(keyframeSpacing: 3...4)] {
            let bytes = try WebPEncoder.encodeAnimation(frames: frames, delays: delays, compression: .lossy(quality: 75),
                                                        options: options)
            let a = try ImageDecoder.decode(bytes).animation
            XCTAssertEqual(a.frames.count, 4, "\(options)")
            XCTAssertEqual(a.loopCount, 0)
            for (i, f) in a.frames.enumerated() {
                XCTAssertEqual(f.delay, Delay(milliseconds: 100))
                XCTAssertGreaterThan(ImageDifference(frames[i], f.image).premultipliedPSNR, 30, "frame \(i) with \(options)")
            }
        }
    }

    func testOneFrameIsAStillUnlessAlwaysAnimated() throws {
        let still = try WebPEncoder.encodeAnimation(frames: [sticker(32)], delays: [Delay(milliseconds: 500)],
                                                    compression: .lossless, options: WebPOptions(exact: true))
        XCTAssertEqual(ImageOutline.read(still)?.storedDelays, [])
        XCTAssertEqual(ImageOutline.read(still)?.frameCount, 1)
        // Identical frames merge into one: with alwaysAnimated, an animation of two frames of that
        // image (the first frame's duration, then the rest), with the loop count.
        let bytes = try WebPEncoder.encodeAnimation(frames: [sticker(32), sticker(32)],
                                                    delays: [Delay(milliseconds: 500), Delay(milliseconds: 250)], loopCount: 2,
                                                    compression: .lossless, options: WebPOptions(exact: true),
                                                    alwaysAnimated: true)
        let outline = try XCTUnwrap(ImageOutline.read(bytes))
        XCTAssertEqual(outline.storedDelays, [Delay(milliseconds: 500), Delay(milliseconds: 250)])
        XCTAssertEqual(outline.loopCount, 2)
        let a = try ImageDecoder.decode(bytes).animation
        XCTAssertEqual(a.frames.count, 2)
        XCTAssertTrue(a.frames.allSatisfy { $0.image == sticker(32) })
        // One frame given: one frame kept, with its duration.
        let one = try WebPEncoder.encodeAnimation(frames: [sticker(32)], delays: [Delay(milliseconds: 500)],
                                                  compression: .lossless, options: WebPOptions(exact: true), alwaysAnimated: true)
        XCTAssertEqual(ImageOutline.read(one)?.storedDelays, [Delay(milliseconds: 500)])
    }

    func testSameInputGivesSameBytesAlsoConcurrently() throws {
        let frames = (0..<3).map { sticker(72, phase: $0) }
        let delays = Array(repeating: Delay(numerator: 1, denominator: 15), count: 3)
        let cases: [(WebPCompression, WebPOptions)] = [(.lossless, WebPOptions()), (.lossy(quality: 60), WebPOptions()),
                                                       (.lossy(quality: 60), WebPOptions(sharpYUV: true, allowMixed: true))]
        for (compression, options) in cases {
            let still = try WebPEncoder.encode(frames[0], compression: compression, options: options)
            let anim = try WebPEncoder.encodeAnimation(frames: frames, delays: delays, compression: compression, options: options)
            XCTAssertEqual(try WebPEncoder.encode(frames[0], compression: compression, options: options), still)
            let results = ConcurrentResults(count: 8)
            DispatchQueue.concurrentPerform(iterations: 8) { i in
                results.set(i, i % 2 == 0
                    ? try? WebPEncoder.encode(frames[0], compression: compression, options: options)
                    : try? WebPEncoder.encodeAnimation(frames: frames, delays: delays, compression: compression, options: options))
            }
            for (i, r) in results.values.enumerated() {
                XCTAssertEqual(r, i % 2 == 0 ? still : anim, "job \(i), \(compression)")
            }
        }
    }

    func testBadParametersAreTypedErrors() {
        let image = sticker(16)
        func reason(_ body: () throws -> Any) -> WebPEncodingError? {
            do { _ = try body(); return nil } catch let e as ImageError { return e.reason as? WebPEncodingError } catch { return nil }
        }
        XCTAssertEqual(reason { try WebPEncoder.encode(image, compression: .lossy(quality: 101)) }, .quality(101))
        XCTAssertEqual(reason { try WebPEncoder.encode(image, compression: .lossless, options: WebPOptions(method: 7)) }, .method(7))
        XCTAssertEqual(reason { try WebPEncoder.encode(Image(width: 0, height: 4), compression: .lossless) },
                       .unwritableSize(width: 0, height: 4))
        XCTAssertEqual(reason { try WebPEncoder.encodeAnimation(frames: [image], delays: [], compression: .lossless) },
                       .delayCount(frames: 1, delays: 0))
        XCTAssertEqual(reason { try WebPEncoder.encodeAnimation(frames: [image, sticker(8)], delays: [.zero, .zero],
                                                                compression: .lossless) },
                       .frameSize(frame: 1, width: 8, height: 8, firstWidth: 16, firstHeight: 16))
        XCTAssertEqual(reason { try WebPEncoder.encodeAnimation(frames: [image], delays: [.zero], loopCount: 65536,
                                                                compression: .lossless) }, .loopCount(65536))
        XCTAssertEqual(reason { try WebPEncoder.encodeAnimation(frames: [image], delays: [.zero], compression: .lossless,
                                                                options: WebPOptions(keyframeSpacing: 2...8)) },
                       .keyframeSpacing(minimum: 2, maximum: 8))
    }
}
