/// One encoded sticker: the whole file, what it is, and the quality it was asked for.
public struct EncodedSticker: Sendable, Equatable {
    public var bytes: [UInt8]
    public var container: StickerContainer
    /// An animated file (APNG, animated WebP, or any WebM).
    public var animated: Bool
    public var quality: EncodeQuality
}
