/// A frame of a sequence converted frame by frame (`StickerConverter.convert(frameCount:…)`) is
/// not the size of the first.
public struct FrameSizeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The frame's position, from 0.
    public let frame: Int
    public let width: Int
    public let height: Int
    /// The first frame's size, which every frame must have.
    public let expectedWidth: Int
    public let expectedHeight: Int

    /// One line for people, naming the values.
    public var description: String {
        "frame \(frame + 1) is \(width)×\(height), the first frame is \(expectedWidth)×\(expectedHeight)"
    }
}
