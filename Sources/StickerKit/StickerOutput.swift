/// One written sticker: its size, its bytes and what was chosen.
public struct StickerOutput: Sendable {
    /// The size it was made for.
    public var size: StickerSize
    /// The PNG or APNG file, within the byte budget.
    public var bytes: [UInt8]
    /// What the budget search chose, and how close it is to the unquantized resize.
    public var report: OutputReport
}
