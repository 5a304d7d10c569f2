/// One written sticker: its size, its bytes and what was chosen.
public struct StickerOutput: Sendable {
    public var size: StickerSize
    public var bytes: [UInt8]
    public var report: OutputReport
}
