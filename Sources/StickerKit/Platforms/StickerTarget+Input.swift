import ImageDecoding

extension StickerTarget {
    /// The file name extension of the sticker this platform makes from the file in `bytes`,
    /// judged from its outline alone (an animation: more than one frame, or an APNG), so that a
    /// batch can name outputs before converting. `png` when the outline cannot be read.
    public func fileExtension(forInput bytes: UnsafeRawBufferPointer) -> String {
        if stillCodec.container(still: true).fileExtension == animationCodec.container(still: false).fileExtension {
            return stillCodec.container(still: true).fileExtension
        }
        guard let o = ImageOutline.read(bytes) else { return container(animated: false).fileExtension }
        return container(animated: o.frameCount > 1 || o.format == .apng).fileExtension
    }
}
