import ImageDecoding
import ImageQuantize
import ImageResize
import PNGEncoding
import StickerEncoding
import TestSupport
import XCTest
@testable import StickerKit

/// `--platform` conversions: rules as data, retiming, the codec search and their reports.
final class PlatformConversionTests: XCTestCase {
    func options(_ target: StickerTarget, tooLong: TooLongPolicy = .speedup) -> ConversionOptions {
        var o = ConversionOptions()
        o.target = target
        o.tooLong = tooLong
        o.maxBytes = Int.max
        return o
    }

    func frames(_ n: Int, ms: Int) -> [Frame] {
        (0..<n).map { i in Frame(image: Image(width: 2, height: 2, pixels: [UInt8(i), 0, 0, 255] + Array(repeating: 0, count: 12)), delay: Delay(milliseconds: ms)) }
    }

    func testRegistryNamesEveryPlatformOnce() {
        let names = StickerTarget.all.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        XCTAssertEqual(StickerTarget.named("WhatsApp"), .whatsapp)
        XCTAssertNil(StickerTarget.named("myspace"))
        XCTAssertEqual(StickerTarget.whatsapp.container(animated: true), .webp)
        XCTAssertEqual(StickerTarget.telegram.container(animated: false), .png)
        XCTAssertEqual(StickerTarget.telegram.container(animated: true), .webm)
        XCTAssertEqual(StickerTarget.signal.container(animated: true), .apng)
    }

    func testSpeedUpEndsExactlyAtTheLimitAndKeepsOrder() {
        let f = Timeline.speedUp(frames(50, ms: 100), toMilliseconds: 3000)   // 5 s → 3 s
        XCTAssertEqual(f.count, 50)
        XCTAssertEqual(Timeline.times(f).last, 3000)
        XCTAssertEqual(f.map { $0.image[0, 0].r }, (0..<50).map(UInt8.init))
    }

    /// With a shortest frame, frames that would be sped up below it keep it and the others share
    /// the rest in proportion: the loop still ends exactly at the limit, in order.
    func testSpeedUpWithAShortestFrameKeepsEveryFrameAtLeastThatLong() throws {
        var f = frames(6, ms: 12_800)
        for i in stride(from: 0, to: 6, by: 2) { f[i] = f[i].shown(for: Delay(milliseconds: 100)) }
        let plain = Timeline.speedUp(f, toMilliseconds: 4000)
        XCTAssertTrue(plain.contains { $0.delay.milliseconds <= 10 }, "the case: plain speed-up makes 10 ms frames")
        let fast = try XCTUnwrap(Timeline.speedUp(f, toMilliseconds: 4000, shortestMs: 12))
        XCTAssertEqual(fast.count, 6)
        XCTAssertEqual(Timeline.times(fast).last, 4000)
        XCTAssertEqual(fast.map { $0.image[0, 0].r }, (0..<6).map(UInt8.init))
        XCTAssertTrue(fast.allSatisfy { $0.delay.milliseconds >= 12 }, "\(fast.map(\.delay.milliseconds))")
        // Long frames keep their proportions.
        let long = fast.enumerated().filter { $0.offset % 2 == 1 }.map(\.element.delay.milliseconds)
        XCTAssertLessThanOrEqual(long.max()! - long.min()!, 1)
        // Every frame at least 12 ms cannot fit 6 frames in 60 ms; nothing that needs no speed-up changes.
        XCTAssertNil(Timeline.speedUp(f, toMilliseconds: 60, shortestMs: 12))
        XCTAssertEqual(try XCTUnwrap(Timeline.speedUp(f, toMilliseconds: 60_000, shortestMs: 12)).map(\.delay), f.map(\.delay))
        // Random loops: exact total, order kept, the floor held.
        var rng = SplitMix64(seed: 12)
        for _ in 0..<200 {
            let loop = frames(Int.random(in: 1...20, using: &rng), ms: 1).map {
                $0.shown(for: Delay(milliseconds: Int.random(in: 1...20_000, using: &rng)))
            }
            let n = loop.count
            let limit = Int.random(in: 1...8000, using: &rng)
            guard let out = Timeline.speedUp(loop, toMilliseconds: limit, shortestMs: 12) else {
                XCTAssertGreaterThan(n * 12, limit)
                continue
            }
            XCTAssertEqual(out.count, n)
            XCTAssertEqual(Timeline.times(out).last, min(limit, Timeline.times(loop).last!))
            XCTAssertTrue(out.allSatisfy { $0.delay.milliseconds >= 12 } || Timeline.times(loop).last! <= limit)
        }
    }

    /// Frames sped up to no time merge into the one before; a first frame sped up to no time keeps
    /// a millisecond taken from the frames after it, so the loop ends exactly at the limit (eleven
    /// 30 ms frames before one of 10.8 minutes, a damaged GIF found by `FuzzPlatforms`, came to
    /// 3.001 s for Signal's 3 s).
    func testSpeedUpNeverLengthensTheLoopPastTheLimit() throws {
        var f = frames(13, ms: 30)
        f[11] = f[11].shown(for: Delay(milliseconds: 647_710))
        let fast = Timeline.speedUp(f, toMilliseconds: 3000)
        XCTAssertEqual(Timeline.times(fast).last, 3000)
        XCTAssertEqual(fast.first?.image[0, 0].r, 0)
        XCTAssertTrue(fast.allSatisfy { $0.delay.milliseconds >= 1 })
        let thinned = Timeline.thin(fast, maxFPS: 30)
        XCTAssertEqual(Timeline.times(thinned).last, 3000)
        // Random loops with frames of every length: the total is exact whatever the speed-up.
        var rng = SplitMix64(seed: 13)
        for _ in 0..<300 {
            let loop = frames(Int.random(in: 1...30, using: &rng), ms: 1).map {
                $0.shown(for: Delay(milliseconds: Int.random(in: 1...(Bool.random(using: &rng) ? 50 : 900_000), using: &rng)))
            }
            let limit = Int.random(in: 1...10_000, using: &rng)
            let out = Timeline.speedUp(loop, toMilliseconds: limit)
            XCTAssertEqual(Timeline.times(out).last, min(limit, Timeline.times(loop).last!), "\(loop.map(\.delay.milliseconds)) → \(limit)")
            XCTAssertEqual(out.first?.image[0, 0].r, 0)
        }
    }

    /// The same shape for Signal: the written animation lasts at most its 3 s as players show it.
    func testSignalSpeedsUpALongFrameWithinItsLimit() throws {
        let shape = (0..<13).map { i -> Frame in
            var img = Image(width: 32, height: 32)
            for y in 4..<28 { for x in 4..<28 { img[x, y] = RGBA(UInt8(i * 19), 80, 160, 255) } }
            return Frame(image: img, delay: Delay(milliseconds: i == 11 ? 647_710 : 30))
        }
        let r = try XCTUnwrap(try StickerConverter.convert(pngAnimation(Animation(width: 32, height: 32, frames: shape)),
                                                            options: options(.signal)).outputs.first?.result.get())
        let d = try ImageDecoder.decode(r.bytes)
        XCTAssertLessThanOrEqual(try XCTUnwrap(Timeline.times(Timeline.displayed(d.animation.frames)).last), 3000)
    }

    func testShownTwiceSplitsAOneFrameLoopAndKeepsEveryOtherLoop() {
        let one = frames(1, ms: 700)
        XCTAssertEqual(Timeline.shownTwice(one, shortestMs: 34).map(\.delay.milliseconds), [350, 350])
        XCTAssertEqual(Timeline.shownTwice(frames(1, ms: 101), shortestMs: 34).map(\.delay.milliseconds), [50, 51])
        // Halves under the shortest frame: each shown for the shortest (a one-picture loop looks
        // the same at any length).
        XCTAssertEqual(Timeline.shownTwice(frames(1, ms: 60), shortestMs: 34).map(\.delay.milliseconds), [34, 34])
        XCTAssertEqual(Timeline.shownTwice(one, shortestMs: 34).map(\.image), [one[0].image, one[0].image])
        XCTAssertEqual(Timeline.shownTwice(frames(3, ms: 50), shortestMs: 34).count, 3)
    }

    func testTrimKeepsTheStartAtOriginalSpeed() {
        let f = Timeline.trim(frames(50, ms: 100), toMilliseconds: 3000)
        XCTAssertEqual(f.count, 30)
        XCTAssertEqual(f.map(\.delay), Array(repeating: Delay(milliseconds: 100), count: 30))
    }

    func testThinKeepsDurationAndRespectsTheFrameRate() {
        let f = Timeline.thin(frames(60, ms: 20), maxFPS: 30)   // 50 fps → every other frame
        XCTAssertEqual(Timeline.times(f).last, 1200)
        XCTAssertEqual(f.count, 30)
        XCTAssertTrue(f.allSatisfy { $0.delay.milliseconds >= 1000.0 / 30 - 0.5 })
    }

    /// Each run of frames within one gap shows the frame shown longest in it: a short first frame
    /// does not take the time of the long frame after it (it was shown for 1.02 s in its place).
    func testThinShowsTheLongestFrameOfEachRun() {
        var f = frames(4, ms: 1000)
        f[0] = f[0].shown(for: Delay(milliseconds: 20))
        let thinned = Timeline.thin(f, maxFPS: 30)
        XCTAssertEqual(thinned.map { $0.image[0, 0].r }, [1, 2, 3])
        XCTAssertEqual(thinned.map(\.delay.milliseconds), [1020, 1000, 1000])
        // Two short frames after a long one join it; a short last run joins the run before.
        var g = frames(5, ms: 10)
        g[1] = g[1].shown(for: Delay(milliseconds: 500))
        g[3] = g[3].shown(for: Delay(milliseconds: 500))
        let h = Timeline.thin(g, maxFPS: 30)
        XCTAssertEqual(h.map { $0.image[0, 0].r }, [1, 3])
        XCTAssertEqual(Timeline.times(h).last, Timeline.times(g).last)
        XCTAssertTrue(h.allSatisfy { $0.delay.milliseconds >= 1000.0 / 30 - 0.5 })
    }

    /// A 4 s, 40-frame moving square on a transparent 96 px canvas.
    func movingSquare() -> Animation {
        AnimationBudgetTests.animation(frames: 40, side: 96, delay: Delay(milliseconds: 100), loops: 0)
    }

    func testWhatsAppAnimationIsWebPWithinItsCapsAndSaysWhatWasChosen() throws {
        let r = try XCTUnwrap(try StickerConverter.convert(pngAnimation(movingSquare()), options: options(.whatsapp))
            .outputs.first?.result.get())
        let decoded = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(decoded.format, .webp)
        XCTAssertEqual(decoded.animation.width, 512)
        XCTAssertEqual(decoded.animation.height, 512)
        XCTAssertLessThanOrEqual(r.bytes.count, StickerTarget.whatsapp.animationBytes)
        XCTAssertEqual(r.report.container, .webp)
        XCTAssertEqual(r.report.platform, "whatsapp")
        XCTAssertNil(r.report.tooLong)   // 4 s is within WhatsApp's 10 s
        XCTAssertEqual(r.report.durationMs, 4000)
        // The search's real encodes, in order: the written file is the last at its level.
        let steps = try XCTUnwrap(r.report.searched)
        XCTAssertTrue(steps.allSatisfy { $0.colors == nil }, "a codec's search has levels, not colours")
        let written = try XCTUnwrap(steps.last { $0.level == r.report.level && $0.frames == r.report.frames })
        XCTAssertEqual(written.bytes, r.bytes.count)
        XCTAssertTrue(written.fits)
        for s in steps where s.estimated != true { XCTAssertEqual(s.fits, s.bytes <= StickerTarget.whatsapp.animationBytes, "\(s)") }
    }

    func testLongAnimationsAreNotTriedLossless() throws {
        /// `n` frames of a flat square sliding over transparency: lossless WebP holds it in little.
        func sliding(_ n: Int) -> Animation {
            let frames = (0..<n).map { f -> Frame in
                var image = Image(width: 64, height: 64)
                for y in 20..<40 { for x in (f % 40)..<(f % 40 + 20) { image[x, y] = RGBA(200, 30, 30, 255) } }
                return Frame(image: image, delay: Delay(milliseconds: 50))
            }
            return Animation(width: 64, height: 64, frames: frames, loopCount: 0)
        }
        func report(_ n: Int) throws -> OutputReport {
            try XCTUnwrap(try StickerConverter.convert(pngAnimation(sliding(n)), options: options(.whatsapp)).outputs.first?.result.get()).report
        }
        let short = try report(Int(CodecBudgetSearch.losslessMaxWork))
        XCTAssertNotEqual(short.mode, .lossy, "\(Int(CodecBudgetSearch.losslessMaxWork)) frames of 512² are tried lossless")
        XCTAssertEqual(short.searched?.first, SearchStep(frames: Int(CodecBudgetSearch.losslessMaxWork), bytes: short.bytes, fits: true),
                       "one lossless encode, the sticker")
        let long = try report(Int(CodecBudgetSearch.losslessMaxWork) + 1)
        XCTAssertEqual(long.mode, .lossy)
        XCTAssertEqual(long.frames, Int(CodecBudgetSearch.losslessMaxWork) + 1)
        XCTAssertEqual(long.searched?.filter { $0.level == nil }, [], "no lossless encode made")
        XCTAssertFalse(long.searched?.isEmpty ?? true)
    }

    /// 1,000 pixels, `partial` of them at alpha 128 and `painted` at 253, the rest opaque or
    /// fully transparent.
    func alphaFrames(partial: Int, painted: Int = 0) -> [Image] {
        let pixels = (0..<1000).flatMap { i -> [UInt8] in
            [9, 9, 9, i < partial ? 128 : i < partial + painted ? 253 : (i % 2 == 0 ? 255 : 0)]
        }
        return [Image(width: 1000, height: 1, pixels: pixels)]
    }

    func testProbeCalibrationFollowsTheNearestRealEncodesAndInterpolatesBetweenThem() {
        XCTAssertEqual(CodecBudgetSearch.calibration(at: 30, []), 1)
        let ratios: [(level: Int, ratio: Double)] = [(19, 3.0), (51, 4.0)]
        XCTAssertEqual(CodecBudgetSearch.calibration(at: 10, ratios), 3.0)
        XCTAssertEqual(CodecBudgetSearch.calibration(at: 19, ratios), 3.0)
        XCTAssertEqual(CodecBudgetSearch.calibration(at: 35, ratios), 3.5, accuracy: 1e-12)
        XCTAssertEqual(CodecBudgetSearch.calibration(at: 51, ratios), 4.0)
        XCTAssertEqual(CodecBudgetSearch.calibration(at: 60, ratios), 4.0)
        XCTAssertEqual(CodecBudgetSearch.calibration(at: 40, [(19, 3.0), (51, 4.0), (43, 2.0)]), 2.125, accuracy: 1e-12)
    }

    func testLongWebMAnimationsAreWrittenAtTheQuickSettings() throws {
        func streamed(_ n: Int, _ w: Int, _ h: Int) -> StreamedFrames {
            StreamedFrames(width: w, height: h, delays: Array(repeating: Delay(milliseconds: 40), count: n), animated: true) { _ in }
        }
        let telegram = try XCTUnwrap(StickerTarget.named("telegram"))
        guard case .webm(let slow) = telegram.animationCodec else { return XCTFail("Telegram animations are WebM") }
        XCTAssertFalse(slow.realtime)
        XCTAssertEqual(CodecBudgetSearch.writing(telegram.animationCodec, streamed(8, 512, 512)), telegram.animationCodec)
        XCTAssertEqual(CodecBudgetSearch.writing(telegram.animationCodec, streamed(16, 512, 256)), telegram.animationCodec)
        XCTAssertEqual(CodecBudgetSearch.writing(telegram.animationCodec, streamed(9, 512, 512)), .webm(CodecBudgetSearch.webmQuick(slow)))
        let quick = CodecBudgetSearch.webmQuick(slow)
        XCTAssertTrue(quick.realtime)
        XCTAssertFalse(quick.twoPass)
        XCTAssertEqual(CodecBudgetSearch.writing(.webm(quick), streamed(90, 512, 512)), .webm(quick))
        let whatsapp = try XCTUnwrap(StickerTarget.named("whatsapp"))
        XCTAssertEqual(CodecBudgetSearch.writing(whatsapp.animationCodec, streamed(90, 512, 512)), whatsapp.animationCodec)
    }

    func testAlphaQualityKeepsAFloorOnlyForFramesWithPartlyTransparentPixels() {
        func floor(partial: Int) -> Int { CodecBudgetSearch.alphaFloor(AlphaProfile.histogram(of: alphaFrames(partial: partial))) }
        XCTAssertEqual(floor(partial: 0), 0)
        XCTAssertEqual(floor(partial: 1), CodecBudgetSearch.alphaDetailFloor)
        XCTAssertEqual(floor(partial: 100), CodecBudgetSearch.alphaDetailFloor)
        XCTAssertEqual(CodecBudgetSearch.alphaQuality(forLevel: 1), 1)
        XCTAssertEqual(CodecBudgetSearch.alphaQuality(forLevel: 1, floor: 25), 25)
        XCTAssertEqual(CodecBudgetSearch.alphaQuality(forLevel: 42, floor: 25), 70)
        XCTAssertEqual(CodecBudgetSearch.alphaQuality(forLevel: 60, floor: 25), 100)
    }

    func testPaintedAlphaKeepsItsNearlyOpaqueValueAmongLibwebpsNumberOfLevels() throws {
        XCTAssertNil(PaintedAlpha(histogram: AlphaProfile.histogram(of: alphaFrames(partial: 100))))
        XCTAssertNil(PaintedAlpha(histogram: AlphaProfile.histogram(of: alphaFrames(partial: 20, painted: 80))))
        let frames = alphaFrames(partial: 5, painted: 95)
        let painted = try XCTUnwrap(PaintedAlpha(histogram: AlphaProfile.histogram(of: frames)))
        XCTAssertEqual(painted.painted, 253)
        XCTAssertEqual(PaintedAlpha.levels(alphaQuality: 25), 7)
        XCTAssertEqual(PaintedAlpha.levels(alphaQuality: 75), 56)
        XCTAssertEqual(PaintedAlpha.levels(alphaQuality: 100), 256)
        for q in [0, 25, 70] {
            let table = painted.table(levels: PaintedAlpha.levels(alphaQuality: q))
            XCTAssertEqual(table[0], 0)
            XCTAssertEqual(table[255], 255)
            XCTAssertEqual(table[253], 253, "alpha quality \(q)")
            XCTAssertLessThanOrEqual(Set(table).count, max(3, PaintedAlpha.levels(alphaQuality: q)))
        }
        let quantized = painted.quantize(StickerFrames(pixels: .rgba(frames), delays: [.zero], animated: false).streamed,
                                         alphaQuality: 25)
        let alphas = Set(stride(from: 3, to: 4000, by: 4).map { try! quantized.images()[0].pixels[$0] })
        XCTAssertTrue(alphas.isSuperset(of: [0, 253, 255]), "\(alphas)")
    }

    func testSignalSpeedsUpALongAnimationAndSaysSo() throws {
        let r = try XCTUnwrap(try StickerConverter.convert(pngAnimation(movingSquare()), options: options(.signal))
            .outputs.first?.result.get())
        let decoded = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(decoded.format, .apng)
        XCTAssertEqual(decoded.animation.width, 512)
        XCTAssertLessThanOrEqual(decoded.animation.duration.milliseconds, 3000.5)
        XCTAssertLessThanOrEqual(r.bytes.count, 300_000)
        XCTAssertEqual(r.report.tooLong, .speedup)
        XCTAssertEqual(r.report.durationInputMs, 4000)
        XCTAssertTrue(r.report.warnings.contains { $0.contains("--too-long speedup") }, "\(r.report.warnings)")
    }

    /// Frames of 10 ms are shown for 100 ms: a speed-up starts from that, and thinning leaves no
    /// frame short enough to be shown for 100 ms again (which would lengthen the file).
    func testSpeedUpOfTooShortDelaysEndsWithinTheLimitAtThePlatformsRate() throws {
        var a = movingSquare()
        a.frames = a.frames.map { Frame(image: $0.image, delay: Delay(milliseconds: 10)) }   // shown: 4 s
        let r = try XCTUnwrap(try StickerConverter.convert(pngAnimation(a), options: options(.signal)).outputs.first?.result.get())
        let decoded = try ImageDecoder.decode(r.bytes)
        let shown = decoded.animation.frames.map(\.delay.displayed.milliseconds)
        XCTAssertLessThanOrEqual(shown.reduce(0, +), 3000.5)
        XCTAssertTrue(shown.allSatisfy { $0 >= 1000.0 / 30 - 1 }, "\(shown)")
        XCTAssertEqual(r.report.durationInputMs, 4000)
        let thinned = Timeline.thin(frames(7, ms: 20), maxFPS: 30)   // 140 ms: starts 0, 40, 80; the end 20 ms after 120
        XCTAssertEqual(thinned.map(\.delay), [40, 40, 60].map { Delay(milliseconds: $0) })
    }

    func testTooLongFailRefusesWithTheFigures() throws {
        let result = try StickerConverter.convert(pngAnimation(movingSquare()), options: options(.signal, tooLong: .fail))
        guard case .failure(let e) = result.outputs.first?.result else { return XCTFail("converted a 4 s animation for Signal") }
        XCTAssertEqual(e, .tooLong(durationMs: 4000, limitMs: 3000, platform: "Signal"))
        // A dry run finds it from the stored delays, without decoding; speedup has nothing to refuse.
        XCTAssertThrowsError(try StickerConverter.preflight(pngAnimation(movingSquare()), options: options(.signal, tooLong: .fail))) {
            XCTAssertEqual($0 as? StickerError, e)
        }
        XCTAssertNoThrow(try StickerConverter.preflight(pngAnimation(movingSquare()), options: options(.signal)))
    }

    func testWhatsAppStillFitsItsSmallerCapAndIsDeterministic() throws {
        let photo = BudgetSearchTests.photoLike(700, seed: 3)
        let data = PNGEncoder.encode(photo, effort: .fast)
        let a = try XCTUnwrap(try StickerConverter.convert(data, options: options(.whatsapp)).outputs.first?.result.get())
        let b = try XCTUnwrap(try StickerConverter.convert(data, options: options(.whatsapp)).outputs.first?.result.get())
        XCTAssertEqual(a.bytes, b.bytes)
        XCTAssertLessThanOrEqual(a.bytes.count, 100_000)
        XCTAssertEqual(try ImageDecoder.decode(a.bytes).format, .webp)
        XCTAssertEqual(a.report.mode, .lossy)
        XCTAssertNotNil(a.report.level)
        XCTAssertGreaterThan(a.report.ssim ?? 0, 0.5)
    }

    /// Flat artwork within WhatsApp's 100 KB is lossless WebP: the first, quicker lossless try
    /// (method 2, effort 50) is kept, pixel-exact; a photo over the cap goes lossy (above).
    func testWhatsAppStillThatFitsLosslessIsExact() throws {
        var art = Image(width: 512, height: 512)
        for y in 0..<512 { for x in 0..<512 {
            let inside = (x - 256) * (x - 256) + (y - 256) * (y - 256) < 200 * 200
            art[x, y] = inside ? RGBA(UInt8(40 + x / 64 * 20), 90, 200, 255) : RGBA(0, 0, 0, 0)
        } }
        let out = try XCTUnwrap(try StickerConverter.convert(PNGEncoder.encode(art, effort: .fast), options: options(.whatsapp))
            .outputs.first?.result.get())
        XCTAssertEqual(out.report.mode, .truecolor, "lossless")
        XCTAssertLessThanOrEqual(out.bytes.count, 100_000)
        let decoded = try ImageDecoder.decode(out.bytes)
        XCTAssertEqual(decoded.format, .webp)
        XCTAssertEqual(decoded.animation.frames[0].image, art, "a 512 px still at 512 px: every visible pixel exact")
    }

    func testMessagesStaysTheDefaultPipeline() throws {
        let data = PNGEncoder.encode(BudgetSearchTests.photoLike(64, seed: 1), effort: .fast)
        let r = try StickerConverter.convert(data, options: ConversionOptions())
        let out = try XCTUnwrap(r.outputs.first?.result.get())
        XCTAssertNil(out.report.platform)
        XCTAssertNil(out.report.container)
        XCTAssertEqual(out.report.size, 408)
    }

    func testLineCanvasFollowsTheArtworksShapeWithEvenSidesAndAMargin() {
        let still = StickerTarget.line.stillBox!, anim = StickerTarget.line.animationBox!
        XCTAssertTrue(still.canvas(forArtwork: 1000, 400, margin: 10) == (370, 370, 160))   // 350 × 140 + 2·10
        XCTAssertTrue(still.canvas(forArtwork: 400, 1000, margin: 10) == (320, 140, 320))   // height-limited: 120 × 300
        XCTAssertTrue(anim.canvas(forArtwork: 500, 500, margin: 10) == (270, 270, 270))
        XCTAssertTrue(anim.canvas(forArtwork: 960, 540, margin: 10) == (320, 320, 190))     // 300 × 168.75 → 169 + 20 → 190
        for (w, h) in [(1, 1), (31, 7), (7, 31), (1000, 999), (999, 1000), (1100, 1000), (1199, 1000), (3, 2000)] {
            for box in [still, anim] {
                let c = box.canvas(forArtwork: w, h, margin: box.margin)
                XCTAssertTrue(box.allows(width: c.width, height: c.height) || box.minLongSide == nil, "\(w)×\(h) → \(c)")
                XCTAssertTrue(c.width % 2 == 0 && c.height % 2 == 0 && c.width <= box.width && c.height <= box.height, "\(w)×\(h) → \(c)")
            }
            let c = anim.canvas(forArtwork: w, h, margin: 10)
            XCTAssertTrue(anim.allows(width: c.width, height: c.height), "\(w)×\(h) → \(c)")
        }
    }

    /// LINE: a wide 40-frame, 4 s animation becomes an even-sided APNG within 320×270 with at
    /// most 20 frames, played once (4 s is the whole allowance); a 2-frame blink is played three
    /// times in a row to reach 5 frames.
    func testLineAnimationsObeyFrameCountLoopsAndCanvas() throws {
        var wide: [Frame] = []
        for f in 0..<40 {
            var img = Image(width: 192, height: 96)
            for y in 30..<60 { for x in (f * 3)..<(f * 3 + 30) { img[x, y] = RGBA(220, UInt8(f * 6), 40, 255) } }
            wide.append(Frame(image: img, delay: Delay(milliseconds: 100)))
        }
        let a = Animation(width: 192, height: 96, frames: wide, loopCount: 0)
        let r = try XCTUnwrap(try StickerConverter.convert(pngAnimation(a), options: options(.line)).outputs.first?.result.get())
        let d = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(d.format, .apng)
        XCTAssertEqual(d.animation.width, 320)
        XCTAssertEqual(d.animation.height, 170)   // 300 × 150 + 2·10
        XCTAssertTrue((5...20).contains(d.animation.frames.count), "\(d.animation.frames.count)")
        XCTAssertEqual(d.animation.loopCount, 1)
        XCTAssertEqual(d.animation.duration.milliseconds, 4000, accuracy: 0.5)
        XCTAssertTrue(r.report.warnings.contains { $0.contains("frames kept for LINE") }, "\(r.report.warnings)")
        // The margin: the outermost 10 px are transparent in every frame.
        for f in d.animation.frames { for x in 0..<320 { XCTAssertEqual(f.image[x, 5].a, 0) } }

        let blink = [RGBA(255, 0, 0, 255), RGBA(0, 0, 255, 255)].map { c -> Frame in
            var img = Image(width: 64, height: 64)
            for y in 8..<56 { for x in 8..<56 { img[x, y] = c } }
            return Frame(image: img, delay: Delay(milliseconds: 500))
        }
        let b = try XCTUnwrap(try StickerConverter.convert(pngAnimation(Animation(width: 64, height: 64, frames: blink)),
                                                            options: options(.line)).outputs.first?.result.get())
        let db = try ImageDecoder.decode(b.bytes)
        XCTAssertEqual(db.animation.frames.count, 6)
        XCTAssertEqual(db.animation.width, 270)
        XCTAssertEqual(db.animation.height, 270)
        XCTAssertEqual(db.animation.loopCount, 1)   // 3 s per loop: one play within 4 s
    }

    /// Two distinct frames of 2 s (a third repeats the second): repeated three times the loop
    /// would last 12 s, so `speedup` plays it 3× as fast; `trim` may not, and LINE refuses 2 frames.
    func testLineRepeatsAndSpeedsUpTooFewFramesOrRefusesThem() throws {
        let two = (0..<3).map { i -> Frame in
            var img = Image(width: 32, height: 32)
            img[min(i, 1), min(i, 1)] = RGBA(255, 255, 255, 255)
            return Frame(image: img, delay: Delay(milliseconds: i == 0 ? 2000 : 1000))
        }
        let data = try pngAnimation(Animation(width: 32, height: 32, frames: two))
        let r = try XCTUnwrap(try StickerConverter.convert(data, options: options(.line)).outputs.first?.result.get())
        let d = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(d.animation.frames.count, 6)
        XCTAssertEqual(d.animation.duration.milliseconds, 4000, accuracy: 0.5)
        XCTAssertTrue(r.report.warnings.contains { $0.contains("played 3 times in a row") && $0.contains("--too-long speedup") },
                      "\(r.report.warnings)")
        let result = try StickerConverter.convert(data, options: options(.line, tooLong: .trim))
        guard case .failure(let e) = result.outputs.first?.result else { return XCTFail("a 2-frame LINE animation was written") }
        XCTAssertEqual(e, .frameCount(frames: 2, allowed: 5...20, platform: "LINE"))
    }

    /// A 100 ms frame beside a 12.8 s one (a damaged GIF found by `FuzzPlatforms`): played three
    /// times in a row and sped up to LINE's 4 s, the short frames keep the shortest time players
    /// show as it is, and the file passes LINE's own check (4.18 s shown when they came to 10 ms).
    func testLineSpeedsUpARepeatedLoopWithoutFramesPlayersSlowDown() throws {
        let pair = [100, 12_800].enumerated().map { i, ms -> Frame in
            var img = Image(width: 32, height: 32)
            for y in 4..<28 { for x in 4..<28 { img[x, y] = i == 0 ? RGBA(255, 0, 0, 255) : RGBA(0, 0, 255, 255) } }
            return Frame(image: img, delay: Delay(milliseconds: ms))
        }
        let r = try XCTUnwrap(try StickerConverter.convert(pngAnimation(Animation(width: 32, height: 32, frames: pair)),
                                                            options: options(.line)).outputs.first?.result.get())
        let d = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(d.animation.frames.count, 6)
        XCTAssertTrue(d.animation.frames.allSatisfy { $0.delay.milliseconds > 10 }, "\(d.animation.frames.map(\.delay))")
        XCTAssertEqual(d.animation.duration.milliseconds, 4000, accuracy: 0.5)
        XCTAssertEqual(Timeline.times(Timeline.displayed(d.animation.frames)).last, 4000)
    }

    /// The sticker for `target` of a 3 s animation of three identical frames.
    func sameFramesSticker(_ target: StickerTarget) throws -> StickerOutput {
        var img = Image(width: 32, height: 32)
        for y in 4..<28 { for x in 4..<28 { img[x, y] = RGBA(0, 200, 0, 255) } }
        let same = Array(repeating: Frame(image: img, delay: Delay(milliseconds: 1000)), count: 3)
        return try XCTUnwrap(try StickerConverter.convert(pngAnimation(Animation(width: 32, height: 32, frames: same)),
                                                           options: options(target)).outputs.first?.result.get())
    }

    /// LINE asks for files "in RGB color space": gray artwork (a still, an animation, the main
    /// and tab images) is never written as a gray PNG for LINE, as it is for Messages.
    func testLineNeverWritesAGrayPNG() throws {
        var pixels = [UInt8]()
        for y in 0..<200 { for x in 0..<200 {
            let v = UInt8((x + y) % 256), a: UInt8 = (x - 100) * (x - 100) + (y - 100) * (y - 100) < 80 * 80 ? 255 : 0
            pixels += [v, v, v, a]
        } }
        let gray = Image(width: 200, height: 200, pixels: pixels)
        let png = PNGEncoder.encode(gray)
        XCTAssertEqual(try ImageOutline.inspect(png)?.pngColorType, .grayscale)
        var messages = ConversionOptions()
        messages.maxBytes = Int.max
        let forMessages = try XCTUnwrap(try StickerConverter.convert(png, options: messages).outputs.first?.result.get())
        XCTAssertEqual(try ImageOutline.inspect(forMessages.bytes)?.pngColorType, .grayscaleAlpha, "Messages keeps the smaller gray form")
        let still = try XCTUnwrap(try StickerConverter.convert(png, options: options(.line)).outputs.first?.result.get())
        let moving = try PNGEncoder.encodeAnimation(frames: [gray, Image(width: 200, height: 200, pixels: pixels.enumerated().map {
            $0.offset % 4 == 3 ? $0.element : 255 - $0.element })], delays: [Delay](repeating: Delay(milliseconds: 500), count: 2),
            loopCount: 0)
        let animation = try XCTUnwrap(try StickerConverter.convert(moving, options: options(.line)).outputs.first?.result.get())
        let pictures = try PackIconRenderer.render(file: png, target: .line).map { try $0.get() }
        for (name, bytes) in [("still", still.bytes), ("animation", animation.bytes), ("main", pictures[0]), ("tab", pictures[1])] {
            let type = try XCTUnwrap(try ImageOutline.inspect(bytes)?.pngColorType?.rawValue, name)
            XCTAssertTrue([2, 3, 6].contains(type), "\(name): colour type \(type)")
        }
        XCTAssertEqual(try ImageOutline.inspect(animation.bytes)?.format, .apng)
    }

    func testLineWritesAnAnimationWhoseFramesAreAllTheSameAsAStill() throws {
        let r = try sameFramesSticker(.line)
        let d = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(d.format, .png)
        XCTAssertEqual(d.animation.width, 320)
        XCTAssertEqual(r.report.container, .png)
        XCTAssertTrue(r.report.warnings.first?.contains("written as a still") ?? false, "\(r.report.warnings)")
    }

    func testWhatsAppKeepsAnAnimationWhoseFramesAreAllTheSameAnimated() throws {
        let r = try sameFramesSticker(.whatsapp)
        let d = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(d.format, .webp)
        XCTAssertEqual(d.animation.frames.count, 2, "an animation counts by its frames")
        XCTAssertEqual(d.animation.duration.milliseconds, 3000, accuracy: 0.5)
        XCTAssertEqual(r.report.container, .webp)
    }

    /// An APNG of one frame is an animation (so is a damaged one salvaged to its first frame:
    /// FuzzPlatforms found one written at 104,820 bytes). For WhatsApp a one-frame WebP is a
    /// still, held to 100,000 bytes and kept out of animated packs: the frame is written twice,
    /// its time split between the two, within the animation cap.
    func testWhatsAppWritesAOneFrameAnimationAsTwoShowingsOfIt() throws {
        let apng = try PNGEncoder.encodeAnimation(frames: [BudgetSearchTests.photoLike(300, seed: 11)],
                                                  delays: [Delay(milliseconds: 700)], loopCount: 0, effort: .fast, alwaysAnimated: true)
        XCTAssertEqual(try ImageDecoder.decode(apng).format, .apng)
        let r = try XCTUnwrap(try StickerConverter.convert(apng, options: options(.whatsapp)).outputs.first?.result.get())
        let d = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(d.format, .webp)
        XCTAssertEqual(d.animation.frames.count, 2, "a one-frame WebP would be a still")
        XCTAssertEqual(d.animation.frames.first?.image, d.animation.frames.last?.image)
        XCTAssertEqual(d.animation.duration.milliseconds, 700, accuracy: 0.5)
        XCTAssertEqual(r.report.container, .webp)
        XCTAssertLessThanOrEqual(r.bytes.count, StickerTarget.whatsapp.animationBytes)
        XCTAssertTrue(r.report.warnings.contains { $0.contains("two showings") }, "\(r.report.warnings)")
        // APNG and WebM hold an animation of one frame: other platforms write it as it is.
        let signal = try XCTUnwrap(try StickerConverter.convert(apng, options: options(.signal)).outputs.first?.result.get())
        let s = try ImageDecoder.decode(signal.bytes)
        XCTAssertEqual(s.format, .apng)
        XCTAssertEqual(s.animation.frames.count, 1)
    }

    /// Nor does WhatsApp's budget search thin a short animation down to one frame, which would
    /// make it a still over the still cap: it keeps two frames or says the budget is too small.
    func testWhatsAppNeverThinsAnAnimationToOneFrame() throws {
        let frames = [BudgetSearchTests.photoLike(256, seed: 21), BudgetSearchTests.photoLike(256, seed: 22)]
        let apng = try PNGEncoder.encodeAnimation(frames: frames, delays: [Delay(milliseconds: 40), Delay(milliseconds: 40)],
                                                  loopCount: 0, effort: .fast)
        var written = 0
        for budget in [6_000, 10_000, 16_000, 24_000, 40_000, 80_000] {
            var o = options(.whatsapp)
            o.maxBytes = budget
            guard case .success(let out) = try XCTUnwrap(try StickerConverter.convert(apng, options: o).outputs.first?.result) else { continue }
            XCTAssertLessThanOrEqual(out.bytes.count, budget)
            XCTAssertGreaterThanOrEqual(try ImageDecoder.decode(out.bytes).animation.frames.count, 2, "budget \(budget)")
            written += 1
        }
        XCTAssertGreaterThan(written, 0, "some budget fits the two frames")
    }

    func testLineStillIsAnEvenSidedPNGWithinItsBox() throws {
        let photo = BudgetSearchTests.photoLike(300, seed: 4)
        let tall = Image(width: 150, height: 300, pixels: Array(photo.pixels.prefix(150 * 300 * 4)))
        let r = try XCTUnwrap(try StickerConverter.convert(PNGEncoder.encode(tall, effort: .fast), options: options(.line))
            .outputs.first?.result.get())
        let d = try ImageDecoder.decode(r.bytes)
        XCTAssertEqual(d.format, .png)
        XCTAssertEqual(d.animation.width, 170)   // 150 × 300 → 150 × 300 + 2·10
        XCTAssertEqual(d.animation.height, 320)
    }

    func pngAnimation(_ a: Animation) throws -> [UInt8] {
        try PNGEncoder.encodeAnimation(frames: a.frames.map(\.image), delays: a.frames.map(\.delay), loopCount: 0, effort: .fast)
    }
}

final class PackIconTests: XCTestCase {
    func testTrayIconIsA96PixelPNGWithinItsCapShowingTheWholeImage() throws {
        let icon = try XCTUnwrap(StickerTarget.whatsapp.packIcons.first)
        let wide = BudgetSearchTests.photoLike(300, seed: 5)
        let bytes = try PackIconRenderer.render(wide, icon: icon).get()
        XCTAssertLessThanOrEqual(bytes.count, 50_000)
        let decoded = try ImageDecoder.decode(bytes)
        XCTAssertEqual(decoded.format, .png)
        XCTAssertEqual(decoded.animation.width, 96)
        XCTAssertEqual(decoded.animation.height, 96)
        XCTAssertEqual(StickerTarget.telegram.packIcons.map(\.dimensions), ["100×100"])
        XCTAssertTrue(StickerTarget.signal.packIcons.isEmpty)
    }

    func testPackPicturesOfAStillFileDecodedByRowsAreThoseOfItsImage() throws {
        // A 700×500 translucent PNG decodes by rows: every platform's pictures, square and not,
        // in both fits, are the files made from the decoded image.
        var art = BudgetSearchTests.photoLike(700, seed: 3)
        art = Resizer.resize(art, width: 700, height: 500, fit: .cover)
        for i in stride(from: 3, to: art.pixels.count, by: 4) { art.pixels[i] = UInt8((i / 4) % 700 * 255 / 699) }
        let data = PNGEncoder.encode(art, effort: .fast)
        XCTAssertNotNil(try Artwork.resizedByRows(data, targets: [.square(FitOptions(size: 96))]))
        for target in [StickerTarget.whatsapp, .telegram, .line] {
            for fit in [FitMode.contain, .cover] {
                let fromFile = try PackIconRenderer.render(file: data, target: target, fit: fit).map { try $0.get() }
                let fromImage = try target.packIcons.map { try PackIconRenderer.render(art, icon: $0, fit: fit).get() }
                XCTAssertEqual(fromFile, fromImage, "\(target.name) \(fit)")
            }
        }
    }

    func testAnIconOverItsCapIsQuantizedToFit() throws {
        var icon = try XCTUnwrap(StickerTarget.whatsapp.packIcons.first)
        icon.maxBytes = 8_000
        let bytes = try PackIconRenderer.render(BudgetSearchTests.photoLike(300, seed: 9), icon: icon).get()
        XCTAssertLessThanOrEqual(bytes.count, 8_000)
    }

    /// An opaque `width × height` picture.
    private func opaque(_ width: Int, _ height: Int) -> Image {
        var img = Image(width: width, height: height)
        for y in 0..<height { for x in 0..<width { img[x, y] = RGBA(UInt8(x % 256), UInt8(y % 256), 90, 255) } }
        return img
    }

    /// LINE's main (240×240) and chat tab (96×74) images: each the whole artwork with its
    /// aspect, centred, the rest transparent.
    func testLineMainAndTabImagesFitTheArtworkIntoTheirBoxes() throws {
        let icons = StickerTarget.line.packIcons
        XCTAssertEqual(icons.map(\.fileName), ["main.png", "tab.png"])
        XCTAssertEqual(icons.map(\.dimensions), ["240×240", "96×74"])
        let main = try ImageDecoder.decode(try PackIconRenderer.render(opaque(400, 200), icon: icons[0]).get()).animation.frames[0].image
        XCTAssertEqual([main.width, main.height], [240, 240])
        XCTAssertEqual(main[120, 10].a, 0, "above a 2:1 picture: padding")
        XCTAssertEqual(main[120, 120].a, 255)
        XCTAssertEqual(main[0, 120].a, 255, "the long side spans the box")

        let squareTab = try PackIconRenderer.render(opaque(300, 300), icon: icons[1]).get()
        XCTAssertLessThanOrEqual(squareTab.count, icons[1].maxBytes)
        let tab = try ImageDecoder.decode(squareTab).animation.frames[0].image
        XCTAssertEqual([tab.width, tab.height], [96, 74])
        for x in [0, 10, 85, 95] { XCTAssertEqual(tab[x, 37].a, 0, "column \(x) beside a square: padding") }
        for x in [11, 48, 84] { XCTAssertEqual(tab[x, 37].a, 255, "column \(x): the 74 px artwork") }
        XCTAssertEqual(tab[48, 0].a, 255)
        XCTAssertEqual(tab[48, 73].a, 255)

        let wideTab = try ImageDecoder.decode(try PackIconRenderer.render(opaque(300, 100), icon: icons[1]).get()).animation.frames[0].image
        XCTAssertEqual(wideTab[48, 20].a, 0, "above a 3:1 picture (96×32): padding")
        XCTAssertEqual(wideTab[0, 37].a, 255)
        XCTAssertEqual(wideTab[95, 37].a, 255)
    }
}
