import ImageCore
import XCTest
@testable import PNGEncoding

/// The validator must reject what the APNG specification forbids, or passing it proves nothing.
final class APNGValidatorTests: XCTestCase {
    typealias Chunk = (type: String, data: [UInt8])

    /// A valid three-frame APNG, as chunks.
    func sampleChunks() throws -> [Chunk] {
        let frames = APNGEncoderTests.walk(width: 16, height: 12, frames: 3, palette: TestImages.palette(6, translucent: true, seed: 1), seed: 3)
        let apng = try PNGEncoder.encodeAnimation(frames: frames, delays: Array(repeating: Delay(milliseconds: 40), count: 3), loopCount: 0)
        let chunks = try PNGChunkParser.parse(apng).map { ($0.type, $0.data) }
        XCTAssertEqual(chunks.filter { $0.0 == "fcTL" }.count, 3)
        return chunks
    }

    func serialize(_ chunks: [Chunk], breakCRCOf broken: Int? = nil) -> [UInt8] {
        var out: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
        for (n, c) in chunks.enumerated() {
            let t = Array(c.type.utf8)
            let crc = PNGChunkParser.crc32(t + c.data) ^ (n == broken ? 1 : 0)
            out += APNGTestDecoder.be32(UInt32(c.data.count)) + t + c.data + APNGTestDecoder.be32(crc)
        }
        return out
    }

    func testTheSampleIsValid() throws {
        XCTAssertNoThrow(try APNGValidator.validate(serialize(try sampleChunks())))
    }

    func testRejectsBrokenFiles() throws {
        let good = try sampleChunks()
        let fctls = good.indices.filter { good[$0].type == "fcTL" }
        let fdat = try XCTUnwrap(good.firstIndex { $0.type == "fdAT" })
        let actl = try XCTUnwrap(good.firstIndex { $0.type == "acTL" })
        let idat = try XCTUnwrap(good.firstIndex { $0.type == "IDAT" })
        func edited(_ body: (inout [Chunk]) -> Void) -> [UInt8] { var c = good; body(&c); return serialize(c) }
        func setU32(_ d: inout [UInt8], _ at: Int, _ v: UInt32) { d.replaceSubrange(at..<(at + 4), with: APNGTestDecoder.be32(v)) }

        let cases: [(String, [UInt8])] = [
            ("bad CRC", serialize(good, breakCRCOf: fdat)),
            ("sequence gap", edited { setU32(&$0[fctls[1]].data, 0, 5) }),
            ("fdAT sequence repeats", edited { setU32(&$0[fdat].data, 0, 1) }),
            ("num_frames too high", edited { setU32(&$0[actl].data, 0, 4) }),
            ("region past the right edge", edited { setU32(&$0[fctls[1]].data, 12, 16) }),
            ("region past the bottom", edited { setU32(&$0[fctls[1]].data, 8, 13) }),
            ("zero width", edited { setU32(&$0[fctls[1]].data, 4, 0) }),
            ("dispose 3", edited { $0[fctls[1]].data[24] = 3 }),
            ("blend 2", edited { $0[fctls[1]].data[25] = 2 }),
            ("default image fcTL not full canvas", edited { setU32(&$0[fctls[0]].data, 4, 15) }),
            ("acTL after IDAT", edited { let a = $0.remove(at: actl); $0.insert(a, at: idat) }),
            ("fdAT before IDAT", edited { let f = $0.remove(at: fdat); $0.insert(f, at: idat) }),
            ("frame without data", edited { $0.remove(at: fdat) }),
            ("IEND not last", edited { $0.append(("tEXt", Array("a\u{0}b".utf8))) }),
            ("tRNS after IDAT", edited { let i = $0.firstIndex { $0.type == "tRNS" }!; let t = $0.remove(at: i); $0.insert(t, at: idat) }),
            ("unknown critical chunk", edited { $0.insert(("ABCD", []), at: 1) }),
            ("IHDR not first", edited { $0.swapAt(0, 1) }),
        ]
        for (name, bytes) in cases {
            XCTAssertThrowsError(try APNGValidator.validate(bytes), name)
        }
    }
}
