import ImageCore

/// One frame of a retimed platform sticker: frame `index` of the fitted frames
/// (`PlatformFrames`), shown for `delay`. Retiming only picks frames and changes delays, so a
/// sticker's timeline is a list of these over one store, never copies of frames.
struct PickedFrame: TimedFrame, Equatable {
    var index: Int
    var delay: Delay

    func shown(for delay: Delay) -> PickedFrame { PickedFrame(index: index, delay: delay) }
}
