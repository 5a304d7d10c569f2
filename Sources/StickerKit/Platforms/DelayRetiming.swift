import Foundation

/// The part of a platform sticker's retiming that reads only delays, never pixels: the delays
/// players show (`Timeline.displayed`), the duration cap (`--too-long`: sped up or cut) and the
/// frame-rate limit (`Timeline.thin`). What comes after it (merging repeated frames, the
/// platform's frame count) compares pixels. Since it needs no pixels, it can be worked out from
/// the container's stored delays before a frame is fitted (`PlatformConverter`), so that only
/// the frames it keeps are fitted.
struct DelayRetiming {
    /// The frames kept, with their delays.
    var frames: [PickedFrame]
    /// One line per change made.
    var warnings: [String] = []
    /// The policy applied when the animation was longer than the platform's cap.
    var tooLong: TooLongPolicy?
    /// The animation's length as shown, in milliseconds.
    var inputMs: Int

    /// The highest frame rate written: the platform's, and never above `fastestFPS` (frames
    /// shown for 10 ms or less would be shown for 100 ms, `Delay.displayed`).
    static func fpsLimit(_ target: StickerTarget) -> Double {
        min(target.maxFPS ?? fastestFPS, fastestFPS)
    }

    /// The shortest frame written, in milliseconds (`fpsLimit`'s).
    static func shortestMs(_ target: StickerTarget) -> Int {
        Int((1000 / fpsLimit(target)).rounded(.up))
    }

    /// The highest frame rate written when a platform names none: frames of 11 ms and more are
    /// shown as long as they say.
    static let fastestFPS = 90.0

    /// `all` (every frame once, delays as decoded) retimed for `target`: a still (`animated`
    /// false) only shown as its delays say. Fails when the animation is too long and
    /// `tooLong` is `.fail`.
    static func of(_ all: [PickedFrame], animated: Bool, target: StickerTarget,
                   tooLong policy: TooLongPolicy) -> Result<DelayRetiming, StickerError> {
        let shown = Timeline.displayed(all)
        var out = DelayRetiming(frames: shown, inputMs: Timeline.times(shown).last ?? 0)
        guard animated else { return .success(out) }
        let name = target.displayName
        if let limit = target.maxDurationMs, out.inputMs > limit {
            let input = DurationText.seconds(out.inputMs), cap = DurationText.seconds(limit)
            switch policy {
            case .fail:
                return .failure(.tooLong(durationMs: out.inputMs, limitMs: limit, platform: name))
            case .speedup:
                out.frames = Timeline.speedUp(out.frames, toMilliseconds: limit)
                out.warnings.append("\(input) s is over \(name)'s \(cap) s limit: played \(DurationText.factor(Double(out.inputMs) / Double(limit)))× as fast (--too-long speedup)")
            case .trim:
                out.frames = Timeline.trim(out.frames, toMilliseconds: limit)
                out.warnings.append("\(input) s is over \(name)'s \(cap) s limit: cut to its first \(cap) s (--too-long trim)")
            }
            out.tooLong = policy
        }
        let before = out.frames.count
        out.frames = Timeline.thin(out.frames, maxFPS: fpsLimit(target))
        if out.frames.count < before, target.maxFPS != nil {
            out.warnings.append(String(format: "%d of %d frames kept for %@'s %.0f fps limit", out.frames.count, before,
                                       name as NSString, fpsLimit(target)))
        }
        return .success(out)
    }

    /// `of` an animation's frames as its container stores their delays (`storedDelays`, one per
    /// frame), or nil when it holds one frame or the delays do not say for every frame.
    static func ofStored(_ storedDelays: [Delay], frameCount: Int, target: StickerTarget,
                         tooLong: TooLongPolicy) -> Result<DelayRetiming, StickerError>? {
        guard frameCount > 1, storedDelays.count == frameCount else { return nil }
        let all = storedDelays.enumerated().map { PickedFrame(index: $0.offset, delay: $0.element) }
        return of(all, animated: true, target: target, tooLong: tooLong)
    }

    /// The frames `of` keeps, worked out from the delays a container stores (`storedDelays`,
    /// one per frame): nil when it keeps them all, or the delays cannot say. A prediction only:
    /// the decode's own delays decide (a damaged file may decode otherwise).
    static func predictedFrames(storedDelays: [Delay], frameCount: Int, animated: Bool, target: StickerTarget,
                                tooLong: TooLongPolicy) -> Set<Int>? {
        guard animated, let retimed = ofStored(storedDelays, frameCount: frameCount, target: target, tooLong: tooLong) else { return nil }
        switch retimed {
        case .failure:
            // Refused for its length: the first frame is all the refusal needs.
            return [0]
        case .success(let kept):
            return kept.frames.count < frameCount ? Set(kept.frames.map(\.index)) : nil
        }
    }
}
