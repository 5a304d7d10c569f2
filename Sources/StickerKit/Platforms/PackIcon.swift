/// A picture a platform shows for a whole pack (WhatsApp's tray icon, Telegram's thumbnail,
/// LINE's main and chat tab images): a `width × height` PNG within `maxBytes`, written as
/// `fileName`; one that `animates`, made from an animation, is an animation in the platform's
/// animated container within `animatedMaxBytes`, named by `StickerTarget.fileName(of:animated:)`.
public struct PackIcon: Sendable, Hashable {
    public var width: Int
    public var height: Int
    public var maxBytes: Int
    public var fileName: String
    /// What the platform calls it, for people.
    public var role: String
    /// Made from an animation, the picture is an animation too, under the platform's rules for
    /// animated stickers (frames, duration, loops) at this size and `animatedMaxBytes`: LINE's
    /// main image of an animated set is an APNG, Telegram's pack thumbnail a WebM video. Square
    /// pictures only.
    public var animates: Bool
    /// The byte cap of the animated picture (Telegram: 32 KB for a video thumbnail, where a still
    /// one may take 128 KB); `maxBytes` unless given.
    public var animatedMaxBytes: Int

    public init(width: Int, height: Int, maxBytes: Int, fileName: String, role: String, animates: Bool = false,
                animatedMaxBytes: Int? = nil) {
        self.width = width
        self.height = height
        self.maxBytes = maxBytes
        self.fileName = fileName
        self.role = role
        self.animates = animates && width == height
        self.animatedMaxBytes = animatedMaxBytes ?? maxBytes
    }

    /// A `side × side` picture.
    public init(side: Int, maxBytes: Int, fileName: String, role: String, animates: Bool = false, animatedMaxBytes: Int? = nil) {
        self.init(width: side, height: side, maxBytes: maxBytes, fileName: fileName, role: role, animates: animates,
                  animatedMaxBytes: animatedMaxBytes)
    }

    /// The same picture made as a still from any image (`animates` off): LINE's pictures of a
    /// set of stills.
    public var still: PackIcon {
        var picture = self
        picture.animates = false
        return picture
    }

    /// "96×74".
    public var dimensions: String { "\(width)×\(height)" }
}
