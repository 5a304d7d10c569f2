import StickerKit

/// The limits `check` holds stickers to: Messages' rules, with the budget adjustable.
public struct CheckRules: Sendable, Equatable {
    /// Largest whole file in bytes (Messages refuses stickers over 500,000 bytes).
    public var maxBytes: Int
    /// An animation whose average frame rate is below this gets a warning (it looks choppy).
    public var minFPS: Double
    /// Decode pixels to tell whether a file with an alpha channel really has transparency. Off,
    /// only what the headers prove is reported.
    public var decodePixels: Bool

    public init(maxBytes: Int = ByteBudget.messages, minFPS: Double = 8, decodePixels: Bool = true) {
        self.maxBytes = maxBytes
        self.minFPS = minFPS
        self.decodePixels = decodePixels
    }
}
