/// Thrown by `WebMEncoder.encode(…stopPast:…)` once the file is sure to pass `stopPast` bytes
/// (the packets coded so far already do), instead of coding the rest: a search that only needs
/// to know a file is over its budget learns it from the first frames. `estimatedBytes`: the
/// packets of the whole file, extrapolated from the frames coded (`WebMEncoder.extrapolated`);
/// `framesCoded`: how many frames of the stream it stopped in were coded.
public struct WebMStopped: Error, Equatable {
    public let estimatedBytes: Int
    public let framesCoded: Int
}
