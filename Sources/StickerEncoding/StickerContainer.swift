/// The file a sticker is written as.
public enum StickerContainer: String, Sendable, Hashable, CaseIterable, Codable {
    case png, apng, webp, webm

    /// The file name extension, without the dot. An APNG is a PNG file and takes `png`.
    public var fileExtension: String {
        switch self {
        case .png, .apng: "png"
        case .webp: "webp"
        case .webm: "webm"
        }
    }

    /// Whether a file of `frames` frames in this container is an animation. An APNG (its acTL)
    /// and a WebM (a video) are, whatever their frame count; a WebP or PNG of one frame is a
    /// still: WhatsApp tells its two kinds of sticker apart by the frame count, so a one-frame
    /// animated WebP is held to the still cap (100 KB) and cannot join an animated pack.
    public func holdsAnimation(frames: Int) -> Bool {
        switch self {
        case .apng, .webm: true
        case .png, .webp: frames > 1
        }
    }

    /// The media type, as a browser or an upload form names it.
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .apng: "image/apng"
        case .webp: "image/webp"
        case .webm: "video/webm"
        }
    }
}
