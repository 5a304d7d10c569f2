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
        /// True when the frames hold at most `fewColours` colours (the histogram kept every one).
        let hasFewColours: Bool
        /// Few enough colours that remapping them is mostly the colour cache's hits: a 4-colour
        /// square moving over a 32² screen, enlarged to 618 px, holds 753 (its edges averaged),
        /// a band gradient scrolling 1,167; a gradient moving everywhere 262,144 or more.
        static let fewColours = 4_096

        init(_ frames: FittedFrames, keepsPaintedAlpha: Bool = false, clock: StageClock) throws {
            self.clock = clock
            var histogram = Histogram()
            try clock.measure(\.quantize) { try histogram.add(frames: frames) }
            hasFewColours = histogram.isExact && histogram.distinctColors <= Self.fewColours
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
