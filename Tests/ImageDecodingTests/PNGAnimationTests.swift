import Foundation
import ImageCore
import XCTest
@testable import ImageDecoding

/// APNG: a real file against Pillow's compositing, synthetic animations against a reference
/// compositor written here, and every structural error (sequence numbers, counts, regions).
final class PNGAnimationTests: XCTestCase {
    typealias T = PNGTestSupport

    struct FrameSpec {
        var x = 0, y = 0, width: Int, height: Int
        var dispose = 0, blend = 0
        var delay = (1, 10)
        /// RGBA8, width·height·4 bytes.
        var pixels: [UInt8]
    }

    /// An RGBA8 APNG. `hidden` is a default image that is not a frame; `sequence` rewrites the
    /// n-th sequence number; `fdatSplit` splits each frame's data over that many fdAT chunks.
    static func apng(width: Int, height: Int, frames: [FrameSpec], plays: Int = 0, hidden: [UInt8]? = nil, numFrames: Int? = nil,
                     sequence: [Int: Int] = [:], fdatSplit: Int = 1, interlace: Bool = false) -> [UInt8] {
        var file = T.signature + T.ihdr(width: width, height: height, depth: 8, colorType: 6, interlace: interlace ? 1 : 0)
        file += T.chunk("acTL", T.be32(numFrames ?? frames.count) + T.be32(plays))
        var seq = 0
        func nextSeq() -> [UInt8] { defer { seq += 1 }; return T.be32(sequence[seq] ?? seq) }
        func data(_ f: FrameSpec) -> [UInt8] {
            T.zlib(T.scanlines(width: f.width, height: f.height, depth: 8, colorType: 6, interlace: interlace, samples: f.pixels.map(Int.init), filterSeed: f.x + f.y))
        }
        if let hidden { file += T.chunk("IDAT", T.zlib(T.scanlines(width: width, height: height, depth: 8, colorType: 6, interlace: interlace, samples: hidden.map(Int.init)))) }
        for (i, f) in frames.enumerated() {
            let fc = T.be32(f.width) + T.be32(f.height) + T.be32(f.x) + T.be32(f.y) + T.be16(f.delay.0) + T.be16(f.delay.1) + [UInt8(f.dispose), UInt8(f.blend)]
            file += T.chunk("fcTL", nextSeq() + fc)
            if i == 0 && hidden == nil {
                file += T.chunk("IDAT", data(f))
            } else {
                let z = data(f)
                let part = (z.count + fdatSplit - 1) / fdatSplit
                var k = 0
                while k < z.count {
                    file += T.chunk("fdAT", nextSeq() + Array(z[k..<min(z.count, k + part)]))
                    k += part
                }
            }
        }
        return file + T.chunk("IEND", [])
    }

    /// The APNG spec's composition, written plainly in floating point: dispose the previous
    /// frame, draw this one (SOURCE replaces; OVER is straight-alpha source-over), snapshot.
    static func reference(width: Int, height: Int, frames: [FrameSpec]) -> [[UInt8]] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var out: [[UInt8]] = []
        var previous: (FrameSpec, Int, [UInt8])? = nil
        for (i, f) in frames.enumerated() {
            if let (p, dispose, before) = previous {
                for y in p.y..<(p.y + p.height) {
                    for x in p.x..<(p.x + p.width) {
                        for c in 0..<4 {
                            let at = (y * width + x) * 4 + c
                            if dispose == 1 { canvas[at] = 0 } else if dispose == 2 { canvas[at] = before[at] }
                        }
                    }
                }
            }
            let before = canvas
            for y in 0..<f.height {
                for x in 0..<f.width {
                    let s = Array(f.pixels[((y * f.width + x) * 4)..<((y * f.width + x) * 4 + 4)]).map(Double.init)
                    let at = ((f.y + y) * width + f.x + x) * 4
                    if f.blend == 0 {
                        for c in 0..<4 { canvas[at + c] = UInt8(s[c]) }
                        continue
                    }
                    let d = Array(canvas[at..<(at + 4)]).map(Double.init)
                    let sa = s[3] / 255, da = d[3] / 255
                    let oa = sa + da * (1 - sa)
                    if oa == 0 || sa == 0 { continue }
                    for c in 0..<3 { canvas[at + c] = UInt8(((s[c] * sa + d[c] * da * (1 - sa)) / oa).rounded()) }
                    canvas[at + 3] = UInt8((oa * 255).rounded())
                }
            }
            out.append(canvas)
            previous = (f, i == 0 && f.dispose == 2 ? 1 : f.dispose, before)
        }
        return out
    }

    static func solid(_ w: Int, _ h: Int, _ rgba: [UInt8]) -> [UInt8] { (0..<(w * h)).flatMap { _ in rgba } }

    func decode(_ file: [UInt8], lenient: Bool = false, firstFrameOnly: Bool = false) throws -> DecodedImage {
        try PNGDecoder.decode(file, options: DecodeOptions(lenient: lenient, firstFrameOnly: firstFrameOnly))
    }

    // MARK: - Real file

    func testManekiNekoMatchesPillow() throws {
        let bytes = try T.fixture("png/maneki_neko_palette_3f.apng")
        let manifest = try String(contentsOf: T.fixtures.appendingPathComponent("png/maneki_frames.txt"), encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").map(String.init) }
        let d = try decode(bytes)
        XCTAssertEqual(d.format, .apng)
        XCTAssertEqual(d.animation.width, 240)
        XCTAssertEqual(d.animation.height, 240)
        XCTAssertEqual(d.animation.frames.count, 3)
        XCTAssertEqual(manifest.count, 3)
        XCTAssertEqual(d.animation.loopCount, 1)
        for (i, f) in d.animation.frames.enumerated() {
            XCTAssertEqual(f.delay, Delay(numerator: 1, denominator: 1))
            XCTAssertEqual(Int(f.delay.milliseconds.rounded()), Int(manifest[i][1]))
            XCTAssertEqual(T.fnv1a64(f.image.pixels), manifest[i][2], "frame \(i) differs from Pillow")
            XCTAssertEqual(Int(manifest[i][3]), d.animation.loopCount)
        }
        // libpng reads only the default image, which here is frame 0.
        guard case .success(let (_, _, first)) = T.libpngRGBA(bytes) else { return XCTFail("libpng refused the file") }
        XCTAssertEqual(d.animation.frames[0].image.pixels, first)

        let one = try decode(bytes, firstFrameOnly: true)
        XCTAssertEqual(one.animation.frames.count, 1)
        XCTAssertEqual(one.animation.frames[0], d.animation.frames[0])
        XCTAssertEqual(try ImageDecoder.decode(bytes).animation.frames.count, 3)
    }

    func testTruncatedAPNGFixture() throws {
        let bytes = try T.fixture("broken/truncated_apng_60pct.png")
        XCTAssertThrowsError(try decode(bytes)) { e in
            let e = e as! ImageError
            XCTAssertEqual(e.format, .apng)
            guard case .endsInChunk(227_407, _, _, _)? = e.reason as? PNGError else { return XCTFail("\(e)") }
        }
        let d = try decode(bytes, lenient: true)
        XCTAssertEqual(d.format, .apng)
        XCTAssertEqual(d.animation.width, 480)
        XCTAssertGreaterThan(d.animation.frames.count, 1)
        XCTAssertLessThan(d.animation.frames.count, 34)
        XCTAssertTrue(d.warnings.contains("kept \(d.animation.frames.count) of 34 frames"), "\(d.warnings)")
    }

    // MARK: - Composition

    func testDisposeAndBlendByHand() throws {
        let red: [UInt8] = [255, 0, 0, 255], halfBlue: [UInt8] = [0, 0, 255, 128], green: [UInt8] = [0, 255, 0, 255]
        let frames = [
            FrameSpec(width: 4, height: 4, dispose: 0, blend: 0, pixels: Self.solid(4, 4, red)),
            FrameSpec(x: 1, y: 1, width: 2, height: 2, dispose: 1, blend: 1, pixels: Self.solid(2, 2, halfBlue)),
            FrameSpec(x: 0, y: 0, width: 1, height: 1, dispose: 2, blend: 0, pixels: green),
            FrameSpec(x: 3, y: 3, width: 1, height: 1, dispose: 0, blend: 1, pixels: [9, 9, 9, 0]),
        ]
        let d = try decode(Self.apng(width: 4, height: 4, frames: frames))
        let f = d.animation.frames.map(\.image)
        XCTAssertEqual(f.count, 4)
        XCTAssertEqual(f[0].pixels, Self.solid(4, 4, red))
        // Half blue over red: α = 1, R = 255·127/255 = 127, B = 255·128/255 = 128.
        XCTAssertEqual(f[1][1, 1], RGBA(127, 0, 128, 255))
        XCTAssertEqual(f[1][0, 0], RGBA(255, 0, 0, 255))
        // Frame 1 disposes to background: its 2×2 turns transparent; green drawn at (0,0).
        XCTAssertEqual(f[2][1, 1], RGBA(0, 0, 0, 0))
        XCTAssertEqual(f[2][2, 2], RGBA(0, 0, 0, 0))
        XCTAssertEqual(f[2][0, 0], RGBA(0, 255, 0, 255))
        XCTAssertEqual(f[2][3, 3], RGBA(255, 0, 0, 255))
        // Frame 2 disposes to previous: (0,0) is red again; a transparent pixel OVER changes nothing.
        XCTAssertEqual(f[3][0, 0], RGBA(255, 0, 0, 255))
        XCTAssertEqual(f[3][3, 3], RGBA(255, 0, 0, 255))
        XCTAssertEqual(f[3][1, 1], RGBA(0, 0, 0, 0))
        XCTAssertEqual(f.map(\.pixels), Self.reference(width: 4, height: 4, frames: frames))
    }

    func testOverOnPartlyTransparentCanvas() throws {
        // 50 % grey canvas under 25 % red: αo = 64/255 + 128/255·191/255 ≈ 0.627 → 160;
        // R = (255·64·255 + 200·128·191) / (64·255 + 128·191) = 9051680/40768 ≈ 222.03 → 222.
        let frames = [
            FrameSpec(width: 1, height: 1, pixels: [200, 200, 200, 128]),
            FrameSpec(width: 1, height: 1, blend: 1, pixels: [255, 0, 0, 64]),
        ]
        let d = try decode(Self.apng(width: 1, height: 1, frames: frames))
        XCTAssertEqual(d.animation.frames[1].image[0, 0], RGBA(222, 120, 120, 160))
        XCTAssertEqual(d.animation.frames.map(\.image.pixels), Self.reference(width: 1, height: 1, frames: frames))
    }

    func testFramesFarApartAreHeldAsRegionsAndMatchTheReferenceCompositor() throws {
        // Random frames (every dispose and blend op) around three spots of a 1000² canvas too far
        // apart to share a box, over a hidden default image: each spot is one region, and the
        // frames are the reference compositor's whole canvases.
        var rng = T.Random(state: 14)
        let (w, h) = (1_000, 1_000)
        let spots = [(0, 0), (480, 480), (960, 960)]
        var frames: [FrameSpec] = []
        for i in 0..<12 {
            let (sx, sy) = spots[i % 3]
            let fw = 1 + rng.below(40), fh = 1 + rng.below(40)
            let x = sx + rng.below(41 - fw), y = sy + rng.below(41 - fh)
            let pixels = (0..<(fw * fh * 4)).map { _ in UInt8(rng.below(256)) }
            frames.append(FrameSpec(x: x, y: y, width: fw, height: fh, dispose: rng.below(3), blend: rng.below(2), pixels: pixels))
        }
        let file = Self.apng(width: w, height: h, frames: frames, hidden: Self.solid(w, h, [1, 2, 3, 4]))
        var held: [Int] = []
        _ = try ImageDecoder.decodeCanvas(file) { held.append($0.regions.count) }
        XCTAssertEqual(held, Array(repeating: 3, count: frames.count))
        let d = try decode(file)
        let expected = Self.reference(width: w, height: h, frames: frames)
        XCTAssertEqual(d.animation.frames.count, frames.count)
        for (i, f) in d.animation.frames.enumerated() {
            let diff = zip(f.image.pixels, expected[i]).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(diff, 1, "frame \(i)")
        }
    }

    func testRandomAnimationsMatchReferenceCompositor() throws {
        var rng = T.Random(state: 2026)
        for trial in 0..<40 {
            let w = 1 + rng.below(9), h = 1 + rng.below(9)
            var frames: [FrameSpec] = []
            let useHidden = rng.below(2) == 0
            for i in 0..<(1 + rng.below(6)) {
                let full = i == 0 && !useHidden
                let fw = full ? w : 1 + rng.below(w), fh = full ? h : 1 + rng.below(h)
                let x = full ? 0 : rng.below(w - fw + 1), y = full ? 0 : rng.below(h - fh + 1)
                let alphas: [UInt8] = [0, 1, 64, 128, 254, 255]
                let px = (0..<(fw * fh)).flatMap { _ -> [UInt8] in
                    [UInt8(rng.below(256)), UInt8(rng.below(256)), UInt8(rng.below(256)), rng.below(3) == 0 ? UInt8(rng.below(256)) : alphas[rng.below(alphas.count)]]
                }
                frames.append(FrameSpec(x: x, y: y, width: fw, height: fh, dispose: rng.below(3), blend: rng.below(2), delay: (rng.below(100), rng.below(3) * 50), pixels: px))
            }
            let file = Self.apng(width: w, height: h, frames: frames, plays: trial, hidden: useHidden ? Self.solid(w, h, [1, 2, 3, 4]) : nil, fdatSplit: 1 + rng.below(3))
            let d = try decode(file)
            let expected = Self.reference(width: w, height: h, frames: frames)
            XCTAssertEqual(d.animation.frames.count, frames.count)
            XCTAssertEqual(d.animation.loopCount, trial)
            for (i, f) in d.animation.frames.enumerated() {
                XCTAssertEqual(f.delay, Delay(numerator: frames[i].delay.0, denominator: frames[i].delay.1))
                let diff = zip(f.image.pixels, expected[i]).map { abs(Int($0) - Int($1)) }.max() ?? 0
                XCTAssertLessThanOrEqual(diff, 1, "trial \(trial) frame \(i)")
            }
        }
    }

    func testInterlacedFramesDecodeLikeProgressiveOnes() throws {
        var rng = T.Random(state: 3)
        let frames = [
            FrameSpec(width: 11, height: 9, pixels: (0..<(11 * 9 * 4)).map { _ in UInt8(rng.below(256)) }),
            FrameSpec(x: 2, y: 3, width: 7, height: 5, dispose: 2, blend: 1, pixels: (0..<(7 * 5 * 4)).map { _ in UInt8(rng.below(256)) }),
            FrameSpec(x: 9, y: 0, width: 2, height: 9, blend: 1, pixels: (0..<(2 * 9 * 4)).map { _ in UInt8(rng.below(256)) }),
        ]
        let a = try decode(Self.apng(width: 11, height: 9, frames: frames))
        let b = try decode(Self.apng(width: 11, height: 9, frames: frames, interlace: true))
        XCTAssertEqual(a.animation, b.animation)
        XCTAssertEqual(a.animation.frames.count, 3)
        let expected = Self.reference(width: 11, height: 9, frames: frames)
        for (i, f) in b.animation.frames.enumerated() {
            XCTAssertLessThanOrEqual(zip(f.image.pixels, expected[i]).map { abs(Int($0) - Int($1)) }.max() ?? 0, 1, "frame \(i)")
        }
    }

    func testFirstFrameDisposePreviousActsAsBackground() throws {
        let frames = [
            FrameSpec(x: 1, y: 0, width: 1, height: 1, dispose: 2, pixels: [10, 20, 30, 255]),
            FrameSpec(x: 0, y: 0, width: 1, height: 1, blend: 1, pixels: [1, 1, 1, 255]),
        ]
        // A hidden default image lets frame 0 be smaller than the canvas.
        let d = try decode(Self.apng(width: 2, height: 1, frames: frames, hidden: Self.solid(2, 1, [99, 99, 99, 255])))
        XCTAssertEqual(d.animation.frames.count, 2, "the default image is not a frame")
        XCTAssertEqual(d.animation.frames[0].image.pixels, [0, 0, 0, 0, 10, 20, 30, 255])
        XCTAssertEqual(d.animation.frames[1].image.pixels, [1, 1, 1, 255, 0, 0, 0, 0])
        XCTAssertFalse(d.animation.frames.contains { $0.image.pixels.contains(99) })
    }

    func testDelaysLoopCountAndFirstFrameOnly() throws {
        let frames = (0..<3).map { i in FrameSpec(width: 2, height: 2, delay: [(1, 0), (3, 7), (0, 1)][i], pixels: Self.solid(2, 2, [UInt8(i), 0, 0, 255])) }
        let file = Self.apng(width: 2, height: 2, frames: frames, plays: 5, fdatSplit: 2)
        let d = try decode(file)
        XCTAssertEqual(d.animation.frames.map(\.delay), [Delay(numerator: 1, denominator: 100), Delay(numerator: 3, denominator: 7), .zero])
        XCTAssertEqual(d.animation.loopCount, 5)
        let first = try decode(file, firstFrameOnly: true)
        XCTAssertEqual(first.animation.frames.count, 1)
        XCTAssertEqual(first.animation.frames[0].image.pixels, Self.solid(2, 2, [0, 0, 0, 255]))
        // firstFrameOnly stops at the first shown frame: damage after it goes unnoticed.
        let cut = Array(file.prefix(file.count - 30))
        XCTAssertEqual(try decode(cut, firstFrameOnly: true).animation.frames.count, 1)
    }

    // MARK: - Structural errors

    /// Decoding `file` must show its default image (here frame 0) as a still, noting `reason`:
    /// what the APNG spec asks of a decoder that finds an error before the animation starts.
    func assertShowsDefaultImage(_ file: [UInt8], _ reason: PNGError, line: UInt = #line) {
        do {
            let d = try decode(file)
            XCTAssertEqual(d.format, .png, line: line)
            XCTAssertEqual(d.animation.frames.count, 1, line: line)
            XCTAssertEqual(d.warnings, [reason.stillNote], line: line)
        } catch {
            XCTFail("\(error); expected the default image with \(reason)", line: line)
        }
    }

    func testSequenceNumbers() throws {
        let frames = (0..<3).map { i in FrameSpec(width: 2, height: 2, pixels: Self.solid(2, 2, [UInt8(i * 50), 0, 0, 255])) }
        // Sequence: fcTL 0 (IDAT), fcTL 1, fdAT 2, fcTL 3, fdAT 4.
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: frames, sequence: [2: 7]), .sequenceNumber(chunk: "fdAT", found: 7, expected: 2))
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: frames, sequence: [0: 1]), .sequenceNumber(chunk: "fcTL", found: 1, expected: 0))
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: frames, sequence: [3: 2]), .sequenceNumber(chunk: "fcTL", found: 2, expected: 3))
        // Lenient mode plays them, with a warning.
        let d = try decode(Self.apng(width: 2, height: 2, frames: frames, sequence: [2: 7]), lenient: true)
        XCTAssertEqual(d.animation.frames.count, 3)
        XCTAssertTrue(d.warnings.contains("fdAT sequence number 7, expected 2"))
    }

    func testFrameCountsAndRegions() throws {
        let two = (0..<2).map { _ in FrameSpec(width: 2, height: 2, pixels: Self.solid(2, 2, [1, 2, 3, 255])) }
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: two, numFrames: 3), .frameCountMismatch(declared: 3, found: 2))
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: two, numFrames: 1), .moreFrameControlsThanFrames(declared: 1))
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: two, numFrames: 0), .zeroFrames)
        var outside = two
        outside[1] = FrameSpec(x: 1, y: 1, width: 2, height: 1, pixels: Self.solid(2, 1, [1, 2, 3, 255]))
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: outside),
                                .frameOutsideCanvas(frame: 1, width: 2, height: 1, x: 1, y: 1, canvasWidth: 2, canvasHeight: 2))
        var small = two
        small[0] = FrameSpec(width: 1, height: 2, pixels: Self.solid(1, 2, [1, 2, 3, 255]))
        // The IDAT image of this file is 1×2 on a 2×2 canvas: its data is too short for the
        // default image itself, which strict mode refuses as damaged data.
        XCTAssertThrowsError(try decode(Self.apng(width: 2, height: 2, frames: small)))
        var badOps = two
        badOps[1].dispose = 3
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: badOps), .invalidDisposeOp(frame: 1, 3))
        badOps[1].dispose = 0
        badOps[1].blend = 2
        assertShowsDefaultImage(Self.apng(width: 2, height: 2, frames: badOps), .invalidBlendOp(frame: 1, 2))
        // Lenient mode keeps the frames before a bad fcTL, or shows the IDAT image when frame 0 is bad.
        let keptOne = try decode(Self.apng(width: 2, height: 2, frames: outside), lenient: true)
        XCTAssertEqual(keptOne.format, .apng)
        XCTAssertEqual(keptOne.animation.frames.count, 1)
        XCTAssertTrue(keptOne.warnings.contains { $0.contains("outside the 2×2 canvas") }, "\(keptOne.warnings)")
        let still = try decode(Self.apng(width: 2, height: 2, frames: small), lenient: true)
        XCTAssertEqual(still.format, .png)
        XCTAssertEqual(still.animation.width, 2)
        // Lenient mode keeps the frames that exist.
        XCTAssertEqual(try decode(Self.apng(width: 2, height: 2, frames: two, numFrames: 3), lenient: true).animation.frames.count, 2)
    }

    func testFrameLimitsAreCheckedBeforeDecoding() throws {
        let two = (0..<2).map { _ in FrameSpec(width: 4, height: 4, pixels: Self.solid(4, 4, [1, 2, 3, 255])) }
        XCTAssertThrowsError(try PNGDecoder.decode(Self.apng(width: 4, height: 4, frames: two), options: DecodeOptions(limits: Limits(maxFrames: 1)))) { e in
            XCTAssertEqual((e as? ImageError)?.description, "APNG: more than 1 frame, over the frame limit")
        }
        let tight = DecodeOptions(limits: Limits(maxTotalBytes: 100))
        XCTAssertThrowsError(try PNGDecoder.decode(Self.apng(width: 4, height: 4, frames: two), options: tight)) { e in
            XCTAssertEqual((e as? ImageError)?.description, "APNG: 2 frames of 4×4 decode to more than the 100-byte limit")
        }
    }

    func testTruncatedAnimationKeepsFramesInLenientMode() throws {
        let frames = (0..<4).map { i in FrameSpec(width: 8, height: 8, pixels: (0..<256).map { UInt8(($0 * (i + 3)) % 256) | 0x01 }) }
        let file = Self.apng(width: 8, height: 8, frames: frames)
        let full = try decode(file)
        let third = T.chunkOffsets(file).filter { $0.type == "fdAT" }[1]
        let cut = Array(file.prefix(third.offset + 8 + 4 + third.length / 2))
        XCTAssertThrowsError(try decode(cut)) { e in
            XCTAssertEqual(e as? ImageError, ImageError(.apng, PNGError.endsInChunk(fileSize: cut.count, chunk: "fdAT", length: third.length, offset: third.offset)))
        }
        let d = try decode(cut, lenient: true)
        XCTAssertEqual(d.animation.frames.count, 3)
        XCTAssertEqual(Array(d.animation.frames[0...1]), Array(full.animation.frames[0...1]))
        XCTAssertNotEqual(d.animation.frames[2], full.animation.frames[2])
        XCTAssertTrue(d.warnings.contains("kept 3 of 4 frames"), "\(d.warnings)")
    }

    func testAcTLAfterImageDataIsNotAnimation() throws {
        var file = T.png(width: 1, height: 1, depth: 8, colorType: 6, samples: [1, 2, 3, 4])
        let iend = file.count - 12
        file.insert(contentsOf: T.chunk("acTL", T.be32(2) + T.be32(0)), at: iend)
        let d = try decode(file)
        XCTAssertEqual(d.format, .png)
        XCTAssertEqual(d.animation.frames.count, 1)
        XCTAssertEqual(d.warnings, [PNGError.animationControlAfterImageData.stillNote])
    }
}
