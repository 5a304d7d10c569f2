import XCTest
@testable import PNGEncoding

/// `Raster.packing` against a plain transcription of the PNG specification's packing (samples
/// narrower than a byte: the leftmost pixel in the most significant bits, a row's unused low bits
/// zero), bit by bit, on seeded random samples whose high bits are set too (they must be masked).
final class RasterPackingTests: XCTestCase {
    static func reference(_ samples: [UInt8], width: Int, height: Int, bitDepth: Int) -> [UInt8] {
        let rowBytes = (width * bitDepth + 7) / 8
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let value = Int(samples[y * width + x]) % (1 << bitDepth)
                for b in 0..<bitDepth where value & (1 << (bitDepth - 1 - b)) != 0 {
                    let bit = x * bitDepth + b
                    out[y * rowBytes + bit / 8] |= UInt8(0x80 >> (bit % 8))
                }
            }
        }
        return out
    }

    func testPackingIsTheSpecificationsBitOrder() {
        var r = SeededRandom(7)
        for bitDepth in [1, 2, 4, 8] {
            for width in [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 408] {
                let height = 3
                let samples = (0..<(width * height)).map { _ in r.byte() }
                let packed = samples.withUnsafeBufferPointer {
                    Raster.packing($0.baseAddress!, width: width, height: height, bitDepth: bitDepth)
                }
                let expected = bitDepth == 8 ? samples : Self.reference(samples, width: width, height: height, bitDepth: bitDepth)
                XCTAssertEqual(packed.data, expected, "depth \(bitDepth), width \(width)")
                XCTAssertEqual(packed.rowBytes, (width * bitDepth + 7) / 8)
            }
        }
    }
}
