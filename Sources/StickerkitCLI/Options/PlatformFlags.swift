import ArgumentParser
import StickerKit

extension TooLongPolicy: ExpressibleByArgument {}

/// `--platform NAME` and `--too-long POLICY`: which app the stickers are for. Messages
/// (`imessage`, the default) keeps `--size` and `--max-kb`; any other platform makes one
/// sticker per input by its own rules (`StickerTarget`): its canvas, container and byte caps,
/// which `--max-kb`/`--max-bytes` can only lower.
struct PlatformFlags: ParsableArguments {
    @OptionGroup var choice: PlatformOption

    @Option(name: .customLong("too-long"), help: "An animation longer than the platform allows: speedup (play it faster, the default), trim (keep its start) or fail.")
    var tooLong: TooLongPolicy = .speedup

    /// The chosen platform.
    var target: StickerTarget { choice.target }

    /// `options` for the chosen platform: unchanged for Messages; otherwise one sticker, whose
    /// caps are the platform's unless a budget was given (`budgetGiven`) that is lower.
    func apply(to options: ConversionOptions, budgetGiven: Bool) -> ConversionOptions {
        var o = options
        o.target = target
        o.tooLong = tooLong
        guard !target.isMessages else { return o }
        o.sizes = [.regular]
        if !budgetGiven { o.maxBytes = max(target.stillBytes, target.animationBytes) }
        return o
    }
}

extension BudgetFlags {
    /// Whether `--max-kb` or `--max-bytes` was given.
    var given: Bool { maxKB != nil || maxBytes != nil }
}
