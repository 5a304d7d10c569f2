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

    func testHistogramGrowsAndThenDropsBits() {
        // 160 000 distinct colours: the table must grow, and with a 4096-colour cap merge colours.
        var img = Image(width: 400, height: 400)
        for y in 0..<400 { for x in 0..<400 { img[x, y] = RGBA(UInt8(x & 255), UInt8(y & 255), UInt8((x >> 8) | (y >> 8) << 1), 255) } }
        var full = Histogram()
        full.add(img)
        XCTAssertTrue(full.isExact)
        XCTAssertEqual(full.distinctColors, 400 * 400)
        var capped = Histogram(maxDistinctColors: 4096)
        capped.add(img)
        XCTAssertFalse(capped.isExact)
        XCTAssertLessThanOrEqual(capped.distinctColors, 4096)
        XCTAssertEqual(capped.entries().counts.reduce(0) { $0 + Int($1) }, 400 * 400)
    }

    /// `Histogram.bytesPerDistinctColor`: however far past its cap the colours go, the table and
    /// the quarter-size one before it (alive while it grows) stay within that many bytes a colour.
    func testHistogramTableStaysWithinItsBytesPerColour() {
        for cap in [4096, 16_384, 65_536] {
            var img = Image(width: 400, height: 400)
            for y in 0..<400 { for x in 0..<400 { img[x, y] = RGBA(UInt8(x & 255), UInt8(y & 255), UInt8((x >> 8) | (y >> 8) << 1), 255) } }
            var h = Histogram(maxDistinctColors: cap)
            var most = 0
            for _ in 0..<2 {
                h.add(img)
                most = max(most, h.capacity)
            }
            XCTAssertFalse(h.isExact)
            XCTAssertLessThanOrEqual(most * 8 + most * 8 / 4, Histogram.bytesPerDistinctColor * cap, "cap \(cap)")
        }
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

    func testMergedGroupsAreTheColoursFirstAppearancesInHistogramOrder() {
        // A smooth gradient's colours, in the histogram's own table order (the order its hash
        // sorts them in, which `mergeByKey`'s table must not take as its own), grouped by two
        // masks: the same groups, in first-appearance order, with the same weights and means
        // as a plain dictionary gives.
        var image = Image(width: 256, height: 128)
        for y in 0..<128 { for x in 0..<256 { image[x, y] = RGBA(UInt8(x), UInt8(y * 2), UInt8((x + y) & 255), 255) } }
        var histogram = Histogram()
        histogram.add(image)
        let (colors, counts) = histogram.entries()
        for mask in [UInt32(0xFFFE_FEFE), 0xFCF8_F8F8] {
            var order: [UInt32] = [], sums: [UInt32: (SIMD4<Double>, Double)] = [:]
            for (c, n) in zip(colors, counts) where c != 0 {
                var key = c & mask
                if key == 0 { key = 0xFFFF_FFFF }
                if sums[key] == nil { order.append(key); sums[key] = (.zero, 0) }
                let x = ErrorSpace.point(RGBA(memoryOrder: c))
                sums[key]!.0 += SIMD4<Double>(Double(x.x), Double(x.y), Double(x.z), Double(x.w)) * Double(n)
                sums[key]!.1 += Double(n)
            }
            guard let merged = PaletteBuilder.mergeByKey(colors, counts, mask: mask, limit: order.count) else {
                XCTFail("mask \(String(mask, radix: 16)): \(order.count) groups did not fit a limit of \(order.count)"); continue
            }
            XCTAssertEqual(merged.count, order.count)
            for (p, key) in zip(merged, order) {
                let (sum, w) = sums[key]!
                let m = sum / w
                XCTAssertEqual(p.w, Float(w))
                XCTAssertEqual(p.x, SIMD4<Float>(Float(m.x), Float(m.y), Float(m.z), Float(m.w)))
            }
            XCTAssertNil(PaletteBuilder.mergeByKey(colors, counts, mask: mask, limit: order.count - 1))
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
