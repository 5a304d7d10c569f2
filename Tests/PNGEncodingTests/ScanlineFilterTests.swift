import XCTest
@testable import PNGEncoding

/// The pointer kernels against a plain transcription of the PNG specification's filter
/// definitions, on seeded random rows.
final class ScanlineFilterTests: XCTestCase {
    static func referenceFilter(_ type: Int, cur: [UInt8], prev: [UInt8], unit: Int) -> [UInt8] {
        (0..<cur.count).map { i in
            let a = i >= unit ? Int(cur[i - unit]) : 0
            let b = Int(prev[i])
            let c = i >= unit ? Int(prev[i - unit]) : 0
            let predictor: Int
            switch type {
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let p = a + b - c
                let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: predictor = 0
            }
            return UInt8((Int(cur[i]) - predictor + 256) % 256)
        }
    }

    func testKernelsMatchTheSpecification() {
        var r = SeededRandom(42)
        for unit in [1, 2, 3, 4] {
            for count in [1, 2, 3, 5, 16, 17, 64, 301] {
                // Smooth-ish and noisy rows, so every Paeth branch is taken.
                let smooth = r.below(2) == 0
                let prev = (0..<count).map { _ in smooth ? UInt8(100 + r.below(8)) : r.byte() }
                let cur = (0..<count).map { i in smooth ? prev[i] &+ UInt8(r.below(5)) : r.byte() }
                for type in 0..<5 {
                    var out = [UInt8](repeating: 0, count: count)
                    cur.withUnsafeBufferPointer { c in
                        prev.withUnsafeBufferPointer { p in
                            out.withUnsafeMutableBufferPointer { o in
                                ScanlineFilter.filterRow(type: FilterType(rawValue: UInt8(type))!, cur: c.baseAddress!, prev: p.baseAddress!, count: count, unit: unit, out: o.baseAddress!)
                            }
                        }
                    }
                    XCTAssertEqual(out, Self.referenceFilter(type, cur: cur, prev: prev, unit: unit), "type \(type) unit \(unit) count \(count)")
                }
            }
        }
    }

    func testMinimumSumPicksTheSmallestSignedSum() {
        var r = SeededRandom(7)
        let unit = 4, width = 37, height = 20
        let data = (0..<(width * unit * height)).map { i in UInt8(truncatingIfNeeded: i / 3 + r.below(6)) }
        let raster = Raster(width: width, height: height, bitsPerPixel: 32, data: data)
        let filtered = ScanlineFilter.filter(raster, strategy: .minimumSum)
        let rowBytes = width * unit
        for y in 0..<height {
            let cur = Array(data[(y * rowBytes)..<((y + 1) * rowBytes)])
            let prev = y == 0 ? [UInt8](repeating: 0, count: rowBytes) : Array(data[((y - 1) * rowBytes)..<(y * rowBytes)])
            let sums = (0..<5).map { t in Self.referenceFilter(t, cur: cur, prev: prev, unit: unit).reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) } }
            let chosen = Int(filtered[y * (rowBytes + 1)])
            XCTAssertEqual(sums[chosen], sums.min(), "row \(y)")
            XCTAssertEqual(Array(filtered[(y * (rowBytes + 1) + 1)..<((y + 1) * (rowBytes + 1))]),
                           Self.referenceFilter(chosen, cur: cur, prev: prev, unit: unit))
        }
    }
}
