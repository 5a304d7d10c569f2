import ImageCore
import ImageDecoding
import PNGEncoding
import WebPEncoding
import XCTest
@testable import StickerKit

/// A platform sticker fits only the frames its retiming by delays keeps (`DelayRetiming`,
/// `PlatformFrames.fit(keeping:)`, `PlatformConverter.fitRetimed`): the same frames and the same
/// sticker as fitting every frame.
final class DelayRetimingTests: XCTestCase {
    /// 150 frames of random rectangles over a 48×40 screen, every disposal, shown for 10–50 ms
    /// (10 ms is shown as 100 ms): about 6 s.
    static func longGIF(seed: UInt64 = 7) -> [UInt8] {
        var r = BudgetSearchTests.Rand(state: seed)
        var frames: [(rect: PixelRect, disposal: Int, seed: UInt64)] = []
        var cs: [Int] = []
        for i in 0..<150 {
            let w = 1 + Int(r.next() % 20), h = 1 + Int(r.next() % 20)
            let rect = i == 0 ? PixelRect(x: 0, y: 0, width: 48, height: 40)
                : PixelRect(x: Int(r.next() % UInt64(48 - w)), y: Int(r.next() % UInt64(40 - h)), width: w, height: h)
            frames.append((rect, 1 + Int(r.next() % 3), r.next()))
            cs.append(1 + Int(r.next() % 5))
        }
        return MemoryBoundTests.gif(width: 48, height: 40, frames: frames, centiseconds: cs)
    }

    /// 120 frames of a square moving over a gradient, with a flickering corner, shown for
    /// 20–60 ms: about 4.8 s.
    static func movingFrames() -> (frames: [Image], delays: [Delay]) {
        var frames: [Image] = []
        var delays: [Delay] = []
        for k in 0..<120 {
            var image = Image(width: 40, height: 40)
            for y in 0..<40 {
                for x in 0..<40 {
                    let inSquare = (k % 30 <= x && x < k % 30 + 8) && (y >= 10 && y < 18)
                    let corner = x < 4 && y < 4 && k % 3 == 0
                    image[x, y] = inSquare ? RGBA(255, UInt8(k * 2), 0, 255)
                        : corner ? RGBA(0, 0, 255, 128)
                        : RGBA(UInt8(x * 6), UInt8(y * 6), 90, x < 36 ? 255 : 0)
                }
            }
            frames.append(image)
            delays.append(Delay(milliseconds: 20 + 10 * (k % 5)))
        }
        return (frames, delays)
    }

    static func options(_ target: StickerTarget) -> ConversionOptions {
        var o = ConversionOptions(effort: .fast)
        o.target = target
        return o
    }

    func testAFitOfSomeFramesGivesThemAsAFitOfEveryFrame() throws {
        let data = Self.longGIF()
        let options = Self.options(.whatsapp)
        // Held in the store, and made again on every walk (a store of 300 KB).
        for budget in [100_000_000, 300_000] {
            let whole = try PlatformFrames.fit(data, options: options, side: 512, box: nil, budget: budget)
            XCTAssertEqual(whole.stored, Array(0..<150))
            var r = BudgetSearchTests.Rand(state: 3)
            for keptSet: Set<Int> in [[0, 149], Set((1..<150).filter { _ in r.next() % 4 == 0 }), Set(stride(from: 5, to: 150, by: 7))] {
                let some = try PlatformFrames.fit(data, options: options, side: 512, box: nil, budget: budget, keeping: keptSet)
                XCTAssertEqual(some.stored, keptSet.sorted())
                XCTAssertEqual(some.delays, whole.delays, "every frame's delay is kept")
                XCTAssertEqual(some.store.replays, budget < 1_000_000)
                // In order, and out of order (a loop played twice).
                let picks = some.stored.map { PickedFrame(index: $0, delay: whole.delays[$0]) }
                for order in [picks, picks + picks.prefix(3)] {
                    var expected: [[UInt8]] = []
                    try whole.walk(order) { _, pixels in expected.append([UInt8](pixels)) }
                    var got: [[UInt8]] = []
                    try some.walk(order) { _, pixels in got.append([UInt8](pixels)) }
                    XCTAssertEqual(got.count, order.count)
                    XCTAssertTrue(got == expected, "frames \(keptSet.sorted()) at budget \(budget)")
                }
                // As a store of their own for Messages' searches: the same frames and damage.
                let fitted = try some.fitted(picks, budget: budget)
                var seen = 0
                try fitted.forEach { i, pixels, _ in
                    XCTAssertTrue([UInt8](pixels) == (try whole.images(picks, at: [i])[i]!.pixels))
                    seen += 1
                }
                XCTAssertEqual(seen, picks.count)
            }
        }
    }

    func testStickersOfLongAnimationsAreTheSameWhenOnlyTheKeptFramesAreFitted() throws {
        let moving = Self.movingFrames()
        let apng = try PNGEncoder.encodeAnimation(frames: moving.frames, delays: moving.delays, effort: .fast)
        let webp = try WebPEncoder.encodeAnimation(frames: moving.frames, delays: moving.delays, compression: .lossless)
        let cases: [(String, [UInt8], [StickerTarget])] = [
            ("gif", Self.longGIF(), [.whatsapp, .signal, .line, .telegram]),
            ("apng", apng, [.whatsapp, .signal, .line]),
            ("webp", webp, [.whatsapp, .signal, .discord]),
        ]
        for (name, data, targets) in cases {
            let outline = try XCTUnwrap(data.withUnsafeBytes { ImageOutline.read($0, everyFrame: true) })
            for target in targets {
                let options = Self.options(target)
                let what = "\(name) for \(target.name)"
                let kept = DelayRetiming.predictedFrames(storedDelays: outline.storedDelays, frameCount: outline.frameCount,
                                                         animated: true, target: target, tooLong: options.tooLong)
                // Discord (no caps) and LINE (its 4 s at 90 fps) keep every frame by delays.
                if ![StickerTarget.discord, .line].contains(target) {
                    let n = try XCTUnwrap(kept, what).count
                    XCTAssertLessThan(n, outline.frameCount, what)
                    // The prediction is what the decoded delays keep: the fit is not done twice.
                    let source = try PlatformConverter.fitRetimed(data, predicted: kept, animated: true, options: options,
                                                                  plan: MemoryPlan(options: options), clock: StageClock())
                    XCTAssertEqual(source.stored.count, n, what)
                }
                let plan = MemoryPlan(options: options)
                let fast = try PlatformConverter.convert(data, options: options, plan: plan)
                let whole = try PlatformConverter.convert(data, options: options, plan: plan, predicting: false)
                let a = try fast.outputs[0].result.get(), b = try whole.outputs[0].result.get()
                XCTAssertTrue(a.bytes == b.bytes, "\(what): the stickers differ")
                XCTAssertEqual(a.report, b.report, what)
                XCTAssertEqual(fast.warnings, whole.warnings, what)
            }
        }
    }

    func testAPredictionThatMissesAFrameTheDecodeKeepsIsFittedWhole() throws {
        let data = Self.longGIF()
        let options = Self.options(.signal)
        // Frame 0 only: the decoded delays keep dozens.
        let source = try PlatformConverter.fitRetimed(data, predicted: [0], animated: true, options: options,
                                                      plan: MemoryPlan(options: options), clock: StageClock())
        XCTAssertEqual(source.stored, Array(0..<150))
        // Frames past the last one decoded: every frame.
        let past = try PlatformConverter.fitRetimed(data, predicted: [400, 401], animated: true, options: options,
                                                    plan: MemoryPlan(options: options), clock: StageClock())
        XCTAssertEqual(past.stored, Array(0..<150))
        // A prediction that keeps more than needed is used as it is.
        let kept = try XCTUnwrap(DelayRetiming.predictedFrames(storedDelays: source.delays, frameCount: 150, animated: true,
                                                               target: .signal, tooLong: .speedup))
        let dropped = Set(0..<150).subtracting(kept).sorted()
        XCTAssertGreaterThan(dropped.count, 10)
        let more = Set(0..<150).subtracting(dropped.prefix(2))
        let wider = try PlatformConverter.fitRetimed(data, predicted: more, animated: true, options: options,
                                                     plan: MemoryPlan(options: options), clock: StageClock())
        XCTAssertEqual(wider.stored, more.sorted())
    }

    func testTooLongToFailFitsOnlyTheFirstFrame() throws {
        let data = Self.longGIF()
        var options = Self.options(.signal)
        options.tooLong = .fail
        let outline = try XCTUnwrap(data.withUnsafeBytes { ImageOutline.read($0, everyFrame: true) })
        XCTAssertEqual(DelayRetiming.predictedFrames(storedDelays: outline.storedDelays, frameCount: outline.frameCount,
                                                     animated: true, target: .signal, tooLong: .fail), [0])
        let result = try PlatformConverter.convert(data, options: options, plan: MemoryPlan(options: options))
        guard case .failure(.tooLong(_, let limit, _)) = result.outputs[0].result else {
            return XCTFail("\(result.outputs[0].result)")
        }
        XCTAssertEqual(limit, 3_000)
    }
}
