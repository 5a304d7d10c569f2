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
