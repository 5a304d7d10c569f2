import ImageDecoding
import StickerKit

/// A LINE sticker set as the ZIP archive LINE Creators Market takes in one upload: the stickers
/// as PNG or APNG (`01.png`, `02.png`, … in set order), the main image (`main.png`, 240×240) and
/// the chat tab image (`tab.png`, 96×74), stored (`StoredZip`). LINE's set rules: 8, 16, 24, 32
/// or 40 stills, or 8, 16 or 24 animations, never both kinds in one set; the archive at most
/// 20 MB. The archive's comment marks it as stickerkit's (`isStickerkitArchive`), so that a rerun
/// may replace it while any other file at that path is kept unless the user says otherwise.
public struct LinePack: Sendable {
    /// How many stickers a set of stills may hold.
    public static let stillCounts = [8, 16, 24, 32, 40]
    /// How many stickers a set of animations may hold.
    public static let animationCounts = [8, 16, 24]
    /// The largest archive LINE takes in one upload (20 MB, counted in decimal megabytes so that
    /// either reading of "MB" holds).
    public static let maxArchiveBytes = 20_000_000
    /// The archive comment that marks an archive stickerkit wrote.
    public static let marker = "stickerkit LINE sticker set"

    public struct Sticker: Sendable {
        public var png: [UInt8]
        public var animated: Bool
        public init(png: [UInt8], animated: Bool) {
            self.png = png
            self.animated = animated
        }
    }

    public var stickers: [Sticker]
    /// The main image (`main.png`): an APNG for a set of animations.
    public var mainPNG: [UInt8]
    /// The chat tab image (`tab.png`).
    public var tabPNG: [UInt8]

    public init(stickers: [Sticker], mainPNG: [UInt8], tabPNG: [UInt8]) {
        self.stickers = stickers
        self.mainPNG = mainPNG
        self.tabPNG = tabPNG
    }

    /// The set sizes LINE takes for stills (`animated` false) or animations.
    public static func counts(animated: Bool) -> [Int] { animated ? animationCounts : stillCounts }

    /// The pack pictures' entry names, LINE's own: `main.png` and `tab.png`
    /// (`StickerTarget.line.packIcons`, in that order).
    public static var pictureNames: [String] { StickerTarget.line.packIcons.map(\.fileName) }

    /// LINE's set rules for `count` stickers, `animations` of them animated.
    public static func check(count: Int, animations: Int) throws(LinePackError) {
        if animations > 0 && animations < count { throw .mixedKinds(stills: count - animations, animations: animations) }
        let animated = count > 0 && animations == count
        if !counts(animated: animated).contains(count) { throw .setSize(count, animated: animated) }
    }

    /// Whether the PNG file `png` is an animation: an APNG of more than one frame, as LINE counts
    /// them (an APNG of one frame shows as a still).
    public static func isAnimation(_ png: [UInt8]) -> Bool {
        (png.withUnsafeBytes { ImageOutline.read($0)?.frameCount } ?? 1) > 1
    }

    /// The entry name of the sticker at `index` (0-based): `01.png`, `02.png`, …
    public static func stickerName(_ index: Int) -> String {
        (index < 9 ? "0" : "") + "\(index + 1).png"
    }

    /// The archive's bytes, after the set rules (`check`) and within `maxArchiveBytes`.
    public func archive() throws(LinePackError) -> [UInt8] {
        try Self.check(count: stickers.count, animations: stickers.filter(\.animated).count)
        var entries = stickers.enumerated().map { StoredZip.Entry(name: Self.stickerName($0.offset), bytes: $0.element.png) }
        for (name, bytes) in zip(Self.pictureNames, [mainPNG, tabPNG]) { entries.append(.init(name: name, bytes: bytes)) }
        let bytes = StoredZip(entries: entries, comment: Self.marker).bytes()
        if bytes.count > Self.maxArchiveBytes { throw .archiveTooLarge(bytes.count) }
        return bytes
    }

    /// Whether `bytes` are an archive stickerkit wrote (its comment is `marker`), or the last
    /// `WastickersPack.markerTailBytes` of one.
    public static func isStickerkitArchive(_ bytes: [UInt8]) -> Bool {
        StoredZip.comment(of: bytes) == marker
    }
}
