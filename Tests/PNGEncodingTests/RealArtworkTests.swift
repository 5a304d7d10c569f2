import Foundation
import ImageCore
import XCTest
@testable import PNGEncoding

/// Round trips of real artwork from Tests/Fixtures/encode (see SOURCES.md there).
final class RealArtworkTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/encode")

    func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    /// The image as a palette image when it has at most 256 colours (exact, no quantization).
    static func exactIndexed(_ images: [Image]) -> [IndexedImage]? {
        var palette: [RGBA] = []
        var slot: [UInt32: UInt8] = [:]
        var out: [IndexedImage] = []
        for image in images {
            var idx = [UInt8](repeating: 0, count: image.width * image.height)
            for i in 0..<idx.count {
                let p = image.pixels
                let c = RGBA(p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3])
                if let s = slot[c.packed] { idx[i] = s; continue }
                guard palette.count < 256 else { return nil }
                slot[c.packed] = UInt8(palette.count)
                idx[i] = UInt8(palette.count)
                palette.append(c)
            }
            out.append(IndexedImage(width: image.width, height: image.height, palette: [], indices: idx))
        }
        return out.map { IndexedImage(width: $0.width, height: $0.height, palette: palette, indices: $0.indices) }
    }

    func testStillArtworkRoundTripsAsTruecolourAndIndexed() throws {
        for name in ["noto_2764_red_heart_512.png", "oc_music_note_sparse.png"] {
            let image = try LibPNGDecoder.decode(try fixture(name))
            let indexed = try XCTUnwrap(Self.exactIndexed([image])?.first, name)
            var sizes: [Effort: Int] = [:]
            for effort in Effort.allCases {
                let png = PNGEncoder.encode(image, effort: effort)
                XCTAssertEqual(try LibPNGDecoder.decode(png), image, "\(name) truecolour \(effort)")
                let ipng = PNGEncoder.encode(indexed, effort: effort)
                XCTAssertEqual(try LibPNGDecoder.decode(ipng), image, "\(name) indexed \(effort)")
                _ = try APNGValidator.validate(ipng)
                sizes[effort] = ipng.count
            }
            XCTAssertLessThanOrEqual(sizes[.max]!, sizes[.default]!, "\(name): max is never larger than default")
        }
    }

    func testRealAPNGWithIdenticalFramesBecomesOneFrameKeepingItsDuration() throws {
        // Its three frames are the same picture (frames 2 and 3 redraw one pixel unchanged).
        let source = try APNGTestDecoder.decode(try fixture("maneki_neko_palette_3f.apng"))
        XCTAssertEqual(source.frames.count, 3)
        let delays = source.delays.map { Delay(numerator: $0.0, denominator: $0.1) }
        let indexed = try XCTUnwrap(Self.exactIndexed(source.frames))
        let apng = try PNGEncoder.encodeAnimation(frames: indexed, delays: delays, loopCount: source.numPlays)
        let info = try APNGValidator.validate(apng)
        XCTAssertTrue(info.isAnimated, "an animation keeps its duration and loop count")
        XCTAssertEqual(info.frames.count, 2)
        XCTAssertEqual(info.numPlays, source.numPlays)
        let decoded = try APNGTestDecoder.decode(apng)
        XCTAssertEqual(decoded.frames, [source.frames[0], source.frames[0]])
        XCTAssertEqual(decoded.delays.map { Delay(numerator: $0.0, denominator: $0.1) }.reduce(.zero, +), delays.reduce(.zero, +))
    }

    func testRealArtworkAnimationReencodesExactly() throws {
        // The cat with a patch of it moving around: frames built from real pixels.
        let cat = try APNGTestDecoder.decode(try fixture("maneki_neko_palette_3f.apng")).frames[0]
        var frames = [cat]
        for step in 1..<5 {
            var f = cat
            for y in 0..<30 { for x in 0..<40 { f[60 + step * 20 + x, 100 + y] = cat[100 + x, 60 + y] } }
            frames.append(f)
        }
        frames.append(cat)
        let delays = [Delay(milliseconds: 100), Delay(numerator: 1, denominator: 30), Delay(centiseconds: 7),
                      Delay(milliseconds: 100), Delay(milliseconds: 2), Delay(numerator: 3, denominator: 2)]
        let indexed = try XCTUnwrap(Self.exactIndexed(frames))
        for effort in Effort.allCases {
            let files = [try PNGEncoder.encodeAnimation(frames: indexed, delays: delays, loopCount: 1, effort: effort),
                         try PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: 1, effort: effort)]
            for apng in files {
                let back = try APNGTestDecoder.decode(apng)
                XCTAssertEqual(back.frames, frames, "\(effort)")
                XCTAssertEqual(back.delays.map { Delay(numerator: $0.0, denominator: $0.1) }, delays)
                XCTAssertEqual(back.numPlays, 1)
                let info = try APNGValidator.validate(apng)
                XCTAssertLessThan(info.frames[1].control.width * info.frames[1].control.height, 240 * 240 / 4,
                                  "later frames are cropped to the change")
            }
        }
    }

    func testConcurrentEncodesMatchSerialOnes() async throws {
        let image = try LibPNGDecoder.decode(try fixture("noto_2764_red_heart_512.png"))
        let indexed = try XCTUnwrap(Self.exactIndexed([image])?.first)
        let frames = APNGEncoderTests.walk(width: 40, height: 30, frames: 6, palette: TestImages.palette(20, translucent: true, seed: 1), seed: 2)
        let delays = Array(repeating: Delay(milliseconds: 50), count: 6)
        let serial = (PNGEncoder.encode(image, effort: .fast), PNGEncoder.encode(indexed, effort: .fast),
                      try PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: 0, effort: .fast))
        XCTAssertEqual(try APNGTestDecoder.decode(serial.2).frames, APNGEncoderTests.merged(frames.map { $0.expanded() }, delays).0)
        // Twelve encodes as concurrent tasks, four of each kind.
        let results = await withTaskGroup(of: (Int, [UInt8]).self) { group in
            for i in 0..<12 {
                group.addTask {
                    switch i % 3 {
                    case 0: (i, PNGEncoder.encode(image, effort: .fast))
                    case 1: (i, PNGEncoder.encode(indexed, effort: .fast))
                    default: (i, (try? PNGEncoder.encodeAnimation(frames: frames, delays: delays, loopCount: 0, effort: .fast)) ?? [])
                    }
                }
            }
            var out = [[UInt8]](repeating: [], count: 12)
            for await (i, bytes) in group { out[i] = bytes }
            return out
        }
        for i in 0..<12 {
            XCTAssertEqual(results[i], [serial.0, serial.1, serial.2][i % 3], "run \(i)")
        }
    }
}
