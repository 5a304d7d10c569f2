import ImageCore
import XCTest
@testable import StickerKit

/// A probe that stops early extrapolates the rest of its file from where a real encode of the
/// same frames put its bytes (`Probes.weights`), not from the pixels each frame changes.
final class ProbeWeightsTests: XCTestCase {
    /// 48 frames of 128²: in the first 12 a 32² patch of noise changes (few pixels, many bytes),
    /// in the other 36 a 64² block turns from one flat colour to another (many pixels, few
    /// bytes). By changed pixels, a quarter of the change is written a few frames after the
    /// noise, when most of the bytes are: the rest looks three times larger than it is.
    static func frontLoaded() -> FittedFrames {
        var rand = BudgetSearchTests.Rand(state: 9)
        let side = 128
        var image = Image(width: side, height: side)
        for y in 0..<side { for x in 0..<side { image[x, y] = RGBA(30, 60, 90, 255) } }
        var frames: [Frame] = []
        for f in 0..<48 {
            if f < 12 {
                for y in 8..<40 { for x in 8..<40 { image[x, y] = RGBA(rand.byte(), rand.byte(), rand.byte(), 255) } }
            } else {
                let block = f % 2 == 0 ? RGBA(220, 200, 40, 255) : RGBA(40, 160, 220, 255)
                for y in 60..<124 { for x in 60..<124 { image[x, y] = block } }
            }
            frames.append(Frame(image: image, delay: Delay(numerator: 1, denominator: 25)))
        }
        return FittedFrames(frames)
    }

    func probes(_ frames: FittedFrames) throws -> AnimationBudget.Probes {
        let clock = StageClock()
        let palettes = try AnimationBudget.Palettes(frames, clock: clock)
        return AnimationBudget.Probes(frames, timeline: AnimationTimeline(delays: frames.delays), palettes: palettes, loops: 0,
                                      indexedBudget: 1 << 26, maxBytes: 1 << 30, writable: 1 << 30, stopPast: 1 << 30,
                                      clock: clock)
    }

    func testAStoppingProbeIsNotPutOverWhenARealEncodeShowsWhereTheBytesLie() throws {
        let frames = Self.frontLoaded()
        let real = try probes(frames).probe(48, 1)
        XCTAssertNil(real.estimate)
        let limit = real.size + 100   // the file fits its limit

        // Precondition: by changed pixels alone (no real encode at this frame rate yet), the
        // probe is extrapolated past `projectedStop` times the limit and stopped as over.
        let alone = try probes(frames).probe(48, 1, stoppingPast: limit)
        XCTAssertNotNil(alone.estimate, "changed pixels put this animation's bytes late")
        XCTAssertGreaterThan(alone.size, Int(Double(limit) * AnimationBudget.projectedStop))

        // With a real encode of the same frames at another colour count, the probe runs to the
        // end: the same file as the encode made in full.
        let p = try probes(frames)
        let reference = p.probe(64, 1)
        XCTAssertNil(reference.estimate)
        XCTAssertEqual(p.weights(48, 1), reference.layout!.bytesByInputFrame, "the nearest real encode's bytes")
        let probe = p.probe(48, 1, stoppingPast: limit)
        XCTAssertNil(probe.estimate, "not stopped")
        XCTAssertEqual(probe.bytes, real.bytes)
    }

    /// Stopped past its limit, the probe's size is extrapolated along the real encode's bytes:
    /// near its real size, where changed pixels put it far over.
    func testAStoppedProbesSizeFollowsTheRealEncodesBytes() throws {
        let frames = Self.frontLoaded()
        let real = try probes(frames).probe(48, 1)
        let limit = real.size * 2 / 3   // the walk passes it before the end
        let p = try probes(frames)
        _ = p.probe(64, 1)
        let stopped = p.probe(48, 1, stoppingPast: limit)
        let estimate = try XCTUnwrap(stopped.estimate)
        XCTAssertEqual(Double(estimate), Double(real.size), accuracy: Double(real.size) * 0.15)
        let alone = try XCTUnwrap(try probes(frames).probe(48, 1, stoppingPast: limit).estimate)
        XCTAssertGreaterThan(Double(alone), Double(real.size) * 1.5, "changed pixels, for comparison")
    }

    /// With no real encode at the frame rate, the weights are the pixels each kept frame changed.
    func testWithoutARealEncodeTheWeightsAreTheChangedPixels() throws {
        let frames = Self.frontLoaded()
        let p = try probes(frames)
        let kept = AnimationTimeline(delays: frames.delays).kept(1).indices
        XCTAssertEqual(p.weights(48, 1), p.changedPixels(kept: kept))
        _ = p.probe(64, 2)   // another frame rate says nothing of this one
        XCTAssertEqual(p.weights(48, 1), p.changedPixels(kept: kept))
    }
}
