import ImageCore
import TestSupport
import XCTest
@testable import StickerKit

/// `Limits.maxChangedPixels` bounds the time one sticker size takes: what an animation's frames
/// change (sticker pixels, and half the source's) is counted as they are fitted, and a size
/// that passes the limit is refused there (`StickerError.tooMuchChange`) while the other sizes
/// convert as they would alone. `scripts/check-bombs` measures the CPU of such files on the
/// release binary.
final class ChangeLimitTests: XCTestCase {
    /// `count` frames of `side × side` opaque noise: every pixel changes from one frame to the next.
    static func noise(frames count: Int, side: Int = 64) -> Animation {
        var rng = SplitMix64(seed: 7)
        let frames = (0..<count).map { _ in
            var image = Image(width: side, height: side)
            for i in 0..<side * side {
                let v = rng.next()
                image.pixels[i * 4] = UInt8(truncatingIfNeeded: v)
                image.pixels[i * 4 + 1] = UInt8(truncatingIfNeeded: v >> 8)
                image.pixels[i * 4 + 2] = UInt8(truncatingIfNeeded: v >> 16)
                image.pixels[i * 4 + 3] = 255
            }
            return Frame(image: image, delay: Delay(milliseconds: 100))
        }
        return Animation(width: side, height: side, frames: frames)
    }

    func testTheFirstFrameCountsWholeThenEachFrameItsDamageAndHalfTheSources() {
        var count = ChangeCount(Limits(maxChangedPixels: 1_000), width: 20, height: 20)
        let box = PixelRect(x: 0, y: 0, width: 10, height: 10)
        let image = Image(width: 10, height: 10)
        let first = CanvasFrame(canvasWidth: 10, canvasHeight: 10, box: box, pixels: image, damage: nil, delay: .zero)
        count.add(first, nil)
        XCTAssertEqual(count.pixels, 400 + 50, "the sticker's 20² pixels, and half the source's 10²")
        var sourceDamage = RowDamage(rows: 10)
        sourceDamage.mark(row: 0, from: 0, to: 4)
        var stickerDamage = RowDamage(rows: 20)
        stickerDamage.mark(row: 0, from: 0, to: 8)
        stickerDamage.mark(row: 1, from: 0, to: 8)
        let second = CanvasFrame(canvasWidth: 10, canvasHeight: 10, box: box, pixels: image, damage: sourceDamage, delay: .zero)
        count.add(second, stickerDamage)
        XCTAssertEqual(count.pixels, 450 + 16 + 2)
        XCTAssertFalse(count.isOver)
        // 468 + 450 = 918 is within 1,000; the next whole frame passes it.
        count.add(first, nil)
        XCTAssertFalse(count.isOver)
        count.add(first, nil)
        XCTAssertTrue(count.isOver)
        XCTAssertFalse(count.isFarOver)
        XCTAssertEqual(count.error(frames: 9), .tooMuchChange(limit: 1_000, width: 20, height: 20, frame: 4, frames: 9))
        // Frames kept in their store are refused only past 4 times the limit; made again on every
        // walk, past the limit.
        let held = FittedFrames(side: 1, budget: .max)
        let replayed = FittedFrames(side: 1, budget: .max)
        replayed.giveUp()
        XCTAssertFalse(count.refuses(held))
        XCTAssertTrue(count.refuses(replayed))
        for _ in 0..<5 { count.add(first, nil) }
        XCTAssertEqual(count.pixels, 3_618)
        XCTAssertFalse(count.isFarOver, "within 4 × 1,000")
        count.add(first, nil)
        XCTAssertTrue(count.isFarOver)
        XCTAssertTrue(count.refuses(held))
        XCTAssertEqual(count.error(frames: 12), .tooMuchChange(limit: 1_000, width: 20, height: 20, frame: 4, frames: 12),
                       "the frame that passed the limit")
        // A first frame over the limit alone is not over (a still never is); the second is.
        var small = ChangeCount(Limits(maxChangedPixels: 100), width: 20, height: 20)
        small.add(first, nil)
        XCTAssertFalse(small.isOver)
        small.add(second, stickerDamage)
        XCTAssertTrue(small.isOver)
        XCTAssertEqual(small.error(frames: 2), .tooMuchChange(limit: 100, width: 20, height: 20, frame: 2, frames: 2))
    }

    /// `count` frames of a `side × side` black-and-white checkerboard whose squares swap every
    /// frame: every pixel changes, in few colours.
    static func checkers(frames count: Int, side: Int = 64) -> Animation {
        let frames = (0..<count).map { k in
            var image = Image(width: side, height: side)
            for y in 0..<side {
                for x in 0..<side {
                    let v: UInt8 = (x / 4 + y / 4 + k) % 2 == 0 ? 0 : 255
                    let i = (y * side + x) * 4
                    image.pixels[i] = v; image.pixels[i + 1] = v; image.pixels[i + 2] = v; image.pixels[i + 3] = 255
                }
            }
            return Frame(image: image, delay: Delay(milliseconds: 100))
        }
        return Animation(width: side, height: side, frames: frames)
    }

    func testASizeWhoseFramesChangeTooMuchIsRefusedUnlessTheyStayPackedInFewColours() throws {
        // Each frame changes every pixel: 300² + 2,048 = 92,048 at small (4 frames: 368,192, within
        // the limit), 408² + 2,048 = 168,512 at regular (over by frame 3), 618² + 2,048 at large
        // (over by frame 2); 4 times the limit is never reached.
        let limits = Limits(maxChangedPixels: 400_000)
        let options = ConversionOptions(sizes: [.small, .regular, .large], maxBytes: 2_000_000, effort: .fast, limits: limits)
        var tight = options
        tight.limits.maxMemory = 1_000_000   // every store gives up: the frames are made again on every walk
        let noise = Self.noise(frames: 4)
        let alone = StickerConverter.convert(noise, options: ConversionOptions(sizes: [.small], maxBytes: 2_000_000, effort: .fast))
        // Noise: refused past the limit, whether the frames stay in their stores (refused after
        // the histogram: thousands of colours) or are made again on every walk (refused as they
        // are fitted); small converts as it does alone.
        for run in [options, tight] {
            let result = StickerConverter.convert(noise, options: run)
            XCTAssertEqual(result.frames, 4)
            XCTAssertEqual(try result.outputs[0].result.get().bytes, try alone.outputs[0].result.get().bytes)
            XCTAssertEqual(result.outputs[1].result.failure, .tooMuchChange(limit: 400_000, width: 408, height: 408, frame: 3, frames: 4))
            XCTAssertEqual(result.outputs[2].result.failure, .tooMuchChange(limit: 400_000, width: 618, height: 618, frame: 2, frames: 4))
            XCTAssertEqual(result.outputs[2].result.failure?.description,
                           "too much change to convert in bounded time: by frame 2 of 4 its frames change more than 0.4 MP (pixels of the 618×618 sticker, the source's counting half; --max-changed-mp raises the limit)")
        }
        // A checkerboard changes as much in few colours: kept in their stores, its frames are
        // converted at every size; made again on every walk, refused past the limit.
        let checkers = Self.checkers(frames: 4)
        let held = StickerConverter.convert(checkers, options: options)
        let unlimited = StickerConverter.convert(checkers, options: ConversionOptions(sizes: [.small, .regular, .large], maxBytes: 2_000_000,
                                                                                      effort: .fast))
        for (k, output) in held.outputs.enumerated() {
            XCTAssertEqual(try output.result.get().bytes, try unlimited.outputs[k].result.get().bytes)
        }
        let replayed = StickerConverter.convert(checkers, options: tight)
        XCTAssertNoThrow(try replayed.outputs[0].result.get())
        XCTAssertEqual(replayed.outputs[2].result.failure, .tooMuchChange(limit: 400_000, width: 618, height: 618, frame: 2, frames: 4))
        // Past 4 times the limit, refused even kept in its store.
        var strict = options
        strict.limits.maxChangedPixels = 100_000
        XCTAssertEqual(StickerConverter.convert(checkers, options: strict).outputs[2].result.failure,
                       .tooMuchChange(limit: 100_000, width: 618, height: 618, frame: 2, frames: 4))
    }

    func testAPlatformStickerWhoseFramesChangeTooMuchIsRefusedOnceTheyAreMadeAgainOnEveryWalk() throws {
        // 600 frames of a dot walking round a 64×64 screen: the first frame alone is 512² +
        // 2,048, and each frame after it changes the dot's old and new place.
        let positions = (0..<600).map { k in (k % 64, (k / 64) % 64) }
        let data = MemoryBoundTests.gif(width: 64, height: 64, positions: positions)
        var options = ConversionOptions()
        options.target = .whatsapp
        options.limits.maxChangedPixels = 300_000
        // Held in the store: converted.
        let held = try PlatformFrames.fit(data, options: options, side: 512, box: nil, budget: 100_000_000)
        XCTAssertNil(held.refusal)
        XCTAssertFalse(held.store.replays)
        // Made again on every walk (a store of 300 KB): refused.
        let replayed = try PlatformFrames.fit(data, options: options, side: 512, box: nil, budget: 300_000)
        guard case let .tooMuchChange(limit, width, height, frame, frames)? = replayed.refusal else {
            return XCTFail("\(String(describing: replayed.refusal))")
        }
        XCTAssertEqual([limit, width, height, frames], [300_000, 512, 512, 600])
        XCTAssertGreaterThan(frame, 1)
        XCTAssertLessThan(frame, 600)
        // Through the converter, with the budget that makes the store give up. It fits only the
        // 300 frames WhatsApp keeps of the 24 s sped up to 10 s at 30 fps (`DelayRetiming`), so
        // the limit is passed later.
        let result = try PlatformConverter.convert(data, options: options, plan: MemoryPlan(options: options, available: 600_000))
        guard case let .tooMuchChange(_, _, _, convertedFrame, _)? = result.outputs[0].result.failure else {
            return XCTFail("\(result.outputs[0].result)")
        }
        XCTAssertEqual(result.outputs[0].result.failure,
                       .tooMuchChange(limit: 300_000, width: 512, height: 512, frame: convertedFrame, frames: 600))
        XCTAssertGreaterThan(convertedFrame, frame)
        XCTAssertLessThan(convertedFrame, 600)
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
