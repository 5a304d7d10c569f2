extension APNGEncoder {
    /// Thrown out of an encode's frame walk once the file has passed its `stopPast` bytes: the
    /// size of the whole file, extrapolated from the frames written so far.
    struct Stopped: Error {
        var estimatedBytes: Int
    }
}
