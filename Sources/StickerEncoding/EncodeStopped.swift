/// Thrown by `StickerCodec.encode(_:quality:stopPast:)` when the file was sure to pass
/// `stopPast` bytes before all of it was encoded (WebM): `estimatedBytes` is the whole file's
/// size extrapolated from the frames encoded.
public struct EncodeStopped: Error, Equatable {
    public let estimatedBytes: Int
}
