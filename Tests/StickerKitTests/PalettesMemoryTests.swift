import ImageCore
import ImageQuantize
import XCTest
@testable import StickerKit

/// `AnimationBudget.Palettes`: the search asks about many colour counts, and it keeps the mappers
/// of the last few only (each holds its nearest-colour lists and colour caches). A mapper made
/// again, after its count was dropped, has the same palette and remaps every frame the same.
final class PalettesMemoryTests: XCTestCase {
    func testMappersOfEarlierColourCountsGoAndComeBackTheSame() throws {
        let a = AnimationBudgetTests.animation(frames: 12, side: 48, delay: Delay(numerator: 1, denominator: 12), loops: 0)
        let fitted = FittedFrames(a.frames)
        let palettes = try AnimationBudget.Palettes(fitted, clock: StageClock())
        let counts = [256, 64, 128, 96, 80, 72, 68, 66, 65, 40, 20, 10]
        XCTAssertGreaterThan(counts.count, AnimationBudget.Palettes.keptMappers)
        var first: [Int: (palette: [RGBA], indices: [[UInt8]])] = [:]
        for n in counts {
            let m = palettes.mapper(n)
            first[n] = (m.palette.colors, a.frames.map { m.remapUndithered($0.image).image.indices })
            XCTAssertLessThanOrEqual(palettes.mapperCount, AnimationBudget.Palettes.keptMappers, "after \(n) colours")
        }
        XCTAssertEqual(palettes.mapperCount, AnimationBudget.Palettes.keptMappers)
        // The earliest counts went first; asked for again, they map every frame as before.
        for n in counts.prefix(4) {
            let m = palettes.mapper(n)
            XCTAssertEqual(m.palette.colors, first[n]!.palette, "\(n) colours")
            XCTAssertEqual(a.frames.map { m.remapUndithered($0.image).image.indices }, first[n]!.indices, "\(n) colours")
            XCTAssertLessThanOrEqual(palettes.mapperCount, AnimationBudget.Palettes.keptMappers)
        }
    }
}
