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

    /// `input` joined from its two halves at `level`, as a large still's middle is.
    private static func halves(_ input: [UInt8], level: Int) -> [UInt8]? {
        let cut = input.count / 2
        return SplitDeflate.zlib(input, pieces: [.init(range: 0..<cut, level: level), .init(range: cut..<input.count, level: level)],
                                 headerLevel: level)
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
                let joined = try XCTUnwrap(Self.halves(input, level: level), "\(name) L\(level)")
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
            let spare = try XCTUnwrap(Self.halves(input, level: 10), name)
            let ran = expectation(description: name)
            CorePool.shared.run(cores: 1, workers: 1) { _ in
                XCTAssertEqual(Self.halves(input, level: 10), spare, name)
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

    /// A fitted sticker: `image` centred between `pad` fully transparent rows above and below.
    private func padded(_ image: Image, pad: Int) -> Image {
        var out = Image(width: image.width, height: image.height + 2 * pad)
        for y in 0..<image.height { for x in 0..<image.width { out[x, y + pad] = image[x, y] } }
        return out
    }

    func testBlankEdgesArePiecesOfTheirOwnAtAFastLevel() {
        let rowBytes = 2_001, rows = 100
        var input = [UInt8](repeating: 0, count: rowBytes * rows)
        // Rows 40..<60 hold samples; rows 20 and 90 only a filter byte (still blank).
        for y in 40..<60 { for x in 1..<rowBytes { input[y * rowBytes + x] = UInt8(truncatingIfNeeded: x * y) } }
        input[20 * rowBytes] = 2
        input[90 * rowBytes] = 1
        XCTAssertEqual(SplitDeflate.pieces(of: input, rowBytes: rowBytes, level: 10), [
            .init(range: 0..<(40 * rowBytes), level: SplitDeflate.blankLevel),
            .init(range: (40 * rowBytes)..<(60 * rowBytes), level: 10),
            .init(range: (60 * rowBytes)..<input.count, level: SplitDeflate.blankLevel),
        ])
        XCTAssertEqual(SplitDeflate.pieces(of: input, rowBytes: rowBytes, level: 7), [.init(range: 0..<input.count, level: 7)],
                       "below the near-optimal levels streams stay whole")
        // An edge under the minimum stays in the stream: 30 rows of 2,001 bytes are 60,030.
        var short = input
        for y in 0..<10 { short[y * rowBytes + 5] = 9 }
        XCTAssertEqual(SplitDeflate.pieces(of: short, rowBytes: rowBytes, level: 10), [
            .init(range: 0..<(60 * rowBytes), level: 10),
            .init(range: (60 * rowBytes)..<input.count, level: SplitDeflate.blankLevel),
        ])
        short[95 * rowBytes + 7] = 1
        XCTAssertEqual(SplitDeflate.pieces(of: short, rowBytes: rowBytes, level: 10), [.init(range: 0..<input.count, level: 10)])
        let blank = [UInt8](repeating: 0, count: rowBytes * rows)
        XCTAssertEqual(SplitDeflate.pieces(of: blank, rowBytes: rowBytes, level: 10),
                       [.init(range: 0..<blank.count, level: SplitDeflate.blankLevel)], "all blank: one fast piece")
        for source in [input, blank] {
            let parts = SplitDeflate.pieces(of: source, rowBytes: rowBytes, level: 10)
            inflates(SplitDeflate.zlib(source, pieces: parts, headerLevel: 10) ?? [], to: source, "\(parts.count) pieces")
        }
    }

    func testPaddedStillsDecodeExactlyAndCostLittle() throws {
        // 300 px of artwork between 160 blank rows above and below: blank edges of 192,640
        // bytes each, and a remainder over the halving threshold.
        let image = padded(TestImages.truecolor(.rgba, width: 480, height: 300, seed: 5), pad: 160)
        let raster = TruecolorLayout(colorType: .rgba).raster(image.pixels, width: image.width, height: image.height)
        let streams = RasterStreams(raster, compressor: ZlibCompressor(), splitsLargeStreams: true)
        let parts = SplitDeflate.pieces(of: streams.filtered(.minimumSum), rowBytes: raster.rowBytes + 1, level: 10)
        XCTAssertEqual(parts.map(\.level), [SplitDeflate.blankLevel, 10, 10, SplitDeflate.blankLevel])
        let whole = RasterStreams(raster, compressor: ZlibCompressor()).stream(.minimumSum, level: 10)
        let cut = streams.stream(.minimumSum, level: 10)
        inflates(cut, to: streams.filtered(.minimumSum), "padded")
        XCTAssertLessThan(Double(cut.count), Double(whole.count) * 1.02, "the blank edges and the seams cost little")
        for effort in [Effort.default, .max] {
            let png = TruecolorStill(image, splitsLargeStreams: true).encode(effort: effort)
            XCTAssertEqual(try LibPNGDecoder.decode(png), image, "\(effort)")
        }
        // The pieces depend on the input alone: the same bytes with no spare core.
        let ran = expectation(description: "one core")
        CorePool.shared.run(cores: 1, workers: 1) { _ in
            XCTAssertEqual(RasterStreams(raster, compressor: ZlibCompressor(), splitsLargeStreams: true).stream(.minimumSum, level: 10), cut)
            ran.fulfill()
        }
        wait(for: [ran], timeout: 60)
    }
}
