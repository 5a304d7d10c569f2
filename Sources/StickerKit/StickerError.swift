import Foundation

/// Why one size of one input produced nothing. Each case carries the values its message names.
public enum StickerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A still does not fit even as a 2-colour palette, which takes `smallest` bytes.
    case stillOverBudget(smallest: Int, budget: Int)
    /// An animation does not fit even at 2 colours with only `keptFrames` of its `frames` frames
    /// kept (`fps` frames per second, the lowest rate allowed), which takes `smallest` bytes.
    case animationOverBudget(smallest: Int, budget: Int, keptFrames: Int, frames: Int, fps: Double)
    /// The best file within the budget reaches only `quality` (0…100), below the requested
    /// `minimum`: reported as skipped, nothing written. `colors` is the palette's size, nil for
    /// lossy truecolour.
    case belowMinimumQuality(quality: Int, minimum: Int, colors: Int?, budget: Int)
    /// An animation of `durationMs` is longer than the platform's `limitMs` and `--too-long fail`
    /// was asked for.
    case tooLong(durationMs: Int, limitMs: Int, platform: String)
    /// A lossy codec's file does not fit even at its lowest `level` with `keptFrames` of `frames`
    /// frames kept: `smallest` bytes.
    /// `estimated`: `smallest` is a sampled probe's size scaled to the kept frames, for a file
    /// too far over the budget to be worth encoding whole (`CodecBudgetSearch.hopelessLastFloor`).
    case codecOverBudget(container: StickerContainer, smallest: Int, budget: Int, level: Int, keptFrames: Int, frames: Int,
                         estimated: Bool = false)
    /// The written animation holds `frames` frames (identical neighbours merge), outside the
    /// `allowed` count of `platform`.
    case frameCount(frames: Int, allowed: ClosedRange<Int>, platform: String)
    /// The animation's frames at `width × height` changed more pixels than `limit` (sticker
    /// pixels and a share of the source's: `Limits.maxChangedPixels`, which bounds the time one
    /// size takes) by frame `frame` (1-based) of `frames`: refused there, before the search.
    case tooMuchChange(limit: Int, width: Int, height: Int, frame: Int, frames: Int)

    /// One line for people, naming the values.
    public var description: String {
        switch self {
        case let .stillOverBudget(smallest, budget):
            "does not fit: even 2 colours take \(smallest) bytes, over the \(budget)-byte budget"
        case let .animationOverBudget(smallest, budget, keptFrames, frames, fps):
            String(format: "does not fit: 2 colours and %d of %d frames (%.1f fps) still take %d bytes, over the %d-byte budget",
                   keptFrames, frames, fps, smallest, budget)
        case let .belowMinimumQuality(quality, minimum, colors?, budget):
            "quality \(quality) at \(colors) colours is below the minimum \(minimum) within the \(budget)-byte budget"
        case let .belowMinimumQuality(quality, minimum, nil, budget):
            "quality \(quality) is below the minimum \(minimum) within the \(budget)-byte budget"
        case let .tooLong(durationMs, limitMs, platform):
            String(format: "the animation lasts %.2f s, over ", Double(durationMs) / 1000) + platform
                + String(format: "'s %.1f s limit (--too-long fail; speedup or trim would shorten it)", Double(limitMs) / 1000)
        case let .frameCount(frames, allowed, platform):
            "the animation has \(frames) distinct frame\(frames == 1 ? "" : "s") (identical neighbours merge); \(platform) takes \(allowed.lowerBound)–\(allowed.upperBound)"
        case let .tooMuchChange(limit, width, height, frame, frames):
            "too much change to convert in bounded time: by frame \(frame) of \(frames) its frames change more than \(Self.megapixels(limit)) (pixels of the \(width)×\(height) sticker, the source's counting half; --max-changed-mp raises the limit)"
        case let .codecOverBudget(container, smallest, budget, level, keptFrames, frames, estimated):
            "does not fit: \(container.rawValue) at quality level \(level) with \(keptFrames) of \(frames) frames still takes "
                + (estimated ? "about \(smallest) bytes (estimated from a sample of them)" : "\(smallest) bytes") + ", over the \(budget)-byte budget"
        }
    }

    /// `n` pixels in megapixels, as `--max-changed-mp` takes them ("100 MP", "2.5 MP").
    static func megapixels(_ n: Int) -> String {
        n % 1_000_000 == 0 ? "\(n / 1_000_000) MP" : String(format: "%.1f MP", Double(n) / 1e6)
    }
}
