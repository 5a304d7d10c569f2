/// The container formats Stickerkit reads, identified by their magic bytes.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case png, apng, gif, jpeg, webp

    /// The name used in messages: "PNG", "APNG", "GIF", "JPEG", "WebP".
    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .apng: "APNG"
        case .gif: "GIF"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        }
    }
}
