import XCTest
@testable import ImageDecoding

/// `PNGUnfilter.unfilterRow` against a plain transcription of the PNG specification's
/// reconstruction functions (section 9.2), byte by byte, on seeded random rows: every filter
/// type, pixel strides 1–8 (so both vector Paeth paths and the byte loop), rows of one pixel
/// and of odd lengths.
final class PNGUnfilterTests: XCTestCase {
    static func reference(type: UInt8, filtered: [UInt8], prior: [UInt8], stride: Int) -> [UInt8] {
        var out = filtered
        for i in 0..<out.count {
            let a = i >= stride ? Int(out[i - stride]) : 0
            let b = Int(prior[i])
            let c = i >= stride ? Int(prior[i - stride]) : 0
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
            out[i] = UInt8((Int(out[i]) + predictor) % 256)
        }
        return out
    }

    func testRowsAreReconstructedAsTheSpecificationSays() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func byte() -> UInt8 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        for stride in 1...8 {
            for pixels in [1, 2, 3, 7, 64, 301] {
                let count = stride * pixels
                for type: UInt8 in 0...4 {
                    for k in 0..<4 {
                        // Smooth rows too (small steps), where Paeth's three choices all occur.
                        let smooth = k % 2 == 1
                        var filtered = (0..<count).map { _ in byte() }
                        var prior = (0..<count).map { _ in byte() }
                        if smooth {
                            filtered = filtered.map { $0 % 5 }
                            prior = (0..<count).map { UInt8(truncatingIfNeeded: $0 / stride * 3) &+ prior[$0] % 3 }
                        }
                        var row = filtered
                        let ok = row.withUnsafeMutableBufferPointer { r in
                            prior.withUnsafeBufferPointer { p in
                                PNGUnfilter.unfilterRow(type: type, row: r.baseAddress!, prior: p.baseAddress!, count: count, stride: stride)
                            }
                        }
                        XCTAssertTrue(ok)
                        XCTAssertEqual(row, Self.reference(type: type, filtered: filtered, prior: prior, stride: stride),
                                       "type \(type), stride \(stride), \(pixels) pixels")
                    }
                }
            }
        }
        var row: [UInt8] = [1, 2, 3]
        let prior: [UInt8] = [0, 0, 0]
        XCTAssertFalse(PNGUnfilter.unfilterRow(type: 5, row: &row, prior: prior, count: 3, stride: 1))
    }
}
