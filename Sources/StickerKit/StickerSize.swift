/// Messages' three sticker grid sizes.
public enum StickerSize: String, Sendable, CaseIterable, Codable, Comparable {
    case small, regular, large

    /// Side of the square in pixels: 300, 408, 618.
    public var pixels: Int {
        switch self {
        case .small: 300
        case .regular: 408
        case .large: 618
        }
    }

    public static func < (a: StickerSize, b: StickerSize) -> Bool { a.pixels < b.pixels }
}
