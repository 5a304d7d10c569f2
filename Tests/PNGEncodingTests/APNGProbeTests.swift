import ImageCore
import XCTest
@testable import PNGEncoding

/// `PNGEncoder.probeAnimation`: the `.fast` file when it stays under `stopPast`, else the size
/// extrapolated from the frames it wrote.
final class APNGProbeTests: XCTestCase {
    private static func sequence(_ frames: [IndexedImage]) -> ArrayFrames {
        ArrayFrames(width: frames[0].width, height: frames[0].height, bytesPerPixel: 1, frames: frames.map(\.indices))
    }

    private static func used(_ frames: [IndexedImage]) -> [Bool] {
        var used = [Bool](repeating: false, count: 256)
        for f in frames { for i in f.indices { used[Int(i)] = true } }
        return used
    }

    /// Bytes of the `.fast` file of `frames`, the size a probe estimates.
    private static func fastSize(_ frames: [IndexedImage], palette: [RGBA], delays: [Delay]) throws -> Int {
        try PNGEncoder.encodeAnimationWithLayout(frames: sequence(frames), palette: palette, used: used(frames), delays: delays,
                                                 effort: .fast, alwaysAnimated: true).bytes.count
    }

    /// `count` frames of noise over `palette`: every pixel of rows `changing` changes each
    /// frame (all rows when nil), so every frame costs about the same per changed pixel.
    private static func noise(width: Int, height: Int, count: Int, palette: [RGBA], changing: [Range<Int>]? = nil) -> [IndexedImage] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: (state >> 33) % UInt64(palette.count))
        }
        var frames: [IndexedImage] = []
        var indices = (0..<(width * height)).map { _ in next() }
        for n in 0..<count {
            if n > 0 {
                for y in changing?[n] ?? 0..<height {
                    for x in 0..<width { indices[y * width + x] = next() }
                }
            }
            frames.append(IndexedImage(width: width, height: height, palette: palette, indices: indices))
        }
        return frames
    }

    func testUnderTheLimitItIsTheFastFile() throws {
        for a in APNGLayoutTests.animations() {
            let fast = try PNGEncoder.encodeAnimationWithLayout(frames: Self.sequence(a.frames), palette: a.frames[0].palette,
                                                                used: Self.used(a.frames), delays: a.delays, loopCount: 1,
                                                                effort: .fast, alwaysAnimated: true)
            let probe = try PNGEncoder.probeAnimation(frames: Self.sequence(a.frames), palette: a.frames[0].palette,
                                                      used: Self.used(a.frames), delays: a.delays, loopCount: 1,
                                                      alwaysAnimated: true, stopPast: fast.bytes.count)
            guard case .file(let bytes, let layout) = probe else { return XCTFail("\(a.name): stopped at its own size") }
            XCTAssertEqual(bytes, fast.bytes, a.name)
            XCTAssertEqual(layout, fast.layout, a.name)
        }
    }

    func testFarOverItStopsWithTheExtrapolatedSize() throws {
        let palette = TestImages.palette(200, translucent: false, seed: 4)
        let frames = Self.noise(width: 48, height: 40, count: 30, palette: palette)
        let delays = [Delay](repeating: Delay(milliseconds: 40), count: frames.count)
        let real = try Self.fastSize(frames, palette: palette, delays: delays)
        for weights in [[], [0] + [Int](repeating: 48 * 40, count: frames.count - 1)] {
            let probe = try PNGEncoder.probeAnimation(frames: Self.sequence(frames), palette: palette, used: Self.used(frames),
                                                      delays: delays, alwaysAnimated: true, stopPast: real / 3, weights: weights)
            guard case .over(let estimate) = probe else { return XCTFail("a file three times over its limit was written whole") }
            XCTAssertEqual(Double(estimate) / Double(real), 1, accuracy: 0.03, "weights \(weights.count)")
        }
    }

    /// Frames that change less and less: by frames alone the first frames' cost is extrapolated
    /// to the rest; by the pixels that changed, the estimate follows them.
    func testWeightsFollowWhatChanges() throws {
        let palette = TestImages.palette(200, translucent: false, seed: 2)
        let (width, height, count) = (48, 40, 30)
        let rows = (0..<count).map { n in 0..<(n < 10 ? height : 4) }
        let frames = Self.noise(width: width, height: height, count: count, palette: palette, changing: rows)
        let delays = [Delay](repeating: Delay(milliseconds: 40), count: count)
        let real = try Self.fastSize(frames, palette: palette, delays: delays)
        let weights = [0] + rows.dropFirst().map { $0.count * width }
        func estimate(_ weights: [Int]) throws -> Int {
            guard case .over(let e) = try PNGEncoder.probeAnimation(frames: Self.sequence(frames), palette: palette,
                                                                    used: Self.used(frames), delays: delays, alwaysAnimated: true,
                                                                    stopPast: real / 2, weights: weights) else {
                XCTFail("not stopped")
                return 0
            }
            return e
        }
        let byFrames = try estimate([]), byPixels = try estimate(weights)
        XCTAssertGreaterThan(Double(byFrames) / Double(real), 1.5)
        XCTAssertEqual(Double(byPixels) / Double(real), 1, accuracy: 0.1)
    }

    /// With `projectedPast`, a probe stops once a quarter of its frames' weight is written and
    /// the extrapolated file passes it, long before the hard limit; one whose file stays under
    /// it is the same `.fast` file as without.
    func testAProjectionPastItsLimitStopsOnceAQuarterIsWritten() throws {
        let palette = TestImages.palette(200, translucent: false, seed: 4)
        let frames = Self.noise(width: 48, height: 40, count: 40, palette: palette)
        let delays = [Delay](repeating: Delay(milliseconds: 40), count: frames.count)
        let real = try Self.fastSize(frames, palette: palette, delays: delays)
        for weights in [[], [0] + [Int](repeating: 48 * 40, count: frames.count - 1)] {
            // The hard limit alone (at nine tenths of the file) stops late, with a close estimate.
            let late = try PNGEncoder.probeAnimation(frames: Self.sequence(frames), palette: palette, used: Self.used(frames),
                                                     delays: delays, alwaysAnimated: true, stopPast: real * 9 / 10, weights: weights)
            guard case .over(let lateEstimate) = late else { return XCTFail("not stopped by the hard limit") }
            XCTAssertEqual(Double(lateEstimate) / Double(real), 1, accuracy: 0.03)
            // A projection past half the file stops at a quarter of the frames: the frames walked
            // then are counted by a sequence that says how far the walk went.
            let counting = CountingFrames(Self.sequence(frames))
            let early = try PNGEncoder.probeAnimation(frames: counting, palette: palette, used: Self.used(frames), delays: delays,
                                                      alwaysAnimated: true, stopPast: real * 9 / 10, projectedPast: real / 2,
                                                      weights: weights)
            guard case .over(let estimate) = early else { return XCTFail("a file twice its projection limit was written on") }
            XCTAssertEqual(Double(estimate) / Double(real), 1, accuracy: 0.05)
            XCTAssertLessThanOrEqual(counting.walked, frames.count / 4 + 2, "weights \(weights.count)")
            // Under the projection limit: the very file.
            guard case .file(let bytes, _) = try PNGEncoder.probeAnimation(
                frames: Self.sequence(frames), palette: palette, used: Self.used(frames), delays: delays, alwaysAnimated: true,
                stopPast: real * 2, projectedPast: real * 2, weights: weights) else { return XCTFail("stopped under its limits") }
            XCTAssertEqual(bytes.count, real)
        }
    }

    /// A frame sequence that counts the frames its walks deliver.
    private final class CountingFrames: FrameSequence {
        let base: ArrayFrames
        private(set) var walked = 0
        init(_ base: ArrayFrames) { self.base = base }
        var width: Int { base.width }
        var height: Int { base.height }
        var bytesPerPixel: Int { base.bytesPerPixel }
        var count: Int { base.count }
        func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
            try base.forEach { i, samples, damage in
                walked = max(walked, i + 1)
                try body(i, samples, damage)
            }
        }
    }
}
