import XCTest
@testable import StickerKit

/// The frame store's span codec: runs of equal pixels where spans are made of them, deflate
/// otherwise; every packed block gives back exactly its bytes.
final class DeltaCodecTests: XCTestCase {
    func roundTrip(_ bytes: [UInt8], unit: Int, file: StaticString = #filePath, line: UInt = #line) -> [UInt8]? {
        let codec = DeltaCodec(unit: unit)
        guard let packed = codec.compress(bytes) else { return nil }
        XCTAssertLessThan(packed.count, bytes.count, file: file, line: line)
        var out = [UInt8](repeating: 0xAB, count: bytes.count)
        let ok = out.withUnsafeMutableBytes { codec.decompress(packed, count: bytes.count, into: $0.baseAddress!) }
        XCTAssertTrue(ok, file: file, line: line)
        XCTAssertEqual(out, bytes, file: file, line: line)
        return packed
    }

    func testFlatSpansArePackedAsRunsAndComeBackExactly() throws {
        // Rows of flat colour with a few edges, RGBA and one byte a pixel, and a run longer than
        // a run record holds.
        var rgba: [UInt8] = []
        for row in 0..<40 {
            for x in 0..<300 {
                let v: [UInt8] = x < 100 ? [0, 0, 0, 0] : x < 101 ? [UInt8(row), 7, 9, 128] : [200, 10, 10, 255]
                rgba += v
            }
        }
        let packed = try XCTUnwrap(roundTrip(rgba, unit: 4))
        XCTAssertEqual(packed.first, 1, "flat spans are packed as runs")
        let indices = [UInt8](repeating: 3, count: 70_000) + [UInt8](repeating: 9, count: 5) + [UInt8](repeating: 3, count: 100)
        XCTAssertEqual(try XCTUnwrap(roundTrip(indices, unit: 1)).first, 1)
        let long = [UInt8]((0..<70_000).flatMap { _ in [1, 2, 3, 4] as [UInt8] })
        XCTAssertEqual(try XCTUnwrap(roundTrip(long, unit: 4)).first, 1)
    }

    func testSpansThatAreNotRunsAreDeflated() throws {
        var rand = BudgetSearchTests.Rand(state: 5)
        // Smooth but never equal neighbours: deflate finds the repeats, runs do not.
        let ramp = (0..<4000).flatMap { i -> [UInt8] in [UInt8(i % 251), UInt8(i % 13), 0, 255] }
        XCTAssertEqual(try XCTUnwrap(roundTrip(ramp, unit: 4)).first, 0)
        let noise = (0..<4000).map { _ in rand.byte() }
        XCTAssertNil(DeltaCodec(unit: 1).compress(noise), "incompressible bytes are kept as they are")
        XCTAssertNil(DeltaCodec.runs(ramp, unit: 4, limit: ramp.count / DeltaCodec.runShare))
    }

    func testABlockThatDoesNotMatchIsRefused() throws {
        let codec = DeltaCodec(unit: 4)
        let flat = [UInt8](repeating: 5, count: 4000)
        let packed = try XCTUnwrap(codec.compress(flat))
        var out = [UInt8](repeating: 0, count: 4004)
        XCTAssertFalse(out.withUnsafeMutableBytes { codec.decompress(packed, count: 3996, into: $0.baseAddress!) })
        XCTAssertFalse(out.withUnsafeMutableBytes { codec.decompress(packed, count: 4004, into: $0.baseAddress!) })
        XCTAssertFalse(out.withUnsafeMutableBytes { codec.decompress([7] + packed.dropFirst(), count: 4000, into: $0.baseAddress!) })
        XCTAssertTrue(out.withUnsafeMutableBytes { codec.decompress(packed, count: 4000, into: $0.baseAddress!) })
    }
}
