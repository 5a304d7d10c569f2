import Foundation
import ImageCore
import XCTest
@testable import StickerKit

/// The fitted frames of an animation are kept as what changed (`FrameStore`), deflated past a
/// share of the memory budget, or made again on each walk once even that would pass it; the
/// bytes written must not depend on which. Tests force each tier with the memory plan.
final class StreamingConversionTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixture(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    /// Plans that keep nothing as it comes (every span deflated), keep nothing at all (every
    /// walk decodes and fits again), and make larger sizes leave the shared walk.
    static func plans(_ options: ConversionOptions) -> [(String, MemoryPlan)] {
        var deflated = MemoryPlan(options: options)
        deflated.uncompressedShare = 0
        var replayed = MemoryPlan(options: options)
        replayed.fittedShare = 0
        // A share passed after the first frame: larger sizes leave the shared walk and fill
        // their stores in walks of their own.
        var deferred = MemoryPlan(options: options)
        deferred.uncompressedShare = 400_000 / Double(deferred.fittedFrames)
        return [("deflated", deflated), ("replayed", replayed), ("deferred", deferred)]
    }

    func assertTiersChangeNothing(_ path: String, _ options: ConversionOptions, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = try Self.fixture(path)
        let whole = try StickerConverter.convert(bytes, options: options)
        for (tier, plan) in Self.plans(options) {
            let what = "\(path) trim \(options.trim), \(tier)"
            let other = try StickerConverter.convert(bytes, options: options, plan: plan)
            XCTAssertEqual(other.format, whole.format, what, file: file, line: line)
            XCTAssertEqual([other.width, other.height, other.frames], [whole.width, whole.height, whole.frames], what,
                           file: file, line: line)
            XCTAssertEqual(other.warnings, whole.warnings, what, file: file, line: line)
            XCTAssertEqual(other.outputs.map(\.size), whole.outputs.map(\.size), what, file: file, line: line)
            for (s, w) in zip(other.outputs, whole.outputs) {
                switch (s.result, w.result) {
                case (.success(let a), .success(let b)):
                    XCTAssertTrue(a.bytes == b.bytes, "\(what) at \(s.size): output bytes differ", file: file, line: line)
                    XCTAssertEqual(a.report, b.report, "\(what) at \(s.size)", file: file, line: line)
                case (.failure(let a), .failure(let b)):
                    XCTAssertEqual(a, b, what, file: file, line: line)
                default:
                    XCTFail("\(what) at \(s.size): \(s.result) vs \(w.result)", file: file, line: line)
                }
            }
        }
    }

    func testEveryStoreTierGivesTheSameBytes() throws {
        // Two sizes, with and without trim. Fast settings: the search is not under test.
        func options(trim: Bool) -> ConversionOptions {
            ConversionOptions(sizes: [.small, .regular], trim: trim, maxBytes: 60_000, effort: .fast, maxColors: 32)
        }
        try assertTiersChangeNothing("gif/cogs_small_transparent.gif", options(trim: false))
        try assertTiersChangeNothing("gif/cogs_small_transparent.gif", options(trim: true))
        try assertTiersChangeNothing("webp/ring_200_6f.webp", options(trim: false))
        try assertTiersChangeNothing("png/maneki_neko_palette_3f.apng", options(trim: true))
    }

    /// A store walk rebuilds every frame exactly and reports what changed: random frames with
    /// random damage, kept as they come and deflated.
    func testFrameStoreGivesBackItsFrames() throws {
        var rand = BudgetSearchTests.Rand(state: 9)
        let side = 37
        var frames: [[UInt8]] = [(0..<(side * side * 4)).map { _ in rand.byte() }]
        var damages: [RowDamage] = []
        for _ in 1..<12 {
            var next = frames.last!
            var d = RowDamage(rows: side)
            for _ in 0..<Int(rand.byte() % 6) {
                let y = Int(rand.byte()) % side, x0 = Int(rand.byte()) % side, x1 = min(side, x0 + 1 + Int(rand.byte()) % 9)
                for x in x0..<x1 { for c in 0..<4 { next[(y * side + x) * 4 + c] = rand.byte() } }
                d.mark(row: y, from: x0, to: x1)
            }
            frames.append(next)
            damages.append(d)
        }
        // Flat frames too, whose spans are packed as runs.
        let flat = frames.indices.map { i in [UInt8]((0..<(side * side)).flatMap { p -> [UInt8] in p % side < 5 + i ? [9, 9, 9, 255] : [0, 0, 0, 0] }) }
        let flatDamage = (1..<flat.count).map { _ in RowDamage.all(width: side, rows: side) }
        for (frames, damages) in [(frames, damages), (flat, flatDamage)] {
        for uncompressed in [Int.max, 0] {
            let store = FrameStore(width: side, height: side, bytesPerPixel: 4, uncompressed: uncompressed)
            for (i, f) in frames.enumerated() { f.withUnsafeBytes { store.append($0, damage: i == 0 ? nil : damages[i - 1]) } }
            var seen = 0
            try store.forEach { i, samples, damage in
                XCTAssertEqual([UInt8](samples), frames[i], "frame \(i)")
                if i > 0 { XCTAssertEqual(damage, damages[i - 1], "frame \(i)") } else { XCTAssertNil(damage) }
                seen += 1
            }
            XCTAssertEqual(seen, frames.count)
            if uncompressed == 0 { XCTAssertLessThan(store.bytes, frames.count * side * side * 4) }
        }
        }
    }

    /// The plan's parts leave room in the budget for what it does not count (the encoders'
    /// buffers); Messages' stores take more of it than the other platforms', whose encoders
    /// hold frames of their own. (A budget whose shares hold the search's floor and its
    /// histogram: below that, `SmallBudgetTests`.)
    func testThePlanLeavesRoomForWhatItDoesNotCount() {
        for target in StickerTarget.all {
            var options = ConversionOptions(sizes: [.small, .regular, .large])
            options.target = target
            let plan = MemoryPlan(options: options, available: 400_000_000)
            XCTAssertEqual(plan.searchExcess, 0)
            let search = plan.search(side: 618)
            let parts = plan.fittedFrames + search.indexed + search.samples
            XCTAssertLessThanOrEqual(parts, 300_000_000, "\(target): at most three quarters of the budget")
            XCTAssertEqual(plan.fittedShare, target.isMessages ? MemoryPlan.messagesFittedShare : MemoryPlan.platformFittedShare)
        }
        XCTAssertGreaterThan(MemoryPlan.messagesFittedShare, MemoryPlan.platformFittedShare)
    }

    /// Sizes converted together share the fitted frames' budget: a size may pass its own part
    /// while the others leave room, and when the total passes the budget the size furthest past
    /// its part gives up its store, handing its bytes back.
    func testSizesShareTheFittedFramesBudget() throws {
        var plan = MemoryPlan(options: ConversionOptions(sizes: [.small, .large]), available: 25_000_000)
        plan.fittedShare = 0.4
        plan.uncompressedShare = 1
        plan.searchExcess = 0   // the stores alone
        XCTAssertEqual(plan.fittedFrames, 10_000_000)
        let largePart = plan.fittedPart(side: 618, sizes: [.small, .large])
        XCTAssertEqual(largePart, 10_000_000 * 618 * 618 / (300 * 300 + 618 * 618))
        let stores = SizeStores(plan: plan, sizes: [.small, .large])
        // A canvas as large as the largest size: no size leaves the walk (see the next test).
        stores.add(side: 300, canvasPixels: 618 * 618)
        stores.add(side: 618, canvasPixels: 618 * 618)
        let still = Image(width: 300, height: 300)
        // Noise: spans that do not pack, so the bytes held are the frames'.
        var rand = BudgetSearchTests.Rand(state: 3)
        let moving = Image(width: 618, height: 618, pixels: (0..<(618 * 618 * 4)).map { _ in rand.byte() })
        var frame = 0
        // The small size never changes; the large one changes everywhere on every frame.
        func next() {
            stores.frames[0].append(still, damage: frame == 0 ? nil : RowDamage(rows: 300), delay: Delay(centiseconds: 10))
            stores.frames[1].append(moving, damage: frame == 0 ? nil : .all(width: 618, rows: 618), delay: Delay(centiseconds: 10))
            stores.settle()
            frame += 1
        }
        while stores.frames[1].bytes <= largePart && frame < 20 { next() }
        // Past its own part, within the budget: both stores stay.
        XCTAssertFalse(stores.frames[0].replays)
        XCTAssertFalse(stores.frames[1].replays)
        XCTAssertLessThanOrEqual(stores.bytes, 10_000_000)
        while !stores.frames[1].replays && frame < 20 { next() }
        XCTAssertTrue(stores.frames[1].replays, "the size furthest past its part gives up")
        XCTAssertFalse(stores.frames[0].replays, "a size within its part keeps its store")
        XCTAssertEqual(stores.bytes, stores.frames[0].bytes, "the store given up hands its bytes back")
        XCTAssertEqual(stores.frames[1].count, frame, "frames are still counted once given up")
    }

    /// Frames much larger than the source's canvas: once the stores together pass the
    /// uncompressed share, the largest size leaves the shared walk instead of being packed, and
    /// later fills a store of its own with the share to itself.
    func testLargeSizesOfSmallCanvasesLeaveTheSharedWalk() throws {
        var plan = MemoryPlan(options: ConversionOptions(sizes: [.small, .regular, .large]), available: 25_000_000)
        plan.uncompressedShare = 0.5
        plan.searchExcess = 0   // the stores alone
        let sizes: [StickerSize] = [.small, .regular, .large]
        func frames(_ side: Int, _ seed: UInt64) -> Image {
            var rand = BudgetSearchTests.Rand(state: seed)
            return Image(width: side, height: side, pixels: (0..<(side * side * 4)).map { _ in rand.byte() })
        }
        for (canvas, leaves) in [(100 * 100, true), (600 * 600, false)] {
            let stores = SizeStores(plan: plan, sizes: sizes)
            for size in sizes { stores.add(side: size.pixels, canvasPixels: canvas) }
            let images = sizes.map { frames($0.pixels, UInt64($0.pixels)) }
            var frame = 0
            while frame < 12 {
                for k in sizes.indices where stores.isFilling(k) {
                    stores.frames[k].append(images[k], damage: frame == 0 ? nil : .all(width: sizes[k].pixels, rows: sizes[k].pixels),
                                            delay: Delay(centiseconds: 10))
                }
                stores.settle()
                frame += 1
            }
            let what = "canvas of \(canvas) pixels"
            XCTAssertTrue(stores.isFilling(0), what)
            XCTAssertEqual(stores.isFilling(2), !leaves, what)
            XCTAssertEqual(stores.frames[0].count, 12, what)
            if leaves {
                XCTAssertEqual(stores.frames[2].count, 0, "\(what): the size that left holds nothing")
                XCTAssertLessThanOrEqual(stores.bytes, plan.fittedFrames, what)
                stores.release(0)
                stores.release(1)
                let own = stores.refill(2)
                XCTAssertTrue(stores.isFilling(2) && !stores.isFilling(0), what)
                XCTAssertEqual(own.count, 0, what)
                XCTAssertTrue(own === stores.frames[2], what)
            } else {
                XCTAssertEqual(stores.frames[2].count, 12, what)
            }
        }
    }

    func testDecodingErrorsStayAndNoSizesIsNoWork() throws {
        let cut = try Self.fixture("broken/truncated_gif_40pct.gif")
        XCTAssertThrowsError(try StickerConverter.convert(cut, options: ConversionOptions(sizes: [.small], trim: true))) {
            XCTAssertTrue($0 is ImageError)
        }
        let none = try StickerConverter.convert(try Self.fixture("gif/cogs_small_transparent.gif"), options: ConversionOptions(sizes: []))
        XCTAssertEqual(none.frames, 5)
        XCTAssertTrue(none.outputs.isEmpty)
    }
}
