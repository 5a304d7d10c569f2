import XCTest
import ImageCore
@testable import ImageQuantize

/// Each fast kernel against a plain reference on seeded random data.
final class KernelTests: XCTestCase {
    func testErrorSpaceDistanceIsTheBlackWhiteError() {
        var rng = SeededRandom(seed: 21)
        for _ in 0..<5000 {
            let p = RGBA(rng.byte(), rng.byte(), rng.byte(), rng.below(4) == 0 ? 255 : rng.byte())
            let q = RGBA(rng.byte(), rng.byte(), rng.byte(), rng.below(4) == 0 ? 0 : rng.byte())
            let direct = DirectMetric.error(p, q)
            let fast = Double(ErrorSpace.distance2(ErrorSpace.point(p), ErrorSpace.point(q)))
            XCTAssertEqual(fast, direct, accuracy: direct * 1e-4 + 1e-2, "\(p) vs \(q)")
        }
        // Colour under alpha 0 is invisible.
        XCTAssertEqual(ErrorSpace.point(RGBA(255, 7, 99, 0)), ErrorSpace.point(RGBA(0, 0, 0, 0)))
    }

    func testColourRoundTripsThroughItsPoint() {
        var rng = SeededRandom(seed: 22)
        for a in 1...255 {
            for _ in 0..<20 {
                let c = RGBA(rng.byte(), rng.byte(), rng.byte(), UInt8(a))
                XCTAssertEqual(ErrorSpace.color(of: ErrorSpace.point(c), opaque: false), c)
            }
        }
        XCTAssertEqual(ErrorSpace.color(of: ErrorSpace.point(RGBA(9, 9, 9, 0)), opaque: false), RGBA(0, 0, 0, 0))
        // Opaque forcing keeps the colour seen over grey.
        XCTAssertEqual(ErrorSpace.color(of: ErrorSpace.point(RGBA(10, 200, 30, 254)), opaque: true).a, 255)
    }

    func testNearestSearchMatchesLinearScan() {
        var rng = SeededRandom(seed: 23)
        for n in [1, 2, 3, 5, 17, 64, 255, 256] {
            var entries = (0..<n).map { _ in ErrorSpace.point(RGBA(rng.byte(), rng.byte(), rng.byte(), rng.byte())) }
            if n > 4 { entries[3] = entries[1] } // duplicates must not confuse it
            if n > 8 { entries[7] = ErrorSpace.point(RGBA(0, 0, 0, 0)) }
            let search = NearestColorSearch(entries)
            for _ in 0..<2000 {
                // Points both inside the gamut and pushed outside it, as dithering does.
                var x = rng.below(10) == 0 ? entries[rng.below(n)] // exact hits, including the duplicate pair
                                           : ErrorSpace.point(RGBA(rng.byte(), rng.byte(), rng.byte(), rng.byte()))
                if rng.below(3) == 0 { x += SIMD4<Float>(Float(rng.jitter(60)), Float(rng.jitter(60)), Float(rng.jitter(60)), Float(rng.jitter(60))) }
                let fast = search.view.nearest(x, guess: rng.below(n))
                let slow = search.nearestByScan(x)
                XCTAssertEqual(fast.index, slow.index, "n=\(n)")
                XCTAssertEqual(fast.distance2, slow.distance2, accuracy: 1e-3, "n=\(n)")
                XCTAssertEqual(ErrorSpace.distance2(x, entries[fast.index]), fast.distance2, accuracy: 1e-3)
            }
        }
    }

    func testGroupedWalkGivesTheListWalksAnswer() {
        var rng = SeededRandom(seed: 29)
        // Coarse grids make many equal distances, so the lowest-index rule decides often.
        for (n, step) in [(49, 64), (64, 32), (200, 16), (256, 48), (256, 1)] {
            var entries = (0..<n).map { _ in
                ErrorSpace.point(RGBA(UInt8(rng.below(256 / step) * step), UInt8(rng.below(256 / step) * step),
                                      UInt8(rng.below(256 / step) * step), rng.below(3) == 0 ? UInt8(rng.below(256 / step) * step) : 255))
            }
            entries[n - 1] = entries[0]
            let search = NearestColorSearch(entries)
            let v = search.view
            XCTAssertNotNil(v.groups)
            for _ in 0..<3000 {
                var x = ErrorSpace.point(RGBA(UInt8(rng.below(256 / step) * step), UInt8(rng.below(256 / step) * step),
                                              UInt8(rng.below(256 / step) * step), UInt8(rng.below(256 / step) * step)))
                if rng.below(4) == 0 { x = ErrorSpace.point(RGBA(rng.byte(), rng.byte(), rng.byte(), rng.byte())) }
                let guess = rng.below(n)
                let d = ErrorSpace.distance2(x, entries[guess])
                let grouped = v.walkGroups(x, guess, d, v.groups!)
                let listed = v.walkList(x, guess, d)
                XCTAssertEqual(grouped.index, listed.index, "n=\(n)")
                XCTAssertEqual(grouped.distance2.bitPattern, listed.distance2.bitPattern, "n=\(n)")
                XCTAssertEqual(grouped.index, search.nearestByScan(x).index, "n=\(n)")
            }
        }
    }

    func testNeighbourListsAreTheNearestEntriesInOrder() {
        var rng = SeededRandom(seed: 28)
        // Both list builders (insertion for short lists, quickselect for long ones), serial and
        // parallel builds, with lists shorter than, equal to and longer than the entry count.
        for n in [2, 17, 20, 33, 34, 49, 50, 51, 200, 256] {
            for length in [NearestColorSearch.shortListLength, NearestColorSearch.listLength] {
                var entries = (0..<n).map { _ in ErrorSpace.point(RGBA(rng.byte(), rng.byte(), rng.byte(), rng.byte())) }
                if n > 40 { entries[9] = entries[5]; entries[30] = entries[5] } // equal distances: ties go by index
                let search = NearestColorSearch(entries, listLength: length)
                let v = search.view
                XCTAssertEqual(v.stride, min(n - 1, length))
                for i in 0..<n {
                    var expected = [(d: Float, j: Int)]()
                    for j in 0..<n where j != i { expected.append((ErrorSpace.distance2(entries[i], entries[j]), j)) }
                    expected.sort { a, b in a.d < b.d || (a.d == b.d && a.j < b.j) }
                    var got = [Int]()
                    for k in 0..<v.stride { got.append(Int(v.neighbours[i * v.stride + k].index)) }
                    XCTAssertEqual(got, expected.prefix(v.stride).map { $0.j }, "n=\(n) length \(length) row \(i)")
                    XCTAssertEqual(v.safeRadius2[i], expected[0].d / 4)
                }
            }
        }
    }

    func testHistogramCountsLikeADictionary() {
        var rng = SeededRandom(seed: 24)
        let colors = (0..<300).map { _ in RGBA(rng.byte(), rng.byte(), rng.byte(), rng.below(5) == 0 ? 0 : rng.byte()) }
        let frames = [TestImages.fromColors(colors, width: 64, height: 40, seed: 25),
                      TestImages.fromColors(Array(colors.prefix(50)) + [RGBA(1, 2, 3)], width: 33, height: 17, seed: 26)]
        var reference = [RGBA: Int]()
        var h = Histogram()
        for f in frames {
            h.add(f)
            for y in 0..<f.height {
                for x in 0..<f.width {
                    let p = f[x, y]
                    reference[p.a == 0 ? RGBA(0, 0, 0, 0) : p, default: 0] += 1
                }
            }
        }
        let (keys, counts) = h.entries()
        var got = [RGBA: Int]()
        for (k, c) in zip(keys, counts) { got[RGBA(memoryOrder: k)] = Int(c) }
        XCTAssertEqual(got, reference)
        XCTAssertEqual(h.distinctColors, reference.count)
        XCTAssertEqual(h.pixelCount, 64 * 40 + 33 * 17)
        XCTAssertEqual(Int(h.transparentCount), reference[RGBA(0, 0, 0, 0)] ?? 0)
        XCTAssertTrue(h.isExact)
    }

    /// Frames in memory with the damage between each frame and the one before it.
    struct DamagedFrames: FrameSequence {
        let frames: [Image]
        var width: Int { frames[0].width }
        var height: Int { frames[0].height }
        var count: Int { frames.count }
        var bytesPerPixel: Int { 4 }
        func forEach(_ body: (Int, UnsafeRawBufferPointer, RowDamage?) throws -> Void) throws {
            for (i, f) in frames.enumerated() {
                try f.pixels.withUnsafeBytes { try body(i, $0, i == 0 ? nil : RowDamage.between(frames[i - 1], f)) }
            }
        }
    }

    /// Frames whose colours pass the grouping limit part-way and keep coming (the groups grow
    /// coarser twice or more), with transparent holes and translucent pixels; some pixels stay
    /// through several frames.
    func manyColourFrames() -> [Image] {
        var rng = SeededRandom(seed: 31)
        var frames = [Image]()
        var image = Image(width: 160, height: 120)
        for k in 0..<6 {
            for y in 0..<120 {
                for x in 0..<160 where k == 0 || (x + y + k) % 3 != 0 {
                    let hole = rng.below(11) == 0
                    image[x, y] = hole ? RGBA(rng.byte(), 0, 0, 0)
                                       : RGBA(rng.byte(), rng.byte(), UInt8((x * 3 + k * 40) & 255), rng.below(4) == 0 ? rng.byte() | 1 : 255)
                }
            }
            frames.append(image)
        }
        return frames
    }

    /// The points a palette is made from, in a canonical order (weights, then coordinates).
    func sortedPoints(_ points: [WeightedPoint]) -> [[Float]] {
        points.map { [$0.w, $0.x.x, $0.x.y, $0.x.z, $0.x.w] }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    func testHistogramPastTheGroupingLimitHoldsWhatThePaletteWouldMakeOfItsColours() throws {
        let frames = manyColourFrames()
        // The reference: every colour counted in a dictionary, then reduced as a palette does.
        var reference = [UInt32: UInt32]()
        for f in frames {
            for y in 0..<f.height {
                for x in 0..<f.width {
                    let p = f[x, y]
                    reference[p.a == 0 ? 0 : p.memoryOrder, default: 0] += 1
                }
            }
        }
        let visible = reference.keys.filter { $0 != 0 }.count
        XCTAssertGreaterThan(visible, 4 * Histogram.groupingLimit, "the frames must pass the limit well")
        let expected = PaletteBuilder.reducedPoints(Array(reference.keys), Array(reference.values), limit: Histogram.groupingLimit)
        XCTAssertLessThanOrEqual(expected.count, Histogram.groupingLimit)

        var byFrame = Histogram()
        for f in frames { byFrame.add(f) }
        var walked = Histogram()
        try walked.add(frames: DamagedFrames(frames: frames))
        for h in [byFrame, walked] {
            XCTAssertFalse(h.isExact)
            XCTAssertEqual(h.pixelCount, frames.count * 160 * 120)
            XCTAssertEqual(h.transparentCount, UInt64(reference[0] ?? 0))
            XCTAssertEqual(h.groups!.bits, ColorGroups(colors: Array(reference.keys), counts: Array(reference.values),
                                                      limit: Histogram.groupingLimit).bits)
            XCTAssertGreaterThan(h.groups!.bits, 1, "the groups must have grown coarser while counting")
            XCTAssertEqual(sortedPoints(h.groups!.points()), sortedPoints(expected))
        }
        // Walking the frames by what changed meets colours in the same order: the same groups, in the same order.
        XCTAssertEqual(byFrame.groups!.points().map(\.x), walked.groups!.points().map(\.x))
        XCTAssertEqual(byFrame.groups!.points().map(\.w), walked.groups!.points().map(\.w))
        // And the palettes made from either are the same.
        XCTAssertEqual(HistogramPalettes(byFrame).palette(maxColors: 64).colors, HistogramPalettes(walked).palette(maxColors: 64).colors)
    }

    func testHistogramStaysExactUpToTheGroupingLimit() {
        // Exactly `groupingLimit` visible colours and transparent pixels: still exact.
        let n = Histogram.groupingLimit
        var image = Image(width: 256, height: n / 256 + 1)
        for i in 0..<(image.width * image.height) {
            image[i % 256, i / 256] = i < n ? RGBA(UInt8(i & 255), UInt8(i >> 8), 7, 255) : RGBA(0, 0, 0, 0)
        }
        var h = Histogram()
        h.add(image)
        XCTAssertTrue(h.isExact)
        XCTAssertEqual(h.distinctColors, n + 1)
        // One colour more groups them.
        var one = Image(width: 1, height: 1)
        one[0, 0] = RGBA(1, 2, 3, 4)
        h.add(one)
        XCTAssertFalse(h.isExact)
        XCTAssertEqual(h.groups!.bits, 1)
        XCTAssertEqual(h.transparentCount, UInt64(image.width * image.height - n))
    }

    /// `Histogram.maxBytes`: however many colours come, the histogram holds no more.
    func testHistogramStaysWithinItsMaxBytes() {
        var img = Image(width: 400, height: 400)
        for y in 0..<400 { for x in 0..<400 { img[x, y] = RGBA(UInt8(x & 255), UInt8(y & 255), UInt8((x >> 8) | (y >> 8) << 1), 255) } }
        var h = Histogram()
        var most = 0
        for k in 0..<3 {
            var shifted = img
            for y in 0..<400 { for x in 0..<400 { shifted[x, y].b &+= UInt8(k * 8) } }
            h.add(shifted)
            most = max(most, h.heldBytes)
        }
        XCTAssertFalse(h.isExact)
        XCTAssertGreaterThan(most, 0)
        XCTAssertLessThanOrEqual(most, Histogram.maxBytes)
        XCTAssertLessThanOrEqual(Histogram.maxBytes, 4 << 20)
    }

    func testMedianCutSortIsTheStableSortByAxis() {
        var rng = SeededRandom(seed: 28)
        var scratch = PaletteBuilder.SortScratch()
        // Short (sort of keys) and long (radix) slices; few distinct coordinates so that ties
        // are common, negative and positive values, and −0 beside +0 (equal under `<`).
        for n in [1, 2, 7, 300, 511, 512, 2000, 9000] {
            var points = [WeightedPoint]()
            for i in 0..<n {
                func coordinate() -> Float {
                    switch rng.below(6) {
                    case 0: return -0.0
                    case 1: return 0
                    default: return Float(rng.below(41) - 20) * 3.25
                    }
                }
                points.append(WeightedPoint(x: SIMD4(coordinate(), coordinate(), coordinate(), Float(rng.below(300))), w: Float(i)))
            }
            for axis in 0..<4 {
                var expected = points
                expected.sort { $0.x[axis] < $1.x[axis] }
                var got = points
                got.withUnsafeMutableBufferPointer { PaletteBuilder.sortStably($0, axis: axis, scratch: &scratch) }
                XCTAssertEqual(got.map(\.w), expected.map(\.w), "n \(n) axis \(axis)")
                XCTAssertEqual(got.map { $0.x[axis].bitPattern }, expected.map { $0.x[axis].bitPattern })
            }
        }
    }

    func testPointReductionKeepsWeightAndMean() {
        var rng = SeededRandom(seed: 27)
        var colors = [UInt32](), counts = [UInt32]()
        var seen = Set<UInt32>()
        while colors.count < 5000 {
            let c = RGBA(rng.byte(), rng.byte(), rng.byte(), rng.byte() | 1).memoryOrder
            if seen.insert(c).inserted { colors.append(c); counts.append(UInt32(1 + rng.below(50))) }
        }
        let points = PaletteBuilder.reducedPoints(colors, counts, limit: 500)
        XCTAssertLessThanOrEqual(points.count, 500)
        var w = 0.0, mean = SIMD4<Double>.zero, w0 = 0.0, mean0 = SIMD4<Double>.zero
        for p in points { w += Double(p.w); mean += SIMD4<Double>(p.x) * Double(p.w) }
        for (c, n) in zip(colors, counts) {
            w0 += Double(n); mean0 += SIMD4<Double>(ErrorSpace.point(RGBA(memoryOrder: c))) * Double(n)
        }
        XCTAssertEqual(w, w0)
        let d = mean / w - mean0 / w0
        XCTAssertLessThan((d * d).sum(), 1e-4)
    }

    func testGroupsAreTheColoursFirstAppearancesInOrderWithExactMeans() {
        // A smooth gradient's colours, in the histogram's own table order (the order its hash
        // sorts them in, which the groups' table must not take as its own), grouped at two
        // limits: the groups of the mask they settle on, in first-appearance order, with the
        // same weights as a plain dictionary gives and means within a float's rounding.
        var image = Image(width: 128, height: 128)
        for y in 0..<128 { for x in 0..<128 { image[x, y] = RGBA(UInt8(x * 2), UInt8(y * 2), UInt8((x + y) & 255), 255) } }
        var histogram = Histogram()
        histogram.add(image)
        XCTAssertTrue(histogram.isExact, "128 × 128 colours are within the grouping limit")
        let (colors, counts) = histogram.entries()
        for limit in [8_000, 600] {
            let groups = ColorGroups(colors: colors, counts: counts, limit: limit)
            let mask = ColorGroups.mask(bits: groups.bits)
            var order: [UInt32] = [], sums: [UInt32: (SIMD4<Double>, Double)] = [:]
            for (c, n) in zip(colors, counts) where c != 0 {
                var key = c & mask
                if key == 0 { key = 0xFFFF_FFFF }
                if sums[key] == nil { order.append(key); sums[key] = (.zero, 0) }
                let x = ErrorSpace.point(RGBA(memoryOrder: c))
                sums[key]!.0 += SIMD4<Double>(Double(x.x), Double(x.y), Double(x.z), Double(x.w)) * Double(n)
                sums[key]!.1 += Double(n)
            }
            XCTAssertLessThanOrEqual(order.count, limit)
            // One bit fewer would have been too many groups.
            let finer = ColorGroups.mask(bits: groups.bits - 1)
            if groups.bits > 1 { XCTAssertGreaterThan(Set(colors.filter { $0 != 0 }.map { $0 & finer }).count, limit) }
            let points = groups.points()
            XCTAssertEqual(points.count, order.count)
            for (p, key) in zip(points, order) {
                let (sum, w) = sums[key]!
                let m = sum / w
                XCTAssertEqual(p.w, Float(w))
                let d = p.x - SIMD4<Float>(Float(m.x), Float(m.y), Float(m.z), Float(m.w))
                XCTAssertLessThan((d * d).max(), 1e-8)
            }
        }
    }

    func testTransparentPixelsTakeNoDiffusedErrorEvenAtFullStrength() {
        // A faint shadow with holes, remapped with a map that asks for full dithering everywhere:
        // error must flow (the result differs from the plain remap) but never into the holes.
        var rng = SeededRandom(seed: 29)
        var shadow = Image(width: 120, height: 40)
        for y in 0..<40 {
            for x in 0..<120 {
                shadow[x, y] = rng.below(7) == 0 ? RGBA(rng.byte(), rng.byte(), rng.byte(), 0)
                                                 : RGBA(UInt8(x * 2), 0, 80, UInt8(1 + x * 2))
            }
        }
        let palette = [RGBA(0, 0, 0, 0), RGBA(20, 0, 80, 12), RGBA(60, 0, 80, 60), RGBA(200, 0, 80, 200), RGBA(120, 0, 80, 128)]
        let remapper = Remapper(palette: palette)
        var plain = [UInt8](), dithered = [UInt8]()
        _ = remapper.remap(shadow, dithering: 0, into: &plain)
        _ = remapper.remap(shadow, dithering: 1, map: [UInt8](repeating: DitherMap.full, count: 120 * 40), into: &dithered)
        XCTAssertNotEqual(plain, dithered)
        for y in 0..<40 {
            for x in 0..<120 where shadow[x, y].a == 0 {
                XCTAssertEqual(dithered[y * 120 + x], 0, "hole at \(x),\(y)")
            }
        }
    }

    func testDitherMapMarksFlatSmoothAndEdges() {
        var img = TestImages.greyRamp(width: 60, height: 20, from: 0, to: 59) // 1 level per pixel
        for y in 0..<20 { for x in 30..<60 { img[x, y] = y < 10 ? RGBA(0, 0, 0) : RGBA(255, 255, 255) } }
        let map = DitherMap.make(img)
        XCTAssertEqual(map[5 * 60 + 10], DitherMap.full)   // smooth ramp
        XCTAssertEqual(map[3 * 60 + 45], DitherMap.flat)   // flat black
        XCTAssertEqual(map[10 * 60 + 45], 0)               // black/white edge
    }
}
