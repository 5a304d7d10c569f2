import ImageCore
import XCTest
@testable import StickerKit

/// A timeline's kept frames over fitted frames that are made again on every walk: the first
/// whole walk keeps copies while they fit the fitted frames' room, and later walks read them,
/// the same frames with the same damage, without walking the source again.
final class KeptFramesTests: XCTestCase {
    /// `count` frames of `side²` noise (every pixel changes), over fitted frames whose store
    /// holds at most `budget` bytes, made again on every walk; `replays` counts those walks.
    private final class Source {
        let frames: [Image]
        let fitted: FittedFrames
        var replays = 0

        init(count: Int, side: Int, budget: Int) {
            var rng = SystemRandomNumberGenerator()
            frames = (0..<count).map { _ in
                Image(width: side, height: side, pixels: (0..<(side * side * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) })
            }
            fitted = FittedFrames(side: side, budget: budget)
            for (i, f) in frames.enumerated() {
                fitted.append(f, damage: i == 0 ? nil : RowDamage.between(f, frames[i - 1]), delay: Delay(milliseconds: 100))
            }
            let frames = self.frames
            fitted.replaying { [unowned self] _, body in
                replays += 1
                for (i, f) in frames.enumerated() {
                    try f.pixels.withUnsafeBytes { try body(i, $0, i == 0 ? nil : RowDamage.between(f, frames[i - 1])) }
                }
            }
        }

        func kept(_ indices: [Int], beside: Int = 0) -> KeptFrames {
            let fitted = self.fitted
            return KeptFrames(base: fitted, indices: indices,
                              copies: .init(make: { fitted.storeForCopies() }, fits: { fitted.fitsUnpacked(beside: beside) }))
        }
    }

    private struct Walked: Equatable {
        var pixels: [[UInt8]] = []
        var damage: [RowDamage?] = []
    }

    private func walk(_ frames: any FrameSequence) throws -> Walked {
        var w = Walked()
        try frames.forEach { _, samples, damage in
            w.pixels.append([UInt8](samples))
            w.damage.append(damage)
        }
        return w
    }

    /// The same walk without copies: what the kept frames must be.
    private func expected(_ source: Source, _ indices: [Int]) throws -> Walked {
        try walk(KeptFrames(base: source.fitted, indices: indices))
    }

    func testLaterWalksReadTheCopiesOfTheFirst() throws {
        // 10 frames of 16² (1 KB each) over an 8,000-byte store: the store gives up, and 3 kept
        // frames fit the 4,000 bytes of its room kept unpacked.
        let source = Source(count: 10, side: 16, budget: 8_000)
        XCTAssertTrue(source.fitted.replays)
        let indices = [0, 4, 8]
        let want = try expected(source, indices)
        source.replays = 0
        let kept = source.kept(indices)
        XCTAssertEqual(try walk(kept), want)
        XCTAssertTrue(kept.isStored)
        XCTAssertEqual(try walk(kept), want)
        XCTAssertEqual(try walk(kept), want)
        XCTAssertEqual(source.replays, 1, "later walks decoded the frames again")
        XCTAssertEqual(want.pixels, indices.map { source.frames[$0].pixels })
        XCTAssertLessThanOrEqual(source.fitted.room, 8_000 - 3 * 16 * 16 * 4, "the copies are not counted in the room")
    }

    func testCopiesThatDoNotFitAreNotKeptAndNotTriedAgain() throws {
        let source = Source(count: 10, side: 16, budget: 8_000)
        let indices = [0, 1, 2, 4, 5, 6, 8]
        let want = try expected(source, indices)
        source.replays = 0
        let kept = source.kept(indices)
        for _ in 0..<3 { XCTAssertEqual(try walk(kept), want) }
        XCTAssertFalse(kept.isStored)
        XCTAssertEqual(source.replays, 3)
        XCTAssertEqual(source.fitted.room, 8_000, "a copy that did not fit still holds bytes")
    }

    func testWhatOthersHoldInTheRoomIsLeftToThem() throws {
        let source = Source(count: 10, side: 16, budget: 8_000)
        let kept = source.kept([0, 4, 8], beside: 2_500)
        _ = try walk(kept)
        XCTAssertFalse(kept.isStored, "the copies took room others hold")
    }

    func testAWalkEndedEarlyKeepsNothingAndTheNextWholeOneDoes() throws {
        struct Stop: Error {}
        let source = Source(count: 10, side: 16, budget: 8_000)
        let indices = [0, 4, 8]
        let want = try expected(source, indices)
        let kept = source.kept(indices)
        XCTAssertThrowsError(try kept.forEach { i, _, _ in if i == 1 { throw Stop() } })
        XCTAssertFalse(kept.isStored)
        XCTAssertEqual(source.fitted.room, 8_000)
        XCTAssertEqual(try walk(kept), want)
        XCTAssertTrue(kept.isStored)
        XCTAssertEqual(try walk(kept), want)
    }

    func testStoredFittedFramesAreNotCopied() throws {
        let source = Source(count: 4, side: 16, budget: 1 << 20)
        XCTAssertFalse(source.fitted.replays)
        let kept = source.kept([0, 2])
        XCTAssertEqual(try walk(kept), try expected(source, [0, 2]))
        XCTAssertFalse(kept.isStored)
    }
}
