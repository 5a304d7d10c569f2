import ImageCore
import ImageQuantize

extension AnimationBudget {
    /// One histogram over every frame of the animation (made once, walking the frames by what
    /// changes), the palettes of any colour count made from it, and their mappers (each keeps
    /// its search structures and colour cache).
    final class Palettes {
        private let palettes: HistogramPalettes
        private var mappers: [Int: PaletteMapper] = [:]
        private let clock: StageClock

        init(_ frames: FittedFrames, keepsPaintedAlpha: Bool = false, clock: StageClock) throws {
            self.clock = clock
            var histogram = Histogram()
            try clock.measure(\.quantize) { try histogram.add(frames: frames) }
            palettes = clock.measure(\.quantize) { HistogramPalettes(histogram, keepsPaintedAlpha: keepsPaintedAlpha) }
        }

        /// The mapper of the palette of at most `n` colours.
        func mapper(_ n: Int) -> PaletteMapper {
            if let m = mappers[n] { return m }
            let m = clock.measure(\.quantize) { PaletteMapper(palettes.palette(maxColors: n)) }
            mappers[n] = m
            return m
        }
    }
}
