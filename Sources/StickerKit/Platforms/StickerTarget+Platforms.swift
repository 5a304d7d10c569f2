import PNGEncoding
import StickerEncoding
import WebMEncoding
import WebPEncoding

extension StickerTarget {
    /// Messages: PNG/APNG at 300, 408 or 618 px (`StickerSize`), 500,000 bytes
    /// (`ByteBudget.messages`), no duration limit. Converted by the pipeline as it always was.
    public static let imessage = StickerTarget(
        name: "imessage", displayName: "iMessage", side: nil, stillCodec: .png(.default), animationCodec: .png(.default),
        stillBytes: ByteBudget.messages, animationBytes: ByteBudget.messages, maxDurationMs: nil, maxFPS: nil)

    /// Signal: PNG or APNG (WebP also accepted; PNG keeps every pixel exact), 512×512, 300 KB,
    /// animations at most 3 s.
    public static let signal = StickerTarget(
        name: "signal", displayName: "Signal", side: 512, stillCodec: .png(.default), animationCodec: .png(.default),
        stillBytes: 300_000, animationBytes: 300_000, maxDurationMs: 3_000, maxFPS: 30)

    /// WhatsApp: WebP, 512×512, stills 100 KB, animations 500 KB and at most 10 s; the pack
    /// needs a 96×96 PNG tray icon of at most 50 KB. Animations are encoded at libwebp's method 2
    /// (stills at its default, 4): a third less CPU over the animated corpus, and the search
    /// spends the bytes method 4 would save on a higher level (StickerKit NOTES.md).
    public static let whatsapp = StickerTarget(
        name: "whatsapp", displayName: "WhatsApp", side: 512, stillCodec: .webp(WebPOptions()),
        animationCodec: .webp(WebPOptions(method: 2)), stillBytes: 100_000, animationBytes: 500_000, maxDurationMs: 10_000,
        maxFPS: 30, packIcons: [PackIcon(side: 96, maxBytes: 50_000, fileName: "tray.png", role: "tray icon")])

    /// Telegram: stills PNG (or WebP) with one side 512 (here both: a 512 square), 512 KB; video
    /// stickers VP9 WebM with alpha, 256 KB, at most 3 s and 30 fps; a 100×100 pack thumbnail
    /// (PNG, at most 128 KB; from an animation a WebM video under the video stickers' rules, at
    /// most 32 KB: `thumbnail.webm`).
    public static let telegram = StickerTarget(
        name: "telegram", displayName: "Telegram", side: 512, stillCodec: .png(.default), animationCodec: .webm(WebMOptions()),
        stillBytes: 512_000, animationBytes: 256_000, maxDurationMs: 3_000, maxFPS: 30,
        packIcons: [PackIcon(side: 100, maxBytes: 128_000, fileName: "thumbnail.png", role: "pack thumbnail", animates: true,
                             animatedMaxBytes: 32_000)])

    /// Discord: PNG or APNG, 320×320, 512 KB.
    public static let discord = StickerTarget(
        name: "discord", displayName: "Discord", side: 320, stillCodec: .png(.default), animationCodec: .png(.default),
        stillBytes: 512_000, animationBytes: 512_000, maxDurationMs: nil, maxFPS: nil)

    /// LINE (Creators Market): stills PNG at most 370×320 (≤ 1 MB), animations APNG at most
    /// 320×270 with the longer side at least 270 (≤ 300 KB), both even-sided with about 10 px of
    /// transparent margin; animations 5–20 frames, at most 4 s, played 1–4 times within 4 s in all.
    /// A set shows a 240×240 main image and a 96×74 chat tab image (PNG, transparent; 1 MB each
    /// for stills, 300 KB for animated sets: 300 KB serves both), named `main.png` and `tab.png`
    /// in the upload ZIP; an animated set's main image is an APNG under the animation rules. Files
    /// "in RGB color space", its guidelines say: never a gray PNG.
    public static let line = StickerTarget(
        name: "line", displayName: "LINE", side: nil, stillCodec: .png(.default), animationCodec: .png(.default),
        stillBytes: 1_000_000, animationBytes: 300_000, maxDurationMs: 4_000, maxFPS: nil,
        stillBox: CanvasBox(width: 370, height: 320, margin: 10),
        animationBox: CanvasBox(width: 320, height: 270, margin: 10, minLongSide: 270), frameCount: 5...20, maxLoops: 4,
        packIcons: [PackIcon(side: 240, maxBytes: 300_000, fileName: "main.png", role: "main image", animates: true),
                    PackIcon(width: 96, height: 74, maxBytes: 300_000, fileName: "tab.png", role: "chat tab image")],
        allowsGrayPNG: false)
}
