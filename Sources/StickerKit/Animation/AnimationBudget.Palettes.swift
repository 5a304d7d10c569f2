import ImageCore
import ImageQuantize

extension AnimationBudget {
    /// One histogram over every frame of the animation (made once, walking the frames by what
    /// changes), the palettes of any colour count made from it, and the mappers of the last few
    /// (each keeps its search structures and colour cache).
    final class Palettes {
        private let palettes: HistogramPalettes
        /// The palettes made so far, by colour count (a kilobyte each): one asked for again is
        /// not made again.
        private var made: [Int: Palette] = [:]
        /// The mappers of the colour counts asked for last, at most `keptMappers` of them.
        private var mappers: [Int: PaletteMapper] = [:]
        /// The colour counts of `mappers`, the one asked for least recently first.
        private var recent: [Int] = []
        private let clock: StageClock
        /// True when the frames hold at most `fewColours` colours (the histogram kept every one).
        let hasFewColours: Bool
        /// Few enough colours that remapping them is mostly the colour cache's hits: a 4-colour
        /// square moving over a 32² screen, enlarged to 618 px, holds 753 (its edges averaged),
        /// a band gradient scrolling 1,167; a gradient moving everywhere 262,144 or more.
        static let fewColours = 4_096
        /// Mappers kept at once. Each holds its nearest-colour lists (0.4 MB at 256 colours) and
        /// up to two colour-cache lanes (0.23 MB each), and a search asks about 1–15 colour counts
        /// on the animated corpus (more on long, hard timelines), so keeping every one let the
        /// search's memory grow with the counts it tried. A mapper asked for again after it went
        /// is made again from its kept palette, with a cold cache: the same remaps. At 2, the
        /// corpus at `--size all` took 3 % more CPU (palettes made again too); see NOTES.md.
        static let keptMappers = 6
        /// What one kept mapper holds at most: its nearest-colour lists (0.4 MB at 256 colours)
        /// and two colour-cache lanes (`Remapper.cacheBits`: 16 k entries of 12 bytes each).
        static let mapperBytes = 400_000 + 2 * (12 << 14)

        init(_ frames: FittedFrames, keepsPaintedAlpha: Bool = false, clock: StageClock) throws {
            self.clock = clock
            var histogram = Histogram()
            try clock.measure(\.quantize) { try histogram.add(frames: frames) }
            hasFewColours = histogram.isExact && histogram.distinctColors <= Self.fewColours
            palettes = clock.measure(\.quantize) { HistogramPalettes(histogram, keepsPaintedAlpha: keepsPaintedAlpha) }
        }

        /// The mapper of the palette of at most `n` colours.
        func mapper(_ n: Int) -> PaletteMapper {
            if let i = recent.firstIndex(of: n) { recent.remove(at: i) }
            recent.append(n)
            if let m = mappers[n] { return m }
            let p = palette(n)
            let m = clock.measure(\.quantize) { PaletteMapper(p) }
            mappers[n] = m
            while recent.count > Self.keptMappers { mappers[recent.removeFirst()] = nil }
            return m
        }

        /// The palette of at most `n` colours, made once (without its mapper).
        func palette(_ n: Int) -> Palette {
            if let p = made[n] { return p }
            let p = clock.measure(\.quantize) { palettes.palette(maxColors: n) }
            made[n] = p
            return p
        }

        /// Mappers held now (at most `keptMappers`).
        var mapperCount: Int { mappers.count }
    }
}
