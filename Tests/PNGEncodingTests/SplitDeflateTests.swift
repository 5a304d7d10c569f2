import ImageCore
import TestSupport
import XCTest
@testable import ImageDecoding
@testable import PNGEncoding

/// `SplitDeflate` (pieces compressed apart and joined into one zlib stream) and the block walk
/// it relies on (`DeflateBlocks`): joined streams are inflated by libdeflate's decompressor and
/// large stills decoded by libpng (zlib's inflater).
final class SplitDeflateTests: XCTestCase {
    /// Inputs of the kinds raw DEFLATE writes differently: stored blocks (noise), fixed and
    /// dynamic Huffman blocks, long runs, odd lengths, and an empty piece.
    private func inputs() -> [(String, [UInt8])] {
        var rng = SplitMix64(seed: 11)
        let noise = (0..<70_001).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let text = Array(String(repeating: "the quick brown fox jumps over the lazy dog 0123456789 ", count: 3000).utf8)
        var smooth = [UInt8](repeating: 0, count: 600_007)
        for i in smooth.indices { smooth[i] = UInt8(truncatingIfNeeded: i / 97 + Int(rng.next() % 5)) }
        return [("noise", noise), ("text", text), ("smooth", smooth), ("zeros", [UInt8](repeating: 0, count: 100_000)),
                ("one byte", [42]), ("empty", []), ("short", Array("abcabcabcabd".utf8))]
    }

    /// The zlib stream inflates back to exactly its input (libdeflate's inflater, Adler-32
    /// checked, nothing more in the stream).
    private func inflates(_ stream: [UInt8], to input: [UInt8], _ message: String) {
        var out = [UInt8](repeating: 0, count: input.count + 1)
        let outcome = stream.withUnsafeBytes { src in
            out.withUnsafeMutableBufferPointer { PNGInflater.inflate(src, into: $0.baseAddress!, count: input.count) }
        }
        XCTAssertEqual(outcome, .complete, message)
        XCTAssertEqual(Array(out.prefix(input.count)), input, message)
    }

    func testJoinedStreamsInflateToTheInput() throws {
        for (name, input) in inputs() {
            for level in [1, 6, 10, 12] {
                let joined = try XCTUnwrap(SplitDeflate.zlib(input, level: level), "\(name) L\(level)")
                XCTAssertEqual(Array(joined.prefix(2)), Array(ZlibCompressor().compress(input, level: level).prefix(2)),
                               "\(name) L\(level): the header libdeflate writes")
                inflates(joined, to: input, "\(name) L\(level)")
            }
        }
    }

    /// The pieces are the same whether a spare core compresses one of them (outside a batch, on
    /// a machine of several cores) or the calling thread compresses both in turn (a batch of one
    /// job lends no core).
    func testBytesDoNotDependOnTheSpareCores() throws {
        for (name, input) in inputs() where input.count > 1000 {
            let spare = try XCTUnwrap(SplitDeflate.zlib(input, level: 10), name)
            let ran = expectation(description: name)
            CorePool.shared.run(cores: 1, workers: 1) { _ in
                XCTAssertEqual(SplitDeflate.zlib(input, level: 10), spare, name)
                ran.fulfill()
            }
            wait(for: [ran], timeout: 60)
        }
    }

    func testFinalBlockIsFoundInEveryKindOfStream() throws {
        for (name, input) in inputs() {
            for level in [0, 1, 6, 10] {
                let raw = try XCTUnwrap(input.withUnsafeBufferPointer { ZlibCompressor().deflate($0, level: level) })
                let found = try XCTUnwrap(raw.withUnsafeBufferPointer { DeflateBlocks.finalBlock($0) }, "\(name) L\(level)")
                XCTAssertEqual(raw[found.header >> 3] >> UInt8(found.header & 7) & 1, 1, "\(name) L\(level): BFINAL set there")
                XCTAssertEqual((found.end + 7) / 8, raw.count, "\(name) L\(level): the stream ends with its final block")
            }
        }
    }

    func testMalformedStreamsAreRefused() {
        // Block type 3 is reserved; a stored block whose NLEN is not LEN's complement; a cut stream.
        XCTAssertNil([UInt8]([0x07]).withUnsafeBufferPointer { DeflateBlocks.finalBlock($0) })
        XCTAssertNil([UInt8]([0x01, 0x05, 0x00, 0x00, 0x00]).withUnsafeBufferPointer { DeflateBlocks.finalBlock($0) })
        let raw = Array("hello hello hello hello".utf8).withUnsafeBufferPointer { ZlibCompressor().deflate($0, level: 6)! }
        XCTAssertNil(Array(raw.dropLast()).withUnsafeBufferPointer { DeflateBlocks.finalBlock($0) })
        var stream = raw
        XCTAssertTrue(SplitDeflate.continueAfter(&stream))
        XCTAssertFalse(SplitDeflate.continueAfter(&stream), "a stream that goes on has no final block")
    }

    func testLargeStillsAreSplitAndDecodeExactly() throws {
        // 400 × 400 RGBA: 640,400 filtered bytes, over the threshold; the same at every effort
        // however many cores (the pieces depend on the input alone).
        let image = TestImages.truecolor(.rgba, width: 400, height: 400, seed: 21)
        let raster = TruecolorLayout(colorType: .rgba).raster(image.pixels, width: 400, height: 400)
        XCTAssertTrue(SplitDeflate.applies(count: raster.height * (raster.rowBytes + 1), level: 10))
        for effort in Effort.allCases {
            let png = TruecolorStill(image, splitsLargeStreams: true).encode(effort: effort)
            XCTAssertEqual(try LibPNGDecoder.decode(png), image, "\(effort)")
            XCTAssertEqual(TruecolorStill(image, splitsLargeStreams: true).encode(effort: effort), png, "\(effort): the same bytes again")
            // Only stickers split: the encoder's own files (icons, sheets) stay whole.
            if effort == .fast {
                XCTAssertEqual(PNGEncoder.encode(image, effort: effort), png, "level 6 is never split")
            } else {
                XCTAssertNotEqual(PNGEncoder.encode(image, effort: effort), png, "\(effort): split for stickers only")
            }
        }
        let streams = RasterStreams(raster, compressor: ZlibCompressor(), splitsLargeStreams: true)
        let whole = RasterStreams(raster, compressor: ZlibCompressor())
        let split = streams.stream(.minimumSum, level: 10), unsplit = whole.stream(.minimumSum, level: 10)
        XCTAssertNotEqual(split, unsplit, "compressed in pieces")
        XCTAssertLessThan(Double(split.count), Double(unsplit.count) * 1.02, "the seam costs little")
        XCTAssertEqual(streams.stream(.minimumSum, level: 6), whole.stream(.minimumSum, level: 6), "level 6 is whole")
    }
}
