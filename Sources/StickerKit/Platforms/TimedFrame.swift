import ImageCore

/// What `Timeline` retimes: a frame (or a reference to one) shown for `delay`.
protocol TimedFrame {
    var delay: Delay { get }
    /// The same frame shown for `delay`.
    func shown(for delay: Delay) -> Self
}

extension Frame: TimedFrame {
    func shown(for delay: Delay) -> Frame { Frame(image: image, delay: delay) }
}
