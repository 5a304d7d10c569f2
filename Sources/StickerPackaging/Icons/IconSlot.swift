/// One entry of the iMessage app icon set: where Xcode shows it and its exact pixel size.
public struct IconSlot: Sendable, Equatable, Codable {
    /// Where Xcode shows an icon: Contents.json's `idiom`.
    public enum Idiom: String, Sendable, Codable {
        case iphone
        case ipad
        /// Messages.
        case universal
        /// The App Store.
        case iosMarketing = "ios-marketing"
    }

    /// Contents.json's `platform`.
    public enum Platform: String, Sendable, Codable {
        case ios
    }

    public var idiom: Idiom
    /// Size in points, e.g. 60×45.
    public var pointWidth: Int
    public var pointHeight: Int
    /// 1, 2 or 3.
    public var scale: Int
    /// `.ios` for the Messages and 1024×768 App Store entries, as Xcode writes them.
    public var platform: Platform?

    public var pixelWidth: Int { pointWidth * scale }
    public var pixelHeight: Int { pointHeight * scale }
    /// `"60x45"`, as in Contents.json.
    public var sizeString: String { "\(pointWidth)x\(pointHeight)" }
    /// `iphone-60x45@2x.png`: unique within the set.
    public var fileName: String { "\(idiom.rawValue)-\(sizeString)@\(scale)x.png" }

    /// Every entry of Apple's HIG table for iMessage app and sticker pack icons, in the order
    /// Xcode lists them: iPhone 29pt @2x/@3x and 60×45pt @2x/@3x; iPad 29pt @2x, 67×50pt @2x,
    /// 74×55pt @2x; App Store 1024×1024; Messages 27×20pt and 32×24pt @2x/@3x; App Store 1024×768.
    public static let messagesAppIcon: [IconSlot] = [
        .init(idiom: .iphone, pointWidth: 29, pointHeight: 29, scale: 2),
        .init(idiom: .iphone, pointWidth: 29, pointHeight: 29, scale: 3),
        .init(idiom: .iphone, pointWidth: 60, pointHeight: 45, scale: 2),
        .init(idiom: .iphone, pointWidth: 60, pointHeight: 45, scale: 3),
        .init(idiom: .ipad, pointWidth: 29, pointHeight: 29, scale: 2),
        .init(idiom: .ipad, pointWidth: 67, pointHeight: 50, scale: 2),
        .init(idiom: .ipad, pointWidth: 74, pointHeight: 55, scale: 2),
        .init(idiom: .iosMarketing, pointWidth: 1024, pointHeight: 1024, scale: 1),
        .init(idiom: .universal, pointWidth: 27, pointHeight: 20, scale: 2, platform: .ios),
        .init(idiom: .universal, pointWidth: 27, pointHeight: 20, scale: 3, platform: .ios),
        .init(idiom: .universal, pointWidth: 32, pointHeight: 24, scale: 2, platform: .ios),
        .init(idiom: .universal, pointWidth: 32, pointHeight: 24, scale: 3, platform: .ios),
        .init(idiom: .iosMarketing, pointWidth: 1024, pointHeight: 768, scale: 1, platform: .ios),
    ]

    public init(idiom: Idiom, pointWidth: Int, pointHeight: Int, scale: Int, platform: Platform? = nil) {
        self.idiom = idiom
        self.pointWidth = pointWidth
        self.pointHeight = pointHeight
        self.scale = scale
        self.platform = platform
    }
}
