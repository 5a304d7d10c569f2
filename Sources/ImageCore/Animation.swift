/// What every decoder returns: frames composited on the full canvas, exact delays and a loop
/// count. A still image is an animation of one frame.
public struct Animation: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// At least one frame; every frame is `width × height`.
    public var frames: [Frame]
    /// Times to play; 0 means forever.
    public var loopCount: Int

    public init(width: Int, height: Int, frames: [Frame], loopCount: Int = 0) {
        precondition(!frames.isEmpty && frames.allSatisfy { $0.image.width == width && $0.image.height == height },
                     "Animation: frames must match the canvas \(width)×\(height)")
        self.width = width
        self.height = height
        self.frames = frames
        self.loopCount = loopCount
    }

    /// A one-frame animation.
    public init(still image: Image) {
        self.init(width: image.width, height: image.height, frames: [Frame(image: image, delay: .zero)])
    }

    public var isAnimated: Bool { frames.count > 1 }

    /// Sum of the frame delays as browsers show them (`Delay.displayed`: 10 ms or less counts as
    /// 100 ms).
    public var duration: Delay { frames.reduce(Delay.zero) { $0 + $1.delay.displayed } }
}
