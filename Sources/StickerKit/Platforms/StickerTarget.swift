import StickerEncoding

/// One platform's sticker rules, as data: what `resize --platform`, `check --platform`, output
/// naming and the README's platform table all read. A new platform is one new value (see
/// `StickerTarget+Platforms.swift`) plus its entry in `all`.
///
/// Every figure is a platform's published limit (the README's platform table cites the source of
/// each); where a platform publishes none, the field is nil and nothing is checked.
public struct StickerTarget: Sendable, Hashable {
    /// The name on the command line and in reports (`signal`, `whatsapp`, …).
    public var name: String
    /// The app, for people ("Signal", "WhatsApp").
    public var displayName: String
    /// Side of the square canvas in pixels: every sticker is exactly this wide and high, the
    /// artwork fitted inside it (iMessage: `nil`, its sizes are `StickerSize`).
    public var side: Int?
    /// The codec for stills and for animations (data: the budget search turns its quality knob).
    package var stillCodec: StickerCodec
    package var animationCodec: StickerCodec
    /// Largest file, in bytes, for a still and for an animation.
    public var stillBytes: Int
    public var animationBytes: Int
    /// Longest loop of an animation, in milliseconds; nil: no limit.
    public var maxDurationMs: Int?
    /// Highest frame rate of an animation (frames shown per second, over any frame); nil: no limit.
    public var maxFPS: Double?
    /// A canvas that follows the artwork's shape, for stills and for animations (LINE); nil: the
    /// `side` square.
    public var stillBox: CanvasBox? = nil
    public var animationBox: CanvasBox? = nil
    /// How many frames an animation's file must hold (LINE: 5…20); nil: any.
    public var frameCount: ClosedRange<Int>? = nil
    /// Most times an animation may play (LINE: 4, and all plays together within
    /// `maxDurationMs`; never forever); nil: any, looping forever as the source says.
    public var maxLoops: Int? = nil
    /// The pictures the pack is shown by (`icons --platform`), in the order the platform lists
    /// them; empty when it asks for none.
    public var packIcons: [PackIcon] = []
    /// Whether a PNG may be gray (colour types 0 and 4) when every pixel is: false for an app that
    /// asks for RGB colour (LINE), whose PNGs are then palette, RGB or RGBA.
    public var allowsGrayPNG: Bool = true

    /// The container a still (`animated == false`) or an animation is written as.
    public func container(animated: Bool) -> StickerContainer {
        animated ? animationCodec.container(still: false) : stillCodec.container(still: true)
    }

    /// Every container this platform takes, stills and animations.
    public var containers: Set<StickerContainer> { [container(animated: false), container(animated: true)] }

    /// The shape-following canvas of a still or an animation, nil for a square platform.
    public func box(animated: Bool) -> CanvasBox? { animated ? animationBox : stillBox }

    /// The canvas rule for people: "512", "≤ 370×320, even sides / ≤ 320×270, …".
    public var canvasDescription: String {
        if let s = stillBox, let a = animationBox { return s == a ? s.description : "\(s.description) / \(a.description)" }
        return side.map(String.init) ?? StickerSize.allCases.map { String($0.pixels) }.joined(separator: " / ")
    }

    /// The name of a platform run's one size in reports and messages: its side ("512"), or the
    /// platform's name when the canvas follows the artwork ("line").
    public var sizeName: String { side.map(String.init) ?? name }

    /// The byte cap for a still or an animation.
    public func maxBytes(animated: Bool) -> Int { animated ? animationBytes : stillBytes }

    /// The codec for a still or an animation.
    package func codec(animated: Bool) -> StickerCodec { animated ? animationCodec : stillCodec }

    /// The rules an animated pack picture (`PackIcon.animates`) is made and checked by: this
    /// platform's animation rules (frames, duration, loops, codec) on the picture's square and
    /// within its cap (`PackIcon.animatedMaxBytes`), with no pack pictures of its own.
    public func animationTarget(for icon: PackIcon) -> StickerTarget {
        var picture = self
        picture.side = icon.width
        picture.animationBox = nil
        picture.animationBytes = icon.animatedMaxBytes
        picture.packIcons = []
        return picture
    }

    /// The file name of pack picture `icon`, a still or (`animated`, for a picture that
    /// `PackIcon.animates`) an animation: `PackIcon.fileName`, its extension the animated
    /// container's for an animation (Telegram's `thumbnail.webm`; LINE's `main.png` either way).
    public func fileName(of icon: PackIcon, animated: Bool) -> String {
        guard animated && icon.animates else { return icon.fileName }
        let stem = icon.fileName.split(separator: ".", omittingEmptySubsequences: false).dropLast().joined(separator: ".")
        return stem + "." + container(animated: true).fileExtension
    }

    /// Every name pack picture `icon` may be written as, the still's first.
    public func fileNames(of icon: PackIcon) -> [String] {
        let animated = fileName(of: icon, animated: true)
        return animated == icon.fileName ? [icon.fileName] : [icon.fileName, animated]
    }

    /// Whether this is Messages (today's pipeline: `StickerSize`s, `ConversionOptions.maxBytes`).
    public var isMessages: Bool { self == .imessage }

    /// Every platform, in the order help texts list them. The one registration point.
    public static let all: [StickerTarget] = [.imessage, .signal, .whatsapp, .telegram, .discord, .line]

    /// The platform called `name` (case-insensitive), or nil.
    public static func named(_ name: String) -> StickerTarget? {
        all.first { $0.name == name.lowercased() }
    }
}
