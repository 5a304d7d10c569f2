import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// `ImageOutline` against the decoder: the same format, size and frame count on every sample and
/// decodable fixture, and no trap on damaged or truncated files.
final class ImageOutlineTests: XCTestCase {
    /// Every file that decodes strictly: samples and the format fixtures.
    private func decodableFiles() throws -> [(URL, [UInt8], DecodedImage)] {
        var found: [(URL, [UInt8], DecodedImage)] = []
        for folder in ["gif", "webp", "jpeg", "png", "encode"] {
            for url in Hostile.files(under: Hostile.fixtures.appendingPathComponent(folder)) {
                let bytes = try Hostile.bytes(url)
                if let d = try? ImageDecoder.decode(bytes) { found.append((url, bytes, d)) }
            }
        }
        for url in Hostile.files(under: Hostile.samples) {
            let bytes = try Hostile.bytes(url)
            found.append((url, bytes, try ImageDecoder.decode(bytes)))
        }
        return found
    }

    func testOutlineAgreesWithDecoding() throws {
        let files = try decodableFiles()
        XCTAssertGreaterThan(files.count, 20)
        var animated = 0
        for (url, bytes, decoded) in files {
            let name = url.lastPathComponent
            guard let o = ImageOutline.read(bytes) else { XCTFail("\(name): no outline"); continue }
            XCTAssertEqual(o.format, decoded.format, name)
            XCTAssertEqual(o.frameCount, decoded.animation.frames.count, name)
            if o.frameCount > 1 { animated += 1 }
            // JPEG sizes are as stored; EXIF orientation may swap them in the decoded image.
            let size = [o.width, o.height], decodedSize = [decoded.animation.width, decoded.animation.height]
            if o.format == .jpeg {
                XCTAssertEqual(size.sorted(), decodedSize.sorted(), name)
            } else {
                XCTAssertEqual(size, decodedSize, name)
            }
        }
        XCTAssertGreaterThanOrEqual(animated, 3, "APNG, GIF and WebP animations among the samples")
    }

    /// Damaged files and every prefix length (in steps) of the samples: an outline or nil, never a
    /// trap, and never more frames than the whole file announces.
    func testDamagedAndTruncatedFilesGiveAnOutlineOrNil() throws {
        for url in Hostile.files(under: Hostile.fixtures.appendingPathComponent("broken")) {
            _ = ImageOutline.read(try Hostile.bytes(url))
        }
        for url in Hostile.files(under: Hostile.samples) {
            let bytes = try Hostile.bytes(url)
            let whole = ImageOutline.read(bytes)
            let step = max(1, bytes.count / 97)
            var n = 0
            while n < bytes.count {
                if let o = ImageOutline.read(Array(bytes[0..<n])), let w = whole {
                    XCTAssertLessThanOrEqual(o.frameCount, w.frameCount, "\(url.lastPathComponent) cut at \(n)")
                }
                n += step
            }
        }
        XCTAssertNil(ImageOutline.read([]))
        XCTAssertNil(ImageOutline.read(Array("GIF89a".utf8)))
    }

    /// A hand-built GIF with two image descriptors, an extension between them and a local colour
    /// table on the second: the block walk counts both and skips every sub-block by its size.
    func testGIFBlockWalk() {
        var g: [UInt8] = Array("GIF89a".utf8) + [5, 0, 3, 0, 0x80, 0, 0] + [UInt8](repeating: 9, count: 6)
        func image(localTable: Bool) -> [UInt8] {
            [0x2C, 0, 0, 0, 0, 5, 0, 3, 0, localTable ? 0x81 : 0] + (localTable ? [UInt8](repeating: 7, count: 12) : [])
                + [2, 3, 0x2C, 0x21, 0x3B, 0] // LZW code size 2, one 3-byte sub-block that looks like blocks
        }
        g += image(localTable: false)
        g += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]
        g += image(localTable: true)
        g += [0x3B]
        let expected = ImageOutline(format: .gif, width: 5, height: 3, frameCount: 2, storedDelays: [.zero, Delay(centiseconds: 10)],
                                    loopCount: 1, mayHaveAlpha: false)
        XCTAssertEqual(ImageOutline.read(g), expected)
        XCTAssertEqual(try ImageOutline.inspect(g), expected)
    }

    /// `inspect` agrees with the decoder on every file that decodes: format, size, frames, the
    /// delays (the decoder shows them as displayed), the loop count.
    func testInspectionAgreesWithDecoding() throws {
        for (url, bytes, decoded) in try decodableFiles() {
            let name = url.lastPathComponent
            let o: ImageOutline
            do {
                guard let inspected = try ImageOutline.inspect(bytes) else { XCTFail("\(name): no outline"); continue }
                o = inspected
            } catch {
                XCTFail("\(name): \(error)"); continue
            }
            let a = decoded.animation
            XCTAssertEqual(o.format, decoded.format, name)
            XCTAssertEqual(o.frameCount, a.frames.count, name)
            if o.format != .jpeg { XCTAssertEqual([o.width, o.height], [a.width, a.height], name) }
            if a.isAnimated {
                XCTAssertEqual(o.storedDelays.map(\.displayed), a.frames.map(\.delay), name)
                XCTAssertEqual(o.loopCount, a.loopCount, name)
            }
            if !o.mayHaveAlpha { XCTAssertTrue(a.frames.allSatisfy { $0.image.isOpaque }, "\(name): opaque by its header") }
            // A plan agrees on everything it reads.
            let plan = try XCTUnwrap(ImageOutline.read(bytes), name)
            XCTAssertEqual([plan.width, plan.height, plan.frameCount], [o.width, o.height, o.frameCount], name)
            XCTAssertEqual(plan.format, o.format, name)
        }
    }

    /// Structural problems `inspect` names, with their values; nil for bytes no signature opens.
    func testInspectionNamesStructuralProblems() throws {
        func outlineError(_ bytes: [UInt8], line: UInt = #line) -> ImageError? {
            do {
                _ = try ImageOutline.inspect(bytes)
                XCTFail("no error", line: line)
            } catch let e as ImageError {
                return e
            } catch {
                XCTFail("\(error)", line: line)
            }
            return nil
        }
        let png = Hostile.pngSignature + Hostile.ihdr(3, 3) + Hostile.pngChunk("IDAT", Hostile.zlibStored([UInt8](repeating: 0, count: 39)))
            + Hostile.pngChunk("IEND", [])
        XCTAssertEqual(try ImageOutline.inspect(png)?.pngColorType, .truecolorAlpha)
        XCTAssertEqual(try ImageOutline.inspect(png)?.pngBitDepth, 8)
        var badCRC = png
        badCRC[29] ^= 0xFF   // the IHDR CRC's first byte
        let ihdrCRC = Hostile.crc32(Array(png[12..<29]))
        XCTAssertEqual(outlineError(badCRC), ImageError(.png, OutlineError.pngChunkCRC(chunk: "IHDR", at: 8, stored: ihdrCRC ^ 0xFF00_0000, computed: ihdrCRC)))
        XCTAssertEqual(outlineError(Array(png.dropLast(12))), ImageError(.png, OutlineError.pngNoEnd(fileSize: png.count - 12)))
        XCTAssertEqual(outlineError(Hostile.apngClaiming(frames: 3)), ImageError(.apng, OutlineError.apngFrameCount(declared: 3, frameControls: 1)))
        XCTAssertEqual(outlineError(Hostile.apngClaiming(frames: 3))?.description, "APNG: acTL says 3 frames, file has 1 fcTL chunks")
        let gif = Hostile.gifWithScreen(4, 4)
        XCTAssertEqual(outlineError(Array(gif.dropLast())), ImageError(.gif, OutlineError.gifNoTrailer(frames: 1, fileSize: gif.count - 1)))
        XCTAssertEqual(outlineError([0xFF, 0xD8, 0xFF, 0xD9, 0, 0]), ImageError(.jpeg, OutlineError.jpegNoFrameHeader(fileSize: 6)))
        XCTAssertEqual(outlineError([]), ImageError(nil, SniffError.emptyFile))
        // A damaged signature is no known format here (the decoder still names the damage).
        XCTAssertNil(try ImageOutline.inspect([0x09] + Array(png.dropFirst())))
        XCTAssertNil(try ImageOutline.inspect(Array("not an image".utf8)))
    }
}
