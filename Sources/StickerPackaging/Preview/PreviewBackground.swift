import ImageCore

/// The backgrounds Apple tests stickers on, as the preview page and contact sheet draw them.
enum PreviewBackground: String, Sendable, CaseIterable {
    case white, black, red, yellow, grey, checkerboard, photo

    /// Solid colour, or nil for the patterned backgrounds.
    var color: RGBA? {
        switch self {
        case .white: RGBA(255, 255, 255)
        case .black: RGBA(0, 0, 0)
        case .red: RGBA(255, 59, 48)      // iOS system red
        case .yellow: RGBA(255, 204, 0)   // iOS system yellow
        case .grey: RGBA(128, 128, 128)
        case .checkerboard, .photo: nil
        }
    }

    /// CSS `background` value.
    var css: String {
        switch self {
        case .checkerboard:
            return "repeating-conic-gradient(#c8c8c8 0% 25%, #ffffff 0% 50%) 0 0 / 16px 16px"
        case .photo:
            return "url(data:image/jpeg;base64,\(PreviewPhoto.jpegBase64.filter { !$0.isWhitespace })) center / cover"
        default:
            let c = color!
            return "rgb(\(c.r), \(c.g), \(c.b))"
        }
    }
}
