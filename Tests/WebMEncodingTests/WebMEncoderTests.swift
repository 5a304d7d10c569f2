import Dispatch
import Foundation
import ImageCore
import EncodingTestSupport
import TestSupport
import XCTest
@testable import WebMEncoding

final class WebMEncoderTests: XCTestCase {
    // Matroska IDs the tests look for (the muxer's own enum is not used, so a wrong ID there fails here).
    let segment: UInt32 = 0x1853_8067, info: UInt32 = 0x1549_A966, tracks: UInt32 = 0x1654_AE6B, trackEntry: UInt32 = 0xAE
    let video: UInt32 = 0xE0, cluster: UInt32 = 0x1F43_B675, cues: UInt32 = 0x1C53_BB6B, seekHead: UInt32 = 0x114D_9B74

    private func sticker(_ w: Int, _ h: Int, phase: Int, opaque: Bool = false) -> Image {
        var p = syntheticStickerPixels(width: w, height: h, phase: phase, seed: UInt64(phase + 1))
        if opaque {
            for i in stride(from: 0, to: p.count, by: 4) {
                // Over white: opaque everywhere.
                let a = Int(p[i + 3])
                for c in 0..<3 { p[i + c] = UInt8((Int(p[i + c]) * a + 255 * (255 - a) + 127) / 255) }
                p[i + 3] = 255
            }
        }
        return Image(width: w, height: h, pixels: p)
    }

    /// One block as read back: its timestamp, duration (nil: none written), flags and payloads.
    struct ReadBlock { var time: Int; var duration: Int?; var keyframe: Bool; var color: [UInt8]; var alpha: [UInt8]?; var reference: Int64? }

    /// Parses `bytes` strictly and returns the segment and its blocks in order.
    private func read(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> (segment: EBMLElement, blocks: [ReadBlock]) {
        let top = try EBMLReader.parse(bytes)
        XCTAssertEqual(top.map(\.id), [0x1A45_DFA3, segment], file: file, line: line)
        let header = top[0]
        XCTAssertEqual(header.first(0x4282)?.string, "webm", file: file, line: line)
        XCTAssertEqual(header.first(0x4286)?.unsigned, 1, file: file, line: line)
        let seg = top[1]
        XCTAssertEqual(seg.body.endIndex, bytes.count, "the segment ends the file", file: file, line: line)
        var blocks: [ReadBlock] = []
        for c in seg.all(cluster) {
            let base = Int(try XCTUnwrap(c.first(0xE7)).unsigned)
            for e in c.children where e.id == 0xA3 || e.id == 0xA0 {
                let block = e.id == 0xA3 ? e : try XCTUnwrap(e.first(0xA1))
                let b = Array(block.body)
                XCTAssertEqual(b[0], 0x81, "track 1", file: file, line: line)
                let rel = Int(Int16(bitPattern: UInt16(b[1]) << 8 | UInt16(b[2])))
                let alpha = e.find(0x75A1, 0xA6)
                if let alpha { XCTAssertEqual(alpha.first(0xEE)?.unsigned, 1, "BlockAddID", file: file, line: line) }
                let reference = e.first(0xFB)?.signed
                blocks.append(ReadBlock(time: base + rel, duration: e.first(0x9B).map { Int($0.unsigned) },
                                        keyframe: e.id == 0xA3 ? b[3] & 0x80 != 0 : reference == nil,
                                        color: Array(b[4...]), alpha: alpha?.first(0xA5).map { Array($0.body) },
                                        reference: reference))
            }
        }
        // The SeekHead points at Info, Tracks and Cues.
        let dataStart = seg.bodyOffset
        for seek in try XCTUnwrap(seg.first(seekHead)).all(0x4DBB) {
            let id = try XCTUnwrap(seek.first(0x53AB)).unsigned
            let position = Int(try XCTUnwrap(seek.first(0x53AC)).unsigned)
            XCTAssertEqual(seg.children.first { $0.offset == dataStart + position }.map { UInt64($0.id) }, id, file: file, line: line)
        }
        // Every cue points at a cluster starting at the cue's time with a keyframe.
        for point in try XCTUnwrap(seg.first(cues)).all(0xBB) {
            let time = Int(try XCTUnwrap(point.first(0xB3)).unsigned)
            let position = Int(try XCTUnwrap(point.find(0xB7, 0xF1)).unsigned)
            let c = try XCTUnwrap(seg.children.first { $0.offset == dataStart + position })
            XCTAssertEqual(c.id, cluster, file: file, line: line)
            XCTAssertEqual(c.first(0xE7)?.unsigned, UInt64(time), file: file, line: line)
            XCTAssertTrue(blocks.first { $0.time == time }?.keyframe == true, file: file, line: line)
        }
        return (seg, blocks)
    }

    private func decodeAll(_ blocks: [ReadBlock]) throws -> [Image] {
        let color = try VP9TestDecoder()
        let alpha = try VP9TestDecoder()
        return try blocks.map { b in
            let c = try color.decode(b.color)
            XCTAssertFalse(c.fullRange)
            let a = try b.alpha.map { try alpha.decode($0) }
            return VP9TestDecoder.rgba(c, alpha: a)
        }
    }

    func testAlphaWebMHasTheStructureBrowsersReadAndDecodes() throws {
        let frames = (0..<6).map { sticker(96, 96, phase: $0) }
        let delays = [Delay(numerator: 1, denominator: 30), Delay(milliseconds: 80), Delay(numerator: 1, denominator: 7),
                      Delay(milliseconds: 40), Delay(numerator: 1, denominator: 3), Delay(milliseconds: 100)]
        let bytes = try WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: 20))
        let (seg, blocks) = try read(bytes)

        let track = try XCTUnwrap(seg.find(tracks, trackEntry))
        XCTAssertEqual(track.first(0x86)?.string, "V_VP9")
        XCTAssertEqual(track.first(0xD7)?.unsigned, 1)
        XCTAssertEqual(track.first(0x83)?.unsigned, 1)
        XCTAssertNil(track.first(0x23_E383), "variable delays: no DefaultDuration")
        XCTAssertEqual(track.find(video, 0x53C0)?.unsigned, 1, "AlphaMode")
        XCTAssertEqual(track.find(video, 0xB0)?.unsigned, 96)
        XCTAssertEqual(track.find(video, 0xBA)?.unsigned, 96)
        XCTAssertEqual(seg.find(info, 0x2AD7B1)?.unsigned, 1_000_000)

        let times = Delay.millisecondTimeline(delays)
        XCTAssertEqual(seg.find(info, 0x4489)?.float, Double(times.last!))
        XCTAssertEqual(blocks.map(\.time), Array(times.dropLast()), "block timestamps")
        XCTAssertEqual(blocks.map(\.duration), zip(times.dropFirst(), times).map { $0 - $1 }, "block durations")
        XCTAssertEqual(blocks.map(\.keyframe), [true] + Array(repeating: false, count: 5))
        XCTAssertEqual(blocks.dropFirst().map(\.reference), zip(times.dropLast().dropLast(), times.dropFirst().dropLast()).map { Int64($0 - $1) })
        XCTAssertTrue(blocks.allSatisfy { $0.alpha != nil })

        let decoded = try decodeAll(blocks)
        XCTAssertEqual(decoded.count, 6)
        for (i, image) in decoded.enumerated() {
            XCTAssertEqual([image.width, image.height], [96, 96])
            let d = ImageDifference(frames[i], image)
            // Measured at cq 20 (alpha at the colour's level): alpha mean error 0.40–0.47, PSNR 32.3–34.6 dB.
            XCTAssertLessThan(d.alphaMean, 1.0, "frame \(i)")
            XCTAssertGreaterThan(d.premultipliedPSNR, 30, "frame \(i)")
        }
    }

    func testOpaqueFramesGiveSimpleBlocksWithoutAlphaAndADefaultDuration() throws {
        let frames = (0..<4).map { sticker(75, 61, phase: $0, opaque: true) }   // odd sizes
        let delays = Array(repeating: Delay(numerator: 1, denominator: 30), count: 4)
        let bytes = try WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: 24),
                                           options: WebMOptions(twoPass: false))
        let (seg, blocks) = try read(bytes)
        let track = try XCTUnwrap(seg.find(tracks, trackEntry))
        XCTAssertEqual(track.first(0x23_E383)?.unsigned, 33_333_333)
        XCTAssertNil(track.find(video, 0x53C0))
        XCTAssertEqual(seg.first(cluster)?.all(0xA3).count, 4, "SimpleBlocks")
        XCTAssertEqual(blocks.map(\.time), [0, 33, 67, 100])
        XCTAssertTrue(blocks.allSatisfy { $0.alpha == nil && $0.duration == nil })
        let decoded = try decodeAll(blocks)
        for (i, image) in decoded.enumerated() {
            XCTAssertEqual([image.width, image.height], [75, 61])
            XCTAssertGreaterThan(ImageDifference(frames[i], image).premultipliedPSNR, 30, "frame \(i)")
        }
    }

    func testKeyframeIntervalStartsClustersWithCues() throws {
        let frames = (0..<7).map { sticker(64, 64, phase: $0) }
        let bytes = try WebMEncoder.encode(frames: frames, delays: Array(repeating: Delay(milliseconds: 50), count: 7),
                                           rate: .constantQuality(cqLevel: 30), options: WebMOptions(keyframeInterval: 3))
        let (seg, blocks) = try read(bytes)
        XCTAssertEqual(blocks.map(\.keyframe), [true, false, false, true, false, false, true])
        XCTAssertEqual(seg.all(cluster).count, 3)
        XCTAssertEqual(seg.first(cues)?.all(0xBB).count, 3)
        XCTAssertEqual(try decodeAll(blocks).count, 7)
    }

    func testBitrateAimsAtASize() throws {
        let frames = (0..<10).map { sticker(128, 128, phase: $0) }
        let delays = Array(repeating: Delay(milliseconds: 100), count: 10)   // one second
        let small = try WebMEncoder.encode(frames: frames, delays: delays, rate: .bitrate(kilobitsPerSecond: 60))
        let large = try WebMEncoder.encode(frames: frames, delays: delays, rate: .bitrate(kilobitsPerSecond: 400))
        XCTAssertLessThan(small.count, large.count)
        XCTAssertEqual(try decodeAll(read(small).blocks).count, 10)
    }

    func testSizeFallsAsTheQuantizerRises() throws {
        let frames = (0..<4).map { sticker(96, 96, phase: $0) }
        let delays = Array(repeating: Delay(milliseconds: 100), count: 4)
        let sizes = try [10, 25, 40, 55].map {
            try WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: $0),
                                   options: WebMOptions(twoPass: false)).count
        }
        XCTAssertEqual(sizes, sizes.sorted(by: >), "sizes \(sizes)")
    }

    func testSameInputGivesSameBytesAlsoConcurrently() throws {
        let frames = (0..<5).map { sticker(64, 64, phase: $0) }
        let delays = Array(repeating: Delay(milliseconds: 60), count: 5)
        let options = WebMOptions(speed: 4)
        let first = try WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: 30), options: options)
        XCTAssertEqual(try WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: 30), options: options), first)
        let results = ConcurrentResults(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { i in
            results.set(i, try? WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: 30),
                                                   options: options))
        }
        XCTAssertTrue(results.values.allSatisfy { $0 == first })
    }

    func testRealtimeDeadlineDecodesAndRepeatsItsBytes() throws {
        let frames = (0..<6).map { sticker(96, 96, phase: $0) }
        let delays = Array(repeating: Delay(milliseconds: 50), count: 6)
        let options = WebMOptions(speed: 5, twoPass: false, lookahead: 0, realtime: true)
        let bytes = try WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: 20), options: options)
        XCTAssertEqual(try WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: 20), options: options), bytes)
        let good = try WebMEncoder.encode(frames: frames, delays: delays, rate: .constantQuality(cqLevel: 20),
                                          options: WebMOptions(speed: 5, twoPass: false, lookahead: 0))
        XCTAssertNotEqual(bytes, good, "the realtime deadline is a different encoder mode")
        let decoded = try decodeAll(try read(bytes).blocks)
        XCTAssertEqual(decoded.count, 6)
        for (i, image) in decoded.enumerated() {
            let d = ImageDifference(frames[i], image)
            XCTAssertLessThan(d.alphaMean, 1.5, "frame \(i)")
            XCTAssertGreaterThan(d.premultipliedPSNR, 28, "frame \(i)")
        }
    }

    /// With `stopPast` under the file's packets, the encode ends part-way with `WebMStopped`,
    /// its estimate near the packets' real total: in the colour stream for opaque frames, in the
    /// alpha stream (the colour stream counted whole) for frames with alpha. With `stopPast` at
    /// the file's size, the same bytes as without.
    func testStopPastEndsAnEncodeOnceItsPacketsPassIt() throws {
        let delays = Array(repeating: Delay(milliseconds: 50), count: 24)
        let options = WebMOptions(speed: 8, twoPass: false, lookahead: 0, realtime: true)
        for opaque in [true, false] {
            let frames = (0..<24).map { sticker(96, 96, phase: $0, opaque: opaque) }
            func encode(stopPast: Int?) throws -> [UInt8] {
                try WebMEncoder.encode(width: 96, height: 96, delays: delays, rate: .constantQuality(cqLevel: 10),
                                       options: options, stopPast: stopPast) { body in
                    for (i, f) in frames.enumerated() { try f.pixels.withUnsafeBytes { try body(i, $0) } }
                }
            }
            let whole = try encode(stopPast: nil)
            XCTAssertEqual(try encode(stopPast: whole.count), whole, "opaque \(opaque)")
            let blocks = try read(whole).blocks
            let color = blocks.reduce(0) { $0 + $1.color.count }
            let packets = color + blocks.reduce(0) { $0 + ($1.alpha?.count ?? 0) }
            XCTAssertEqual(blocks.contains { $0.alpha != nil }, !opaque)
            do {
                _ = try encode(stopPast: packets * 2 / 3)
                XCTFail("not stopped (opaque \(opaque))")
            } catch let stopped as WebMStopped {
                XCTAssertLessThan(stopped.framesCoded, 24, "opaque \(opaque)")
                XCTAssertGreaterThan(Double(stopped.estimatedBytes), 0.8 * Double(packets), "opaque \(opaque)")
                XCTAssertLessThan(Double(stopped.estimatedBytes), 1.25 * Double(packets), "opaque \(opaque)")
                // With alpha, the colour stream was coded whole before the stop.
                if !opaque { XCTAssertGreaterThan(stopped.estimatedBytes, color) }
            }
        }
    }

    func testBadParametersAreTypedErrors() {
        let f = sticker(16, 16, phase: 0)
        func reason(_ body: () throws -> Any) -> WebMEncodingError? {
            do { _ = try body(); return nil } catch let e as ImageError { return e.reason as? WebMEncodingError } catch { return nil }
        }
        let d = [Delay(milliseconds: 100)]
        XCTAssertEqual(reason { try WebMEncoder.encode(frames: [], delays: [], rate: .constantQuality(cqLevel: 1)) }, .noFrames)
        XCTAssertEqual(reason { try WebMEncoder.encode(frames: [f], delays: d, rate: .constantQuality(cqLevel: 64)) }, .cqLevel(64))
        XCTAssertEqual(reason { try WebMEncoder.encode(frames: [f], delays: d, rate: .bitrate(kilobitsPerSecond: 0)) }, .bitrate(0))
        XCTAssertEqual(reason { try WebMEncoder.encode(frames: [f], delays: d, rate: .constantQuality(cqLevel: 1),
                                                       options: WebMOptions(speed: 9)) }, .speed(9))
        XCTAssertEqual(reason { try WebMEncoder.encode(frames: [f], delays: d, rate: .constantQuality(cqLevel: 1),
                                                       options: WebMOptions(realtime: true)) }, .realtimeTwoPass)
        XCTAssertEqual(reason { try WebMEncoder.encode(frames: [Image(width: 1, height: 8)], delays: d,
                                                       rate: .constantQuality(cqLevel: 1)) }, .unwritableSize(width: 1, height: 8))
        XCTAssertEqual(reason { try WebMEncoder.encode(frames: [f, sticker(8, 8, phase: 0)], delays: d + d,
                                                       rate: .constantQuality(cqLevel: 1)) },
                       .frameSize(frame: 1, width: 8, height: 8, firstWidth: 16, firstHeight: 16))
    }

    func testLongTimelinesSplitClustersBeforeTheRelativeTimestampOverflows() throws {
        // 40 frames of 1 s (payloads need not be real VP9 for the layout): a cluster holds at
        // most 32.767 s of relative time, and only clusters opening on a keyframe get a cue.
        let frames = (0..<40).map { WebMFrame(color: [UInt8($0)], alpha: nil, start: $0 * 1000, duration: 1000, keyframe: $0 == 0) }
        let muxer = WebMMuxer(width: 8, height: 8, hasAlpha: false, defaultDuration: 1_000_000_000)
        let (seg, blocks) = try read(muxer.file(frames, totalMilliseconds: 40_000))
        XCTAssertEqual(seg.all(cluster).map { $0.first(0xE7)?.unsigned }, [0, 33_000])
        XCTAssertEqual(seg.first(cues)?.all(0xBB).count, 1)
        XCTAssertEqual(blocks.map(\.time), frames.map(\.start))
        XCTAssertEqual(blocks.map(\.color), frames.map(\.color))
    }

    func testEBMLSizesUseTheFewestBytes() {
        XCTAssertEqual(EBMLWriter.size(0), [0x80])
        XCTAssertEqual(EBMLWriter.size(126), [0xFE])
        XCTAssertEqual(EBMLWriter.size(127), [0x40, 0x7F])   // 0xFF alone would mean "unknown"
        XCTAssertEqual(EBMLWriter.size(16382), [0x7F, 0xFE])
        XCTAssertEqual(EBMLWriter.size(16383), [0x20, 0x3F, 0xFF])
        var w = EBMLWriter()
        w.signed(.referenceBlock, -33)
        w.signed(.referenceBlock, -200)
        XCTAssertEqual(w.bytes, [0xFB, 0x81, 0xDF, 0xFB, 0x82, 0xFF, 0x38])
    }
}
