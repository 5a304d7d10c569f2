import ImageCore
import XCTest
@testable import ImageDecoding

/// `ImageDecoder.decodeFrames`: frames arrive one at a time, each already final when it arrives,
/// and carry what the whole decode gives (which the format tests check against Pillow).
final class FrameStreamTests: XCTestCase {
    /// Every animated fixture (APNG, GIF, WebP), a few stills, and truncated files read leniently.
    static let files: [(path: String, lenient: Bool)] = [
        ("png/maneki_neko_palette_3f.apng", false), ("encode/maneki_neko_palette_3f.apng", false),
        ("gif/cogs_small_transparent.gif", false), ("gif/disposal.gif", false), ("gif/interlaced_local.gif", false),
        ("gif/restore_first.gif", true), ("gif/out_of_range.gif", true),
        ("webp/ring_200_6f.webp", false), ("webp/anim_solid.webp", false), ("webp/anim_icc.webp", false),
        ("webp/lossless_alpha.webp", false), ("png/pillow/rgba8.png", false), ("jpeg/gray.jpg", false),
        ("broken/truncated_apng_60pct.png", true), ("broken/truncated_gif_40pct.gif", true),
        ("broken/truncated_webp_anim_50pct.webp", true),
    ]

    /// What a consumer that drops every frame can keep: a hash of the pixels taken on arrival
    /// (so a frame changed later by the decoder would show), the delay and the size.
    struct Seen: Equatable {
        var hash: String, delay: Delay, width: Int, height: Int
        init(_ frame: Frame) {
            hash = Seen.digest(frame.image.pixels)
            delay = frame.delay
            width = frame.image.width
            height = frame.image.height
        }

        /// FNV-1a over 8-byte words (the byte-wise hash is slow on whole animations in debug
        /// builds), then the byte count.
        static func digest(_ bytes: [UInt8]) -> String {
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            bytes.withUnsafeBytes { raw in
                var i = 0
                while i + 8 <= raw.count {
                    h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x100_0000_01B3
                    i += 8
                }
                while i < raw.count { h = (h ^ UInt64(raw[i])) &* 0x100_0000_01B3; i += 1 }
            }
            return String(h, radix: 16) + "/\(bytes.count)"
        }
    }

    static func stream(_ bytes: [UInt8], _ options: DecodeOptions) throws -> (info: FrameStreamInfo, frames: [Seen]) {
        var seen: [Seen] = []
        let info = try ImageDecoder.decodeFrames(bytes, options: options) { seen.append(Seen($0)) }
        return (info, seen)
    }

    func testStreamDeliversTheFramesAndDelaysOfTheWholeDecode() throws {
        for (path, lenient) in Self.files {
            let bytes = try PNGTestSupport.fixture(path)
            let options = DecodeOptions(lenient: lenient)
            let whole = try ImageDecoder.decode(bytes, options: options)
            let (info, seen) = try Self.stream(bytes, options)
            XCTAssertEqual(seen, whole.animation.frames.map(Seen.init), path)
            XCTAssertEqual(info, FrameStreamInfo(format: whole.format, width: whole.animation.width, height: whole.animation.height,
                                                 frameCount: whole.animation.frames.count, loopCount: whole.animation.loopCount,
                                                 warnings: whole.warnings), path)
            let first = try Self.stream(bytes, DecodeOptions(lenient: lenient, firstFrameOnly: true))
            let wholeFirst = try ImageDecoder.decode(bytes, options: DecodeOptions(lenient: lenient, firstFrameOnly: true))
            XCTAssertEqual(first.frames, wholeFirst.animation.frames.map(Seen.init), path)
            XCTAssertEqual(first.info.frameCount, 1, path)
        }
    }

    /// Against expectations written by the fixture generators from their source frames, not by
    /// our decoder.
    func testStreamedFramesMatchTheGeneratorsFrames() throws {
        for name in ["disposal", "interlaced_local"] {
            let text = try String(contentsOf: PNGTestSupport.fixtures.appendingPathComponent("gif/\(name).txt"), encoding: .utf8)
            let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
            let (width, height, count) = (Int(fields[0])!, Int(fields[1])!, Int(fields[2])!)
            let delays = fields[4].split(separator: ",").map { Delay(centiseconds: Int($0)!).displayed }
            let raw = try PNGTestSupport.fixture("gif/\(name).rgba")
            let size = width * height * 4
            let want = (0..<count).map { Seen.digest(Array(raw[($0 * size)..<(($0 + 1) * size)])) }
            let (info, seen) = try Self.stream(try PNGTestSupport.fixture("gif/\(name).gif"), .init())
            XCTAssertEqual(seen.map(\.hash), want, name)
            XCTAssertEqual(seen.map(\.delay), delays, name)
            XCTAssertEqual([info.width, info.height, info.frameCount], [width, height, count], name)
        }
        let raw = try PNGTestSupport.fixture("webp/anim_solid.rgba")
        let size = 16 * 10 * 4
        let (_, seen) = try Self.stream(try PNGTestSupport.fixture("webp/anim_solid.webp"), .init())
        XCTAssertEqual(seen.map(\.hash), (0..<3).map { Seen.digest(Array(raw[($0 * size)..<(($0 + 1) * size)])) })
        XCTAssertEqual(seen.map(\.delay), [50, 120, 30].map { Delay(milliseconds: $0) })

        // maneki_frames.txt: frame, delay in ms, hash of Pillow's canvas, loop.
        let lines = try String(contentsOf: PNGTestSupport.fixtures.appendingPathComponent("png/maneki_frames.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ") }
        var apngHashes: [String] = [], apngDelays: [Delay] = []
        let info = try ImageDecoder.decodeFrames(try PNGTestSupport.fixture("png/maneki_neko_palette_3f.apng")) {
            apngHashes.append(PNGTestSupport.fnv1a64($0.image.pixels))
            apngDelays.append($0.delay)
        }
        XCTAssertEqual(apngHashes, lines.map { String($0[2]) })
        XCTAssertEqual(apngDelays, lines.map { Delay(milliseconds: Int($0[1])!) })
        XCTAssertEqual(info.loopCount, Int(lines[0][3])!)
    }

    func testFramesArriveBeforeTheFileIsRead() throws {
        // A GIF cut after some frames: strict decoding fails at the cut, after handing over the
        // frames before it; the error is the whole decode's.
        let bytes = try PNGTestSupport.fixture("broken/truncated_gif_40pct.gif")
        var delivered = 0
        var streamError: ImageError?
        do {
            _ = try ImageDecoder.decodeFrames(bytes) { _ in delivered += 1 }
            XCTFail("a truncated GIF decoded in strict mode")
        } catch let error as ImageError {
            streamError = error
        }
        XCTAssertGreaterThan(delivered, 0)
        XCTAssertEqual(streamError, Hostile.decodeError(bytes, .init(), "truncated GIF"))

        // An error thrown by the consumer stops decoding and comes back unchanged.
        struct Enough: Error {}
        delivered = 0
        XCTAssertThrowsError(try ImageDecoder.decodeFrames(try PNGTestSupport.fixture("webp/ring_200_6f.webp")) { _ in
            delivered += 1
            throw Enough()
        }) { XCTAssertTrue($0 is Enough) }
        XCTAssertEqual(delivered, 1)
    }

    func testLimitsErrorsAreTheWholeDecodesAndComeFirst() throws {
        for (path, lenient) in Self.files {
            let bytes = try PNGTestSupport.fixture(path)
            let whole = try ImageDecoder.decode(bytes, options: DecodeOptions(lenient: lenient)).animation
            let pixels = whole.width * whole.height
            let tight = [
                Limits(maxPixels: pixels - 1),
                Limits(maxWidth: whole.width - 1),
                Limits(maxFrames: whole.frames.count - 1),
                Limits(maxTotalBytes: pixels * 4 * whole.frames.count - 1),
            ]
            for limits in tight where limits.maxFrames > 0 {
                let options = DecodeOptions(limits: limits, lenient: lenient)
                guard let want = Hostile.decodeError(bytes, options, path) else { continue }
                var delivered = 0
                XCTAssertThrowsError(try ImageDecoder.decodeFrames(bytes, options: options) { _ in delivered += 1 }) {
                    XCTAssertEqual($0 as? ImageError, want, path)
                }
                XCTAssertEqual(want.kind, .limits, "\(path): \(want)")
                // APNG and WebP declare their frame count: over a limit, no frame is decoded.
                if whole.frames.count > 1 && !path.hasSuffix(".gif") {
                    XCTAssertEqual(delivered, 0, "\(path): \(want)")
                }
            }
        }
    }
}
