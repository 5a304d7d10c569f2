import XCTest
import TestSupport
@testable import ImageDecoding

/// `PNGUnfilter.unfilterRow` undoes the specification's filters (section 9.2, as
/// `PNGTestSupport.filter` transcribes them) byte for byte, on seeded random rows: every filter
/// type, pixel strides 1–8 (so the three vector Paeth paths, for 3/4 and 6/8 bytes, and the byte loop), rows of one pixel and
/// of odd lengths, noisy and smooth (where Paeth's three choices and its ties all occur).
final class PNGUnfilterTests: XCTestCase {
    func testRowsAreReconstructedAsTheSpecificationSays() {
        var rng = SplitMix64(seed: 29)
        func byte() -> UInt8 { UInt8(truncatingIfNeeded: rng.next()) }
        for stride in 1...8 {
            for pixels in [1, 2, 3, 7, 64, 301] {
                let count = stride * pixels
                for type: UInt8 in 0...4 {
                    for k in 0..<4 {
                        // Smooth rows too (small steps), where Paeth's three choices all occur.
                        let smooth = k % 2 == 1
                        var raw = (0..<count).map { _ in byte() }
                        var prior = (0..<count).map { _ in byte() }
                        if smooth {
                            raw = (0..<count).map { UInt8(truncatingIfNeeded: $0 / stride * 3) &+ raw[$0] % 3 }
                            prior = (0..<count).map { UInt8(truncatingIfNeeded: $0 / stride * 3) &+ prior[$0] % 3 }
                        }
                        var row = PNGTestSupport.filter(raw, prior: prior, type: Int(type), bpp: stride)
                        let ok = row.withUnsafeMutableBufferPointer { r in
                            prior.withUnsafeBufferPointer { p in
                                PNGUnfilter.unfilterRow(type: type, row: r.baseAddress!, prior: p.baseAddress!, count: count, stride: stride)
                            }
                        }
                        XCTAssertTrue(ok)
                        XCTAssertEqual(row, raw, "type \(type), stride \(stride), \(pixels) pixels")
                    }
                }
            }
        }
        var row: [UInt8] = [1, 2, 3]
        let prior: [UInt8] = [0, 0, 0]
        XCTAssertFalse(PNGUnfilter.unfilterRow(type: 5, row: &row, prior: prior, count: 3, stride: 1))
    }
}
