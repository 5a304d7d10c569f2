import Foundation
import ImageCore
import ImageDecoding
import ImageQuantize
import ImageResize
import StickerEncoding

/// The pipeline for a platform other than Messages (`ConversionOptions.target`): decode and fit
/// frame by frame into the platform's square or box (`PlatformFrames`, a store of what changed
/// that never grows with the frame count) → retime to its duration and frame-rate limits
/// (`TooLongPolicy`; `Timeline` over `PickedFrame`s, which only pick frames and change delays)
/// → the budget search for its codec, walking the store → one sticker. Touches no files.
///
/// PNG/APNG platforms (Signal, Discord, Telegram stills, LINE) go through Messages' own budget
/// search (`BudgetSearch`, `AnimationBudget`) at the platform's side and byte cap; codecs with a
/// quality knob (WebP, WebM) through `CodecBudgetSearch`.
enum PlatformConverter {
    /// The one sticker of `data` for `options.target`, under the key `options.sizes.first`
    /// (`.regular` when none): the caller's batch names outputs by it. `plan` shares what the
    /// file's fixed memory leaves (`ConversionMemory.available`). `predicting` false fits every
    /// frame instead of the ones the container's delays say are kept (`fitRetimed`): the same
    /// sticker, for tests to compare.
    static func convert(_ data: [UInt8], options: ConversionOptions, plan: MemoryPlan, predicting: Bool = true) throws -> ConversionResult {
        let clock = StageClock()
        // The box (LINE) depends on whether the file is animated: the outline says, the decode
        // confirms (fitted again in the rare file where they differ).
        let outline = data.withUnsafeBytes { ImageOutline.read($0, everyFrame: true) }
        let guess = (outline?.frameCount ?? 1) > 1 || outline?.format == .apng
        func kept(animated: Bool) -> Set<Int>? {
            guard predicting, let outline else { return nil }
            return DelayRetiming.predictedFrames(storedDelays: outline.storedDelays, frameCount: outline.frameCount,
                                                 animated: animated, target: options.target, tooLong: options.tooLong)
        }
        var source = try fitRetimed(data, predicted: kept(animated: guess), animated: guess, options: options, plan: plan, clock: clock)
        let animated = source.facts.frameCount > 1 || source.facts.format == .apng
        if animated != guess, options.target.box(animated: animated) != options.target.box(animated: guess) {
            source = try fitRetimed(data, predicted: kept(animated: animated), animated: animated, options: options, plan: plan,
                                    clock: clock)
        }
        return try result(source, data: data, animated: animated, options: options, plan: plan, clock: clock)
    }

    /// `convert` of a still decoded row by row (`PlatformFrames.fitByRows`), the image never held
    /// whole: the same sticker. Nil when the file cannot be decoded by rows after all (nothing
    /// was done).
    static func convertByRows(_ data: [UInt8], options: ConversionOptions, plan: MemoryPlan) throws -> ConversionResult? {
        let clock = StageClock()
        guard let source = try clock.measure(\.resize, {
            try PlatformFrames.fitByRows(data, options: options, side: side(options.target), box: options.target.box(animated: false),
                                         budget: plan.fittedFrames)
        }) else { return nil }
        return try result(source, data: data, animated: false, options: options, plan: plan, clock: clock)
    }

    /// The side of a platform's square (a box platform's fits are cut from squares of their own).
    static func side(_ target: StickerTarget) -> Int { target.side ?? StickerSize.regular.pixels }

    /// The conversion's result: the one sticker of the fitted `source`, under the key
    /// `options.sizes.first` (`.regular` when none).
    private static func result(_ source: PlatformFrames, data: [UInt8], animated: Bool, options: ConversionOptions,
                               plan: MemoryPlan, clock: StageClock) throws -> ConversionResult {
        let facts = source.facts
        let result = try source.refusal.map { .failure($0) }
            ?? convert(source, data: data, animated: animated, options: options, plan: plan, clock: clock)
        return ConversionResult(format: facts.format, width: facts.width, height: facts.height, frames: facts.frameCount,
                                warnings: facts.warnings, outputs: [(options.sizes.first ?? .regular, result)],
                                timings: clock.timings)
    }

    /// The source's frames fitted for `options.target` (its box for `animated` or not); with
    /// `keeping`, only those frames.
    private static func fit(_ data: [UInt8], animated: Bool, options: ConversionOptions, plan: MemoryPlan, clock: StageClock,
                            firstOf known: StickerConverter.SourceFacts? = nil, keeping: Set<Int>? = nil) throws -> PlatformFrames {
        let box = options.target.box(animated: animated)
        return try clock.measure(\.resize) {
            try PlatformFrames.fit(data, options: options, side: side(options.target), box: box, budget: plan.fittedFrames,
                                   firstOf: known, keeping: keeping)
        }
    }

    /// `fit` of only the `predicted` frames: those the retiming by delays keeps
    /// (`DelayRetiming`), as the container's stored delays predict it (a 200 s GIF of 5,000
    /// frames sped up to WhatsApp's 10 s at 30 fps keeps 294, and the other 4,706 are decoded
    /// but never fitted). When the delays as decoded keep a frame the prediction did not (a
    /// damaged file may decode otherwise than its container says), every frame is fitted again:
    /// the sticker is the same either way.
    static func fitRetimed(_ data: [UInt8], predicted: Set<Int>?, animated: Bool, options: ConversionOptions,
                           plan: MemoryPlan, clock: StageClock) throws -> PlatformFrames {
        let source = try fit(data, animated: animated, options: options, plan: plan, clock: clock, keeping: predicted)
        guard predicted != nil, source.refusal == nil else { return source }
        let decodedAnimated = source.facts.frameCount > 1 || source.facts.format == .apng
        if case .success(let kept) = DelayRetiming.of(source.all, animated: decodedAnimated, target: options.target,
                                                      tooLong: options.tooLong),
           !kept.frames.allSatisfy({ source.holds($0.index) }) {
            return try fit(data, animated: animated, options: options, plan: plan, clock: clock)
        }
        return source
    }

    private static func convert(_ source: PlatformFrames, data: [UInt8], animated: Bool, options: ConversionOptions,
                                plan: MemoryPlan, clock: StageClock) throws -> Result<StickerOutput, StickerError> {
        let target = options.target
        // WhatsApp's container: one frame is a still there (`StickerContainer.holdsAnimation`).
        let animationContainer = target.container(animated: true)
        let oneFrameIsStill = !animationContainer.holdsAnimation(frames: 1)
        let retiming: DelayRetiming
        switch DelayRetiming.of(source.all, animated: animated, target: target, tooLong: options.tooLong) {
        case .failure(let e): return .failure(e)
        case .success(let r): retiming = r
        }
        var frames = retiming.frames
        var warnings = source.warnings + retiming.warnings
        let tooLong = retiming.tooLong
        let inputMs = retiming.inputMs
        if animated {
            let shortestMs = DelayRetiming.shortestMs(target)
            frames = try fitFrameCount(frames, source: source, target: target, tooLong: options.tooLong,
                                       shortestMs: shortestMs, warnings: &warnings)
            if target.frameCount != nil, frames.count == 1 {
                // Every frame the same: a still for this platform, which takes no such animation.
                let first = try fit(data, animated: false, options: options, plan: plan, clock: clock, firstOf: source.facts)
                var still = try convert(first, data: data, animated: false, options: options, plan: plan, clock: clock)
                if case .success(var output) = still {
                    output.report.warnings.insert("every frame is the same: written as a still (\(target.displayName) takes no animation without change)", at: 0)
                    still = .success(output)
                }
                return still
            }
            if frames.count == 1, oneFrameIsStill {
                // One frame would make a still of this container, held to the still cap (a
                // damaged APNG salvaged to its first frame came to 104,820 bytes for WhatsApp's
                // 100,000): shown twice, it stays the animation the file says it is.
                frames = Timeline.shownTwice(frames, shortestMs: shortestMs)
                warnings.append("one frame to show: written as two showings of it, since \(target.displayName) takes a one-frame .\(animationContainer.fileExtension) file as a still")
            }
        }
        var loopCount = source.facts.loopCount
        if animated, let maxLoops = target.maxLoops {
            // Never forever: as many plays as fit the duration cap, at most `maxLoops`.
            let ms = max(1, Timeline.times(frames).last ?? 1)
            let plays = max(1, min(maxLoops, (target.maxDurationMs ?? Int.max) / ms))
            loopCount = loopCount == 0 ? plays : min(loopCount, plays)
            warnings.append(String(format: "plays %d time%@ (%.2f s each; %@: 1–%d plays, %.0f s in all)", loopCount,
                                   (loopCount == 1 ? "" : "s") as NSString, Double(ms) / 1000, target.displayName as NSString,
                                   maxLoops, Double(target.maxDurationMs ?? 0) / 1000))
        }
        var options = options
        if animated, let ms = Timeline.times(frames).last, ms > 0 {
            // The budget search may drop frames to fit: never below the platform's fewest, nor
            // to one frame where one frame would be a still.
            let fewest = target.frameCount?.lowerBound ?? (oneFrameIsStill ? 2 : 1)
            if fewest > 1 { options.minFPS = max(options.minFPS, Double(fewest) * 1000 / Double(ms)) }
        }
        options.maxBytes = min(options.maxBytes, target.maxBytes(animated: animated))
        let codec = target.codec(animated: animated)
        var result: Result<StickerOutput, StickerError>
        if case .png = codec {
            // Messages' own searches, over the store (or a store of the picks).
            let builder = StickerBuilder(size: .regular, side: source.width, fitWarnings: [], loopCount: loopCount)
            if animated {
                try plan.check(found: source.facts.frameCount, options: options, format: source.facts.format)
                let fitted = try source.fitted(frames, budget: plan.fittedFrames)
                result = try AnimationBudget.encode(fitted, loopCount: loopCount, options: options,
                                                    memory: plan.search(side: source.width), builder: builder, clock: clock)
            } else {
                let still = try source.images([frames[0]], at: [0])[0]!
                result = BudgetSearch.encodeStill(still, options: options, builder: builder, clock: clock)
            }
        } else {
            result = try encode(source, frames, loopCount: loopCount, animated: animated, codec: codec, options: options, clock: clock)
        }
        if animated, let range = target.frameCount, case .success(let output) = result {
            let written = output.bytes.withUnsafeBytes { ImageOutline.read($0)?.frameCount } ?? 0
            if !range.contains(written) {
                result = .failure(.frameCount(frames: written, allowed: range, platform: target.displayName))
            }
        }
        if case .success(var output) = result {
            output.report.platform = target.name
            output.report.container = codec.container(still: !animated)
            output.report.framesInput = source.facts.frameCount
            output.report.warnings = warnings + output.report.warnings
            var empty = NearlyEmptySticker()
            try source.walk(frames) { _, pixels in empty.add(pixels) }
            if let warning = empty.warning {
                output.report.warnings.append(warning)
                output.report.nearlyEmpty = true
            }
            if tooLong != nil {
                output.report.tooLong = tooLong
                output.report.durationInputMs = Double(inputMs)
            }
            result = .success(output)
        }
        return result
    }

    /// `frames` within `target.frameCount` where retiming can do it, counting distinct frames
    /// (identical neighbours merged first): too many are thinned
    /// (`Timeline.atMost`, a resampling on the time grid: each kept frame starts where it did);
    /// too few are the loop played several times in a row (the file's loop count then falls
    /// accordingly), sped up to the duration cap when that is longer and `--too-long speedup`, no
    /// frame shorter than `shortestMs`. Each change is a warning.
    /// Whether the written file obeys is checked after encoding (identical neighbours merge).
    private static func fitFrameCount(_ frames: [PickedFrame], source: PlatformFrames, target: StickerTarget,
                                      tooLong: TooLongPolicy, shortestMs: Int, warnings: inout [String]) throws -> [PickedFrame] {
        guard let range = target.frameCount, frames.count > 1 else { return frames }
        let frames = Timeline.mergingRepeats(frames, sameAsBefore: try source.sameAsBefore(frames))
        guard frames.count > 1 else { return frames }
        if frames.count > range.upperBound {
            let kept = Timeline.atMost(frames, range.upperBound)
            warnings.append("\(kept.count) of \(frames.count) frames kept for \(target.displayName)'s \(range.lowerBound)–\(range.upperBound) frames (each kept frame starts where it did)")
            return kept
        }
        if frames.count < range.lowerBound, let ms = Timeline.times(frames).last, ms > 0 {
            let times = (range.lowerBound + frames.count - 1) / frames.count
            let limit = target.maxDurationMs ?? Int.max
            var note = "the \(frames.count)-frame loop played \(times) times in a row for \(target.displayName)'s \(range.lowerBound)–\(range.upperBound) frames"
            var out = Timeline.repeated(frames, times: times)
            if times * ms > limit {
                // Longer than the cap once repeated: only `speedup` may shorten it.
                // No frame may come out shorter than the frame rate allows (`shortestMs`): these
                // frames have been thinned already.
                guard tooLong == .speedup, let fast = Timeline.speedUp(out, toMilliseconds: limit, shortestMs: shortestMs) else {
                    return frames
                }
                out = fast
                note += ", \(DurationText.factor(Double(times * ms) / Double(limit)))× as fast to stay within \(DurationText.seconds(limit)) s (--too-long speedup)"
            }
            warnings.append(note)
            return out
        }
        return frames
    }

    /// `CodecBudgetSearch` over the picks, with the chosen file's quality measured against the
    /// fitted frames (decoded again where ImageDecoding reads the container).
    private static func encode(_ source: PlatformFrames, _ frames: [PickedFrame], loopCount: Int, animated: Bool,
                               codec: StickerCodec, options: ConversionOptions, clock: StageClock) throws -> Result<StickerOutput, StickerError> {
        let search = CodecBudgetSearch(codec: codec, maxBytes: options.maxBytes, minFPS: options.minFPS, clock: clock)
        clock.steps = []
        let predictionsBefore = clock.timings.search.predictions
        switch try search.run(source, frames, loopCount: loopCount, animated: animated) {
        case .failure(let e):
            return .failure(e)
        case .success(let found):
            let sticker = found.sticker
            let level: Int?
            if case .level(let l) = sticker.quality { level = l } else { level = nil }
            let metrics = try clock.measure(\.other) { try measure(sticker, against: found.frames, of: source) }
            let kept = found.frames.count
            let ms = Timeline.times(found.frames).last ?? 0
            var report = OutputReport(
                size: source.width, bytes: sticker.bytes.count, mode: level == nil ? .truecolor : .lossy, colors: nil,
                dithering: nil, effort: options.effort, frames: kept, framesInput: frames.count,
                fps: animated ? Timeline.fps(frames: kept, milliseconds: ms) : nil,
                durationMs: animated ? Double(ms) : nil, quality: metrics?.quality ?? (level == nil ? 100 : 0),
                ssim: level == nil ? 1 : metrics?.ssim, psnr: level == nil ? 99 : metrics?.psnr, warnings: [])
            report.level = level
            if animated, !clock.steps.isEmpty {
                report.record(search: clock.steps, predictions: clock.timings.search.predictions - predictionsBefore)
            }
            if level != nil, let q = metrics?.quality, q < options.quality.lowerBound {
                return .failure(.belowMinimumQuality(quality: q, minimum: options.quality.lowerBound, colors: nil,
                                                     budget: options.maxBytes))
            }
            return .success(StickerOutput(size: .regular, bytes: sticker.bytes, report: report))
        }
    }

    /// SSIM, PSNR and quality (0…100) of `sticker` against the picks it was made from, over up
    /// to `measuredFrames` frames spread over the animation; nil where ImageDecoding cannot read
    /// the container (WebM) or the frame counts differ. The sticker is decoded frame by frame,
    /// keeping only the measured frames.
    private static func measure(_ sticker: EncodedSticker, against frames: [PickedFrame],
                                of source: PlatformFrames) throws -> (ssim: Double, psnr: Double, quality: Int)? {
        guard sticker.container != .webm else { return nil }
        let n = frames.count
        let picks = Array(Set((0..<min(n, measuredFrames)).map { $0 * n / min(n, measuredFrames) })).sorted()
        var decoded: [Int: Image] = [:]
        var count = 0
        do {
            _ = try ImageDecoder.decodeCanvas(sticker.bytes) { frame in
                if picks.contains(count) { decoded[count] = frame.wholeCanvas }
                count += 1
            }
        } catch {
            return nil
        }
        guard count == n else { return nil }
        let originals = try source.images(frames, at: picks)
        var ssim = 0.0, psnr = 0.0, quality = 0
        for i in picks {
            let m = QualityMetrics.compare(originals[i]!, decoded[i]!)
            ssim += m.ssim
            psnr += m.psnr
            quality += Posterizer.measure(decoded[i]!, against: originals[i]!).quality
        }
        let k = Double(picks.count)
        return (ssim / k, psnr / k, Int((Double(quality) / k).rounded()))
    }

    /// Frames a quality measurement looks at, at most.
    static let measuredFrames = 4
}
