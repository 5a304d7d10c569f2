/// The picture a platform shows for a whole pack (WhatsApp's tray icon, Telegram's thumbnail):
/// a square PNG of `side` pixels within `maxBytes`, written as `fileName`.
public struct PackIcon: Sendable, Hashable {
    public var side: Int
    public var maxBytes: Int
    public var fileName: String
    /// What the platform calls it, for people.
    public var role: String
}
