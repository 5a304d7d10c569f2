import ImageCore
import ImageQuantize
import StickerEncoding
import WebMEncoding
import WebPEncoding

/// The budget search for a codec with a quality knob (WebP, WebM): the best-looking file that
/// fits `maxBytes`, through `StickerCodec` only.
///
/// Quality first: lossless when the codec has it and it fits; otherwise the highest quality level
/// that fits, by a search over `codec.qualityLevels` (`LevelSearch`; sizes rise with the level on nearly every
/// input, not strictly, so the best level seen to fit is kept). When even the lowest level does
/// not fit, every other frame is dropped (its time given to the frame before) and the levels are
/// searched again, down to `minFPS`. Resolution is never lowered. Deterministic: same frames,
/// same bytes.
///
/// Cost: encodes are the whole cost (0.03–0.3 s per 512² frame), so the search runs on
/// *probes*: a sample of `sampleWindows` windows of `windowLength` consecutive frames when the
/// animation is longer than `realProbeFrames`, at faster settings for slow codecs (WebM), their
/// size scaled to the whole. The chosen level is then encoded for real, and each real encode's
/// bytes over its probe's calibrate the probes (`calibration(at:_:)`): a real file under
/// `underuse` of the budget sends the search above it, one over the budget below it (and above
/// the best that fitted), up to `corrections` times — `slowReals` real encodes in all at a slow
/// WebM setting. A long WebM is written at quicker settings (`writing`, `webmSlowWork`), so that
/// one sticker stays within about 10 s of CPU. A real encode over the budget only has to say so:
/// it stops once its packets pass the budget (`StickerCodec.encode(_:quality:stopPast:)`; WebM),
/// and its whole size, extrapolated from the frames coded, calibrates the probes as a real size
/// would (StickerKit NOTES.md, "Platforms: Telegram's time").
///
/// WebP's alpha plane is lossless at `alphaQuality` 100 and can outweigh the colour at any level
/// (the 30-frame balls APNG at 512 px: 825 KB at level 0 with lossless alpha, 226 KB with alpha
/// quality 50), so a lossy level also caps the alpha quality (`alphaQuality(forLevel:)`) — but
/// never below a floor that depends on the frames' partly transparent pixels (`alphaFloor`):
/// libwebp keeps 2 + q/5 alpha levels up to q 70, and at the lowest levels a soft-edged animation
/// kept only 2 (rgb_color_cube at 512 px, level 1: every partly transparent pixel gone). Areas
/// painted almost opaque (Lottie exports fill whole faces at alpha 252–254) would survive
/// libwebp's levels only from q 85: for such frames the levels are made by `PaintedAlpha`.
struct CodecBudgetSearch {
    let codec: StickerCodec
    let maxBytes: Int
    let minFPS: Double
    let clock: StageClock

    /// What the search settled on: the file and the frames it holds.
    struct Found {
        var sticker: EncodedSticker
        var frames: [PickedFrame]
    }

    /// Animations of at most this many frames are probed whole.
    static let realProbeFrames = 12
    /// Sampled probes: this many windows of `windowLength` consecutive frames, spread evenly.
    /// Windows of 3 cost a fifth less CPU than windows of 4 over the animated corpus for
    /// WhatsApp, at mean judge SSIM 0.96249 against 0.96255 (StickerKit NOTES.md).
    static let sampleWindows = 3
    static let windowLength = 3
    /// Probes aim this far under the budget once a real encode has missed it.
    static let margin = 0.97
    /// Levels between probes at which the search stops (a level or two changes little).
    static let levelResolution = 2
    /// A real file smaller than this share of the budget sends the search higher.
    static let underuse = 0.9
    /// Real encodes after the first that may be spent correcting a missed prediction.
    static let corrections = 3

    /// The search over `frames`, picks of `source`'s fitted frames, which every encode walks
    /// (probes hold their few sampled frames).
    func run(_ source: PlatformFrames, _ frames: [PickedFrame], loopCount: Int, animated: Bool) throws -> Result<Found, StickerError> {
        var kept = frames
        var fewest: (bytes: Int, level: Int, frames: Int, estimated: Bool) = (Int.max, 0, frames.count, false)
        func overBudget() -> StickerError {
            .codecOverBudget(container: codec.container(still: !animated), smallest: fewest.bytes, budget: maxBytes,
                             level: fewest.level, keptFrames: fewest.frames, frames: frames.count, estimated: fewest.estimated)
        }
        while true {
            // Whether every other frame can still be dropped after this round.
            let fpsNow = Timeline.fps(frames: kept.count, milliseconds: Timeline.times(kept).last ?? 0)
            let canThin = kept.count > 1 && fpsNow / 2 >= minFPS
            let streamed = source.streamed(kept, loopCount: loopCount, animated: animated)
            let sample = try Self.samplePositions(kept.count).map { positions in
                let images = try source.images(kept, at: positions)
                return StickerFrames(pixels: .rgba(positions.map { images[$0]! }), delays: positions.map { kept[$0].delay },
                                     loopCount: loopCount, animated: animated).streamed
            }
            let writer = CodecBudgetSearch(codec: Self.writing(codec, streamed), maxBytes: maxBytes, minFPS: minFPS, clock: clock)
            switch writer.search(streamed, sample: sample, lastRound: !canThin) {
            case .found(let sticker, let seconds):
                if animated {
                    clock.timings.search.chosen += 1
                    clock.timings.search.chosenSeconds += seconds
                }
                return .success(Found(sticker: sticker, frames: kept))
            case .overBudget(let smallest, let level, let estimated):
                if smallest < fewest.bytes { fewest = (smallest, level, kept.count, estimated) }
            case .hopeless:
                break
            case .failed:
                return .failure(overBudget())
            }
            // Drop every other frame, if the frame rate stays at or above minFPS.
            guard canThin else { return .failure(overBudget()) }
            kept = Timeline.thin(kept, maxFPS: fpsNow / 2)
        }
    }

    private enum Outcome {
        /// The sticker, and the seconds of the encode that made it.
        case found(EncodedSticker, seconds: Double)
        /// `estimated`: `smallest` is the lowest level's sampled probe, scaled (`hopelessLastFloor`).
        case overBudget(smallest: Int, level: Int, estimated: Bool = false)
        /// Not even the lowest level's sampled probe comes near the budget (`hopelessFloor`), and
        /// frames can still be dropped: no real encode was made to say by how much.
        case hopeless
        case failed
    }

    /// A lowest level whose sampled probe, calibrated, predicts more than this times the budget is
    /// not encoded for real while frames can still be dropped: the real encode would only say by
    /// how much it misses (sampled probes miss the real file by a few per cent to tens of per cent;
    /// this leaves room for a miss of half). The last round encodes it unless it is past
    /// `hopelessLastFloor`. 90 frames of 512² noise for WhatsApp made a 10 MB file to learn that
    /// (166 MB peak under `--max-memory 160`, 5.1 s).
    static let hopelessFloor = 2.0
    /// In the last round (no frames left to drop) the lowest level is not encoded whole either
    /// when its sampled probe predicts more than this times the budget: the error then names the
    /// estimate. Wider than `hopelessFloor`, since a real encode that fits would be the sticker:
    /// 140 frames of 512² noise for WhatsApp made an 8 MB file here, the search's peak (213 MB
    /// under a budget of 212 MB, its estimate plus one).
    static let hopelessLastFloor = 4.0

    /// The codec's settings at a lossy `level` (WebP: the alpha quality capped by the level, not
    /// below `alphaFloor`).
    func codec(forLevel level: Int, probing: Bool, alphaFloor: Int = 0) -> StickerCodec {
        switch codec {
        case .webp(var o):
            o.alphaQuality = min(o.alphaQuality, Self.alphaQuality(forLevel: level, floor: alphaFloor))
            if probing { o.method = min(o.method, Self.probeMethod) }
            return .webp(o)
        case .webm(var o):
            if probing { o = Self.webmProbe(o) }
            return .webm(o)
        case .png:
            return codec
        }
    }

    /// WebM probes: libvpx's realtime deadline at speed 8, one pass, no lookahead. 9 sampled 512²
    /// frames take 55–170 ms, against 250–1,400 ms at the good deadline's speed 8; the sizes
    /// follow the real encode's about as well once calibrated (StickerKit NOTES.md).
    static func webmProbe(_ o: WebMOptions) -> WebMOptions { o.atRealtime(speed: 8) }

    /// WebM animations of more than this many frames of 512² (`work(_:)`) are written at
    /// `webmQuick` settings instead of the platform's: a real encode at speed 2 with two passes
    /// costs 85–180 ms per 512² frame (flat artwork with alpha – video near the top level), and
    /// the search makes up to `slowReals` of them (at 32, the 24 frames of 512×288 video took
    /// 9.3 s; StickerKit NOTES.md, "Platforms: Telegram's time").
    static let webmSlowWork = 8.0
    /// Real encodes a search at the platform's slow WebM settings makes once one has fitted.
    static let slowReals = 3

    /// The written file's WebM settings past `webmSlowWork`: the realtime deadline at speed 5, one
    /// pass, about 13 ms per 512² frame with alpha. Over Telegram's animated corpus, written so
    /// throughout, the files lost 0.003 of judge SSIM on the mean to speed 2 with two passes (up
    /// to 0.0098), at a sixth of the time (StickerKit NOTES.md, "Platforms: Telegram's time").
    static func webmQuick(_ o: WebMOptions) -> WebMOptions { o.atRealtime(speed: 5) }

    /// The codec `frames` are written with: `codec`, or for a long WebM (`webmSlowWork`), its quick settings.
    static func writing(_ codec: StickerCodec, _ frames: StreamedFrames) -> StickerCodec {
        guard case .webm(let o) = codec, !o.realtime else { return codec }
        return work(frames) > webmSlowWork ? .webm(webmQuick(o)) : codec
    }

    /// How many frames of 512² `frames` amount to (frames × pixels ÷ 512²): what an encode of
    /// them costs, in the units of `webmSlowWork` and `losslessMaxWork`.
    static func work(_ frames: StreamedFrames) -> Double {
        Double(frames.frameCount) * Double(frames.width * frames.height) / Double(512 * 512)
    }

    /// libwebp's method for sampled probes: several times faster than method 4; sizes differ by a few
    /// per cent, which the calibration against the real encode absorbs.
    static let probeMethod = 0

    /// WebP's alpha quality at a lossy level: lossless alpha (100) down to level 60, then falling
    /// with the level (to 0 at level 0), so the alpha plane gives up precision only when the
    /// colour already has; never below `floor` (`alphaFloor`).
    static func alphaQuality(forLevel level: Int, floor: Int = 0) -> Int {
        max(floor, min(100, level * 100 / 60))
    }

    /// The alpha quality kept at every level for frames with alpha detail: 7 alpha levels in
    /// libwebp (2 + q/5), a few per cent of the bytes; it changes only levels under 15. (A floor
    /// of 85, 136 levels, cost 0.006–0.055 SSIM on six animations at 512 px, the colour level
    /// falling to pay for it.)
    static let alphaDetailFloor = 25
    /// The alpha-quality floor for pixels counted in `histogram` (`AlphaProfile.histogram(of:)`):
    /// `alphaDetailFloor` when they have alpha detail (`AlphaProfile.hasDetail`), else 0.
    static func alphaFloor(_ histogram: [Int]) -> Int {
        AlphaProfile(histogram: histogram).hasDetail ? alphaDetailFloor : 0
    }

    /// How many pixels of `frames` have each alpha value (`AlphaProfile.histogram(of:)`), from one walk.
    static func alphaHistogram(_ frames: StreamedFrames) throws -> [Int] {
        var histogram = [Int](repeating: 0, count: 256)
        try frames.walk { _, pixels in AlphaProfile.count(rgba: pixels, into: &histogram) }
        return histogram
    }

    /// What an encode made: the file, or, stopped once it was sure to pass the bytes it was
    /// given (`StickerCodec.encode(_:quality:stopPast:)`), the whole file's estimated size.
    private enum Made {
        case file(EncodedSticker)
        case over(estimatedBytes: Int)
    }

    /// `frames` encoded by `codec`, stopped past `stopPast` where the codec can tell; with
    /// `painted`, a lossy WebP alpha plane is quantized by `PaintedAlpha` and coded lossless in
    /// place of libwebp's own levels. Nil when the encode failed.
    private func encode(_ frames: StreamedFrames, _ quality: EncodeQuality, with codec: StickerCodec,
                        painted: PaintedAlpha? = nil, stopPast: Int? = nil) -> Made? {
        clock.measure(\.encode) {
            do {
                if let painted, case .webp(var o) = codec, case .level = quality, o.alphaQuality < 100 {
                    let quantized = painted.quantize(frames, alphaQuality: o.alphaQuality)
                    o.alphaQuality = 100
                    return .file(try StickerCodec.webp(o).encode(quantized, quality: quality))
                }
                return .file(try codec.encode(frames, quality: quality, stopPast: stopPast))
            } catch let stopped as EncodeStopped {
                return .over(estimatedBytes: stopped.estimatedBytes)
            } catch {
                return nil
            }
        }
    }

    /// The search over `frames`, probing `sample` (a few of them, held) when given.
    private func search(_ frames: StreamedFrames, sample: StreamedFrames?, lastRound: Bool = true) -> Outcome {
        if codec.hasLossless, worthLossless(frames, sample: sample), let e = lossless(frames) { return .found(e.sticker, seconds: e.seconds) }
        guard let levels = codec.qualityLevels else { return .failed }
        let scaleUp = sample.map { Double(frames.frameCount) / Double($0.frameCount) } ?? 1
        let probesAreReal = sample == nil && !isSlow
        var alphaFloor = 0
        var painted: PaintedAlpha? = nil
        if case .webp = codec {
            guard let histogram = try? Self.alphaHistogram(frames) else { return .failed }
            alphaFloor = Self.alphaFloor(histogram)
            painted = PaintedAlpha(histogram: histogram)
        }
        func probing(_ level: Int) -> StickerCodec { codec(forLevel: level, probing: !probesAreReal, alphaFloor: alphaFloor) }
        var probes: [Int: Int] = [:]
        var reals: [Int: (sticker: EncodedSticker, seconds: Double)] = [:]
        /// Levels whose real encode stopped once past the budget, with the whole file's estimated bytes.
        var overs: [Int: Int] = [:]
        func probe(_ level: Int) -> Double? {
            if let p = probes[level] { return Double(p) * scaleUp }
            let made = counted(sample ?? frames, .level(level), with: probing(level), painted: painted, whole: probesAreReal)
            guard let made else { return nil }
            probes[level] = made.sticker.bytes.count
            if probesAreReal { reals[level] = made }
            return Double(made.sticker.bytes.count) * scaleUp
        }
        /// The real encode at `level`: its bytes and its file, or, when it stopped once past the
        /// budget (it only has to say so), the whole file's estimated bytes and no file.
        func real(_ level: Int) -> (bytes: Int, sticker: EncodedSticker?)? {
            if let r = reals[level] { return (r.sticker.bytes.count, r.sticker) }
            if let o = overs[level] { return (o, nil) }
            guard let made = measured(frames, .level(level), with: codec(forLevel: level, probing: false, alphaFloor: alphaFloor),
                                      painted: painted, whole: true, stopPast: maxBytes) else { return nil }
            switch made.made {
            case .file(let sticker):
                reals[level] = (sticker, made.seconds)
                return (sticker.bytes.count, sticker)
            case .over(let estimated):
                overs[level] = estimated
                return (estimated, nil)
            }
        }
        /// Each real encode's bytes over its probe's, by level (`calibration(at:_:)`).
        var ratios: [(level: Int, ratio: Double)] = []
        /// The highest level in `range` whose probe, times `calibration(at:_:)`, is within `budget`
        /// (`LevelSearch`, starting from the levels probed so far); nil when not even the lowest
        /// is (or an encode failed: `failed` set).
        var failed = false
        func highestFitting(_ range: ClosedRange<Int>, budget: Double) -> Int? {
            LevelSearch.highestFitting(in: range, budget: budget, resolution: Self.levelResolution, known: Array(probes.keys)) { l in
                guard let p = probe(l) else { failed = true; return nil }
                return p * Self.calibration(at: l, ratios)
            }
        }

        var budget = Double(maxBytes)
        var range = levels
        var smallest: (bytes: Int, level: Int, estimated: Bool)? = nil
        var best: EncodedSticker? = nil, bestLevel = levels.lowerBound
        let maxReals = isSlowWrite ? Self.slowReals : Self.corrections + 1
        for attempt in 0...Self.corrections {
            if best != nil, attempt >= maxReals { break }
            guard let level = highestFitting(range, budget: budget) else {
                if failed { return .failed }
                break
            }
            guard let e = real(level) else { return .failed }
            guard let p = probe(level) else { return .failed }
            ratios.append((level, Double(e.bytes) / p))
            budget = Double(maxBytes) * Self.margin
            if let file = e.sticker, e.bytes <= maxBytes {
                best = file
                bestLevel = level
                // A real file well under the budget: the probes were pessimistic; look higher.
                guard e.bytes < Int(Double(maxBytes) * Self.underuse), level < range.upperBound else { break }
                range = (level + 1)...range.upperBound
            } else {
                if smallest == nil || e.bytes < smallest!.bytes { smallest = (e.bytes, level, e.sticker == nil) }
                // Over: search again below it (above the best fitting level, when there is one),
                // while the gap is wider than the search's resolution.
                guard level - range.lowerBound > (best == nil ? 0 : Self.levelResolution) else { break }
                range = range.lowerBound...(level - 1)
            }
        }
        if let b = best { return .found(b, seconds: reals[bestLevel]?.seconds ?? 0) }
        // Nothing fitted: the lowest level, for real, says by how much — unless its sampled
        // probe is far over and a round with fewer frames follows.
        if sample != nil, smallest == nil, reals[levels.lowerBound] == nil, overs[levels.lowerBound] == nil,
           let p = probe(levels.lowerBound) {
            let predicted = p * Self.calibration(at: levels.lowerBound, ratios)
            if !lastRound, predicted > Double(maxBytes) * Self.hopelessFloor { return .hopeless }
            if lastRound, predicted > Double(maxBytes) * Self.hopelessLastFloor {
                return .overBudget(smallest: Int(predicted.rounded()), level: levels.lowerBound, estimated: true)
            }
        }
        guard let e = real(levels.lowerBound) else { return .failed }
        if let file = e.sticker, e.bytes <= maxBytes { return .found(file, seconds: reals[levels.lowerBound]?.seconds ?? 0) }
        if let s = smallest, s.bytes < e.bytes { return .overBudget(smallest: s.bytes, level: s.level, estimated: s.estimated) }
        return .overBudget(smallest: e.bytes, level: levels.lowerBound, estimated: e.sticker == nil)
    }

    /// What a probe at `level` is multiplied by to predict the real file, from the `ratios` of the
    /// real encodes made so far (real bytes over probe bytes, by level): 1 before any; the ratio
    /// of the nearest below or above; between two, interpolated linearly. The ratio drifts with the
    /// level (Telegram's emoji shock: 3.38 at level 19, 3.94 at level 50, so the one ratio overshot
    /// level 50 by 17 %).
    static func calibration(at level: Int, _ ratios: [(level: Int, ratio: Double)]) -> Double {
        let below = ratios.filter { $0.level <= level }.max { $0.level < $1.level }
        let above = ratios.filter { $0.level >= level }.min { $0.level < $1.level }
        switch (below, above) {
        case let (b?, a?) where a.level > b.level:
            return b.ratio + (a.ratio - b.ratio) * Double(level - b.level) / Double(a.level - b.level)
        case let (b?, _): return b.ratio
        case let (nil, a?): return a.ratio
        case (nil, nil): return 1
        }
    }

    /// Whether probes run at faster settings even when whole (WebM: 0.2–0.35 s per 512² frame).
    private var isSlow: Bool {
        if case .webm = codec { return true }
        return false
    }

    /// Whether real encodes are at a slow WebM setting (the good deadline), so fewer are made.
    private var isSlowWrite: Bool {
        if case .webm(let o) = codec { return !o.realtime }
        return false
    }

    /// The positions of `sampleWindows` windows of `windowLength` consecutive frames spread over
    /// `n` frames, as one short animation; nil when the animation is short enough to probe whole.
    static func samplePositions(_ n: Int) -> [Int]? {
        guard n > realProbeFrames else { return nil }
        var picked: [Int] = []
        for w in 0..<sampleWindows {
            let start = w * (n - windowLength) / max(1, sampleWindows - 1)
            for i in start..<min(n, start + windowLength) where picked.last.map({ i > $0 }) ?? true { picked.append(i) }
        }
        return picked
    }

    /// Whether a lossless encode may fit: always for a still; for an animation only when the first
    /// frame alone, lossless, times a quarter of the frame count is within the budget (a lossless
    /// video-like animation takes many times the budget and seconds to encode), and, for an
    /// animation probed by `sample`, when the sample's fast lossless encode (`losslessProbe`),
    /// scaled to the whole, is within `losslessProbeSlack` times the budget. (The first frame
    /// let through eight Lottie and drawn animations of 32–183 frames whose whole lossless encode
    /// missed the budget: 0.9–9 s of CPU each, a third of the animated corpus's.) Never past
    /// `losslessMaxWork`.
    private func worthLossless(_ frames: StreamedFrames, sample: StreamedFrames?) -> Bool {
        if frames.isStill { return true }
        guard Self.work(frames) <= Self.losslessMaxWork else { return false }
        var first = frames
        first.delays = [frames.delays[0]]
        first.animated = false
        first.walk = { body in
            do {
                try frames.walk { i, pixels in
                    try body(i, pixels)
                    throw WalkDone()
                }
            } catch is WalkDone {}
        }
        guard let one = counted(first, .lossless, with: codec, whole: false) else { return false }
        guard one.sticker.bytes.count * max(1, frames.frameCount / 4) <= maxBytes else { return false }
        guard let sample, let probe = counted(sample, .lossless, with: losslessProbe, whole: false) else { return true }
        let predicted = Double(probe.sticker.bytes.count) * Double(frames.frameCount) / Double(sample.frameCount)
        return predicted <= Double(maxBytes) * Self.losslessProbeSlack
    }

    /// The lossless file of `frames` within the budget, or nil: first at quicker settings
    /// (`quickLossless`), whose file, lossless like any, is kept when it fits; only one within
    /// `losslessRetrySlack` of the budget is made again at the codec's own settings, which may
    /// fit. (WebP at method 2, effort 50 against method 4, effort 75: 37 % less time, 1.7 % more
    /// bytes over the 50 stills of the corpus at 512 px; none of them crossed WhatsApp's 100 KB.)
    private func lossless(_ frames: StreamedFrames) -> (sticker: EncodedSticker, seconds: Double)? {
        let quick = quickLossless
        guard let first = counted(frames, .lossless, with: quick, whole: true) else { return nil }
        if first.sticker.bytes.count <= maxBytes { return first }
        guard quick != codec, Double(first.sticker.bytes.count) <= Double(maxBytes) * Self.losslessRetrySlack,
              let again = counted(frames, .lossless, with: codec, whole: true), again.sticker.bytes.count <= maxBytes else { return nil }
        return again
    }

    /// `encode`, timed and counted in `SearchWork`: of every frame of an animation (`whole`) as
    /// an encode, of a sample of them or at a faster setting as a prediction of the whole.
    private func counted(_ frames: StreamedFrames, _ quality: EncodeQuality, with codec: StickerCodec,
                         painted: PaintedAlpha? = nil, whole: Bool) -> (sticker: EncodedSticker, seconds: Double)? {
        guard let m = measured(frames, quality, with: codec, painted: painted, whole: whole),
              case .file(let sticker) = m.made else { return nil }
        return (sticker, m.seconds)
    }

    /// `counted`, for an encode that may stop past `stopPast` (`encode`).
    private func measured(_ frames: StreamedFrames, _ quality: EncodeQuality, with codec: StickerCodec,
                          painted: PaintedAlpha? = nil, whole: Bool, stopPast: Int? = nil) -> (made: Made, seconds: Double)? {
        var seconds = 0.0
        let e = clock.time(&seconds) { encode(frames, quality, with: codec, painted: painted, stopPast: stopPast) }
        if !whole {
            clock.timings.search.predictions += 1
            clock.timings.search.predictionSeconds += seconds
        } else if !frames.isStill {
            clock.timings.search.encodes += 1
            clock.timings.search.encodeSeconds += seconds
            if let e {
                let level: Int? = if case .level(let l) = quality { l } else { nil }
                switch e {
                case .file(let sticker):
                    clock.steps.append(SearchStep(level: level, frames: frames.frameCount, bytes: sticker.bytes.count,
                                                  fits: sticker.bytes.count <= maxBytes))
                case .over(let estimated):
                    clock.steps.append(SearchStep(level: level, frames: frames.frameCount, bytes: estimated, fits: false,
                                                  estimated: true))
                }
            }
        }
        return e.map { ($0, seconds) }
    }

    /// How far over the budget a quick lossless file may be and the codec's own settings still be tried.
    static let losslessRetrySlack = 1.1

    /// The codec's settings for a first lossless try (WebP: method 2 at most, effort 50 at most).
    private var quickLossless: StickerCodec {
        guard case .webp(var o) = codec else { return codec }
        o.method = min(o.method, 2)
        o.losslessEffort = min(o.losslessEffort, 50)
        return .webp(o)
    }

    /// Animations of more than this many frames of 512² (`work(_:)`) are not tried
    /// lossless: a whole lossless encode costs about 50 ms per 512² frame, and the sample can
    /// misjudge it (a 180-frame moving gradient for WhatsApp: predicted 469 KB, over 500 KB made,
    /// 9.5 s of its 12.7 s of CPU lost). None of the animated corpus's 17 files is past it and fits
    /// lossless.
    static let losslessMaxWork = 96.0

    /// How far over the budget a sampled lossless probe may predict and the whole lossless
    /// encode still be tried (the probe's fast settings make larger files than the real encode).
    static let losslessProbeSlack = 1.5

    /// The codec's settings for a sampled lossless probe (WebP: method 0, least effort).
    private var losslessProbe: StickerCodec {
        guard case .webp(var o) = codec else { return codec }
        o.method = Self.probeMethod
        o.losslessEffort = 0
        return .webp(o)
    }
}
