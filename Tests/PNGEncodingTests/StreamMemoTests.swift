import ImageCore
import XCTest
@testable import PNGEncoding

final class StreamMemoTests: XCTestCase {
    /// Bytes that deflate to something: rows of a few values with noise.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var r = SeededRandom(seed)
        return (0..<count).map { i in i % 5 == 0 ? UInt8(r.below(256)) : UInt8(i / 97 % 7) }
    }

    func testAnInputMetAgainTakesTheStreamMadeTheFirstTime() {
        let compressor = ZlibCompressor(remembers: true)
        let a = Self.bytes(20_000, seed: 1), b = Self.bytes(20_000, seed: 2)
        let first = compressor.compress(a, level: 6)
        XCTAssertEqual(compressor.remembered, 0)
        _ = compressor.compress(b, level: 6)
        // The same bytes in another array: answered, and the stream a fresh compressor makes.
        let again = compressor.compress(Array(a), level: 6)
        XCTAssertEqual(compressor.remembered, 1)
        XCTAssertEqual(again, first)
        XCTAssertEqual(again, ZlibCompressor().compress(a, level: 6))
        // Another level, or the raw size instead of the zlib stream, is another entry.
        XCTAssertEqual(compressor.compress(a, level: 1), ZlibCompressor().compress(a, level: 1))
        let size = compressor.compressedSize(a, level: 6)
        XCTAssertEqual(compressor.remembered, 1)
        XCTAssertEqual(compressor.compressedSize(a, level: 6), size)
        XCTAssertEqual(compressor.remembered, 2)
        XCTAssertEqual(size, a.withUnsafeBufferPointer { ZlibCompressor().compressedSize($0.baseAddress!, count: $0.count, level: 6) })
        // A compressor that does not remember answers nothing from before.
        let plain = ZlibCompressor()
        _ = plain.compress(a, level: 6)
        _ = plain.compress(a, level: 6)
        XCTAssertEqual(plain.remembered, 0)
    }

    func testInputsWithTheSameDigestButOtherBytesAreNotConfused() {
        // The digest samples at most 64 words of a long input: a byte between them changes
        // the input but not its digest.
        let a = Self.bytes(64 * 1024, seed: 3)
        var b = a
        b[12] ^= 0xFF
        XCTAssertEqual(StreamMemo.digest(a, form: .zlib, level: 6), StreamMemo.digest(b, form: .zlib, level: 6))
        XCTAssertNotEqual(StreamMemo.digest(a, form: .zlib, level: 6), StreamMemo.digest(a, form: .zlib, level: 7))
        XCTAssertNotEqual(StreamMemo.digest(a, form: .zlib, level: 6), StreamMemo.digest(a, form: .rawSize, level: 6))
        let compressor = ZlibCompressor(remembers: true)
        _ = compressor.compress(a, level: 6)
        XCTAssertEqual(compressor.compress(b, level: 6), ZlibCompressor().compress(b, level: 6))
        XCTAssertEqual(compressor.remembered, 0)
        // b, kept in a's place, is now the one answered.
        _ = compressor.compress(b, level: 6)
        XCTAssertEqual(compressor.remembered, 1)
    }

    func testTheMemoKeepsSmallInputsWithinItsBytesOldestDroppedFirst() {
        var memo = StreamMemo()
        let big = Self.bytes(StreamMemo.maxInputBytes + 1, seed: 4)
        memo.remember(big, digest: StreamMemo.digest(big, form: .zlib, level: 6), form: .zlib, level: 6, result: .stream([1]))
        XCTAssertEqual(memo.heldBytes, 0)
        let inputs = (0..<(2 * StreamMemo.maxHeldBytes / StreamMemo.maxInputBytes)).map { Self.bytes(StreamMemo.maxInputBytes, seed: 10 + UInt64($0)) }
        for input in inputs {
            memo.remember(input, digest: StreamMemo.digest(input, form: .zlib, level: 6), form: .zlib, level: 6,
                          result: .stream([UInt8](repeating: 7, count: 100)))
            XCTAssertLessThanOrEqual(memo.heldBytes, StreamMemo.maxHeldBytes)
        }
        func kept(_ input: [UInt8]) -> Bool {
            memo.lookup(input, digest: StreamMemo.digest(input, form: .zlib, level: 6), form: .zlib, level: 6) != nil
        }
        XCTAssertFalse(kept(inputs[0]))
        XCTAssertTrue(kept(inputs[inputs.count - 1]))
        XCTAssertGreaterThan(memo.heldBytes, StreamMemo.maxHeldBytes - 2 * StreamMemo.maxInputBytes)
    }

    /// A terminal: lines of text written a character at a time, the cursor blinking after the
    /// last one. The cursor's region comes back every other frame.
    static func terminal(frames: Int, palette: [RGBA]) -> [IndexedImage] {
        let w = 96, h = 48
        var r = SeededRandom(9)
        var idx = [UInt8](repeating: 0, count: w * h)
        var column = 0, line = 0
        var out: [IndexedImage] = []
        for f in 0..<frames {
            if f % 6 == 5 {
                // A character: a 5×8 glyph of random strokes, and the cursor moves on.
                for y in 0..<8 { for x in 0..<5 where r.below(3) == 0 { idx[(line * 10 + y) * w + column * 6 + x] = UInt8(1 + r.below(3)) } }
                column += 1
                if column == 15 { column = 0; line = (line + 1) % 4 }
            }
            var shown = idx
            if f % 2 == 0 {
                for y in 0..<8 { for x in 0..<5 { shown[(line * 10 + y) * w + column * 6 + x] = UInt8(palette.count - 1) } }
            }
            out.append(IndexedImage(width: w, height: h, palette: palette, indices: shown))
        }
        return out
    }

    func testAnAnimationWhoseRegionsComeBackEncodesTheSameFileAsWithoutTheMemo() throws {
        let palette = [RGBA(0, 0, 0, 255), RGBA(200, 200, 200, 255), RGBA(90, 200, 90, 255), RGBA(220, 80, 60, 255),
                       RGBA(255, 255, 255, 255)]
        let frames = Self.terminal(frames: 90, palette: palette)
        let delays = [Delay](repeating: Delay(milliseconds: 100), count: frames.count)
        for effort in [Effort.fast, .default] {
            var with = try APNGEncoder(indexed: frames, delays: delays, loopCount: 0)
            var without = with
            without.remembersRegions = false
            with.alwaysAnimated = true
            without.alwaysAnimated = true
            let a = try with.encode { EncodingPlan.plan(effort, kind: $0) }
            let b = try without.encode { EncodingPlan.plan(effort, kind: $0) }
            XCTAssertEqual(a.bytes, b.bytes, "\(effort)")
            XCTAssertEqual(a.layout.frames, b.layout.frames, "\(effort)")
            let decoded = try APNGTestDecoder.decode(a.bytes)
            XCTAssertEqual(decoded.frames.count, frames.count)
            for (n, (got, want)) in zip(decoded.frames, frames.map { $0.expanded() }).enumerated() where got != want {
                XCTFail("frame \(n) differs")
                break
            }
        }
    }
}
