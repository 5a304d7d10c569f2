/// One frame of an animation: the whole canvas as it is shown, and how long it is shown.
public struct Frame: Sendable, Equatable {
    public var image: Image
    public var delay: Delay

    public init(image: Image, delay: Delay) {
        self.image = image
        self.delay = delay
    }
}
